"""Every learner page shows the learner's last act and the last content change on the very next
request, whichever server or process made the change; and a tick is durable once acknowledged."""

import datetime
import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from phases.models import ContentVersion, Phase, Question, SelfCheck, Topic
from progress.auth import LearnerBackend
from progress.memory.ticks import set_done
from progress.models import CheckOff, NotYet, StudyPlan
from progress.verdicts.figures import learner_state
from tests.conftest import HTMX, read_yaml
from tests.factories import (
    answer_again,
    answer_from_memory,
    days_later,
    domain_names,
    drill_for,
    items_of,
    make_due,
    make_missed_due,
    make_plan,
    miss,
    mock_for,
    review_from_memory,
    review_revealed,
    settle_revealed,
    shown,
    tick,
    tick_exercise_parts,
    write_exercise,
)
from tests.html import (
    descendants,
    element_by_id,
    header_review,
    page_text,
    with_tag,
    without_csrf,
)

DASHBOARD = reverse("progress:dashboard")
FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "syllabus.yaml"


def weighted(response) -> str:
    return re.search(r'class="big-figure">(\d+)%', response.text).group(1)


def column(response, slug: str, label: str) -> str:
    """A domain's cell in the dashboard's domain table, found by its column's label."""
    (table,) = [e for e in with_tag(response.content, "table") if "domain-table" in e.classes]
    (row,) = [
        row
        for row in descendants(table)
        if row.tag == "tr"
        and any(e.tag == "th" and e.text.startswith(domain_names()[slug]) for e in row.children)
    ]
    (cell,) = [e for e in row.children if e.attrs.get("data-label") == label]
    return cell.text


def review_due(response, slug: str = "core-ml") -> str:
    return column(response, slug, "Review due")


def accurate(response, slug: str) -> str:
    return column(response, slug, "Accuracy (practice)")


def client_for(user, **defaults) -> Client:
    client = Client(**defaults)
    client.force_login(user)
    return client


# Every write to a learner's rows shows on their next dashboard


@pytest.mark.django_db
def test_a_tick_and_an_untick_show_on_the_next_dashboard(learner_client, learner):
    make_plan(learner)
    assert weighted(learner_client.get(DASHBOARD)) == "0"
    toggle = reverse("progress:selfcheck-toggle", args=["p1-backprop"])

    answer_from_memory(learner_client, "p1-backprop", **HTMX)
    after_tick = learner_client.get(DASHBOARD)
    learner_client.post(toggle, {"done": "0"})
    after_untick = learner_client.get(DASHBOARD)

    assert weighted(after_tick) == "3"  # 1 of 6 core-ml checks x 20% = 3.3%
    assert "1 of 42 self-checks done" in page_text(after_tick.content)
    assert weighted(after_untick) == "0"


@pytest.mark.django_db
def test_a_tick_written_outside_this_request_shows_on_the_next_dashboard(learner_client, learner):
    # Another server process shares only the database.
    make_plan(learner)
    learner_client.get(DASHBOARD)
    set_done(
        user=learner, self_check_id=SelfCheck.objects.get(slug="p2-fid-direction").pk, done=True
    )

    assert "1 of 42 self-checks done" in page_text(learner_client.get(DASHBOARD).content)


@pytest.mark.django_db
def test_saying_the_same_thing_twice_changes_nothing(learner):
    make_plan(learner)
    check = SelfCheck.objects.get(slug="p1-backprop").pk

    assert set_done(user=learner, self_check_id=check, done=True) is True
    done_at = CheckOff.objects.get(user=learner).done_at
    assert set_done(user=learner, self_check_id=check, done=True) is False  # already ticked
    assert CheckOff.objects.get(user=learner).done_at == done_at
    assert set_done(user=learner, self_check_id=check, done=False) is True
    assert set_done(user=learner, self_check_id=check, done=False) is False
    assert not CheckOff.objects.filter(user=learner).ticked().exists()


POSTGRESQL_ONLY = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's synchronous_commit"
)


def synchronous_commit() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


def flushed_when_committed(write) -> bool:
    """Whether, as soon as ``write`` has committed, PostgreSQL's WAL is flushed to disk past where
    it stood before the write: always, for a commit that waits for the disk."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_insert_lsn()")
        (before,) = cursor.fetchone()
        write()
        cursor.execute("SELECT pg_current_wal_flush_lsn() > %s::pg_lsn", [before])
        return cursor.fetchone()[0]


@POSTGRESQL_ONLY
@pytest.mark.django_db(transaction=True)
def test_a_tick_commits_only_once_it_is_on_disk(learner):
    make_plan(learner)
    check = SelfCheck.objects.get(slug="p1-backprop").pk
    turns = [n % 2 == 0 for n in range(20)]  # tick, untick, ...

    ticks = [
        flushed_when_committed(
            lambda done=done: set_done(user=learner, self_check_id=check, done=done)
        )
        for done in turns
    ]
    plans = [
        flushed_when_committed(
            lambda n=n: StudyPlan.objects.filter(user=learner).update(
                kind=["fitted", "paced"][n % 2]
            )
        )
        for n in range(20)
    ]

    # A tick is acknowledged only once flushed, like every other write: none can be lost.
    assert all(plans)
    assert all(ticks)
    assert synchronous_commit() == "on"


@POSTGRESQL_ONLY
@pytest.mark.django_db(transaction=True)
def test_a_tick_inside_a_transaction_leaves_that_transaction_waiting_for_the_disk(learner):
    make_plan(learner)
    check = SelfCheck.objects.get(slug="p1-backprop").pk

    with transaction.atomic():
        assert set_done(user=learner, self_check_id=check, done=True) is True
        assert synchronous_commit() == "on"

    assert CheckOff.objects.filter(user=learner, self_check_id=check).ticked().exists()


@pytest.mark.django_db
def test_a_not_yet_is_no_tick_on_the_next_dashboard_and_counts_in_the_next_days_reviews(
    learner_client, learner
):
    make_plan(learner)

    answer_from_memory(learner_client, "p1-backprop", "not-yet", **HTMX)

    dashboard = learner_client.get(DASHBOARD)
    assert weighted(dashboard) == "0"
    assert "0 of 42 self-checks done" in page_text(dashboard.content)
    assert header_review(dashboard) == "Review today (0)"
    # The next day (as if tried yesterday): back in the queue.
    yesterday = timezone.now() - datetime.timedelta(days=1)
    NotYet.objects.filter(user=learner).update(tried_at=yesterday, due=yesterday)
    days_later(learner)
    assert header_review(learner_client.get(DASHBOARD)) == "Review today (1)"


@pytest.mark.django_db
def test_a_review_shows_on_the_next_dashboard(learner_client, learner):
    make_plan(learner)
    tick(learner, "p1-backprop")
    make_due(learner, "p1-backprop")
    assert review_due(learner_client.get(DASHBOARD)) == "1"

    review_from_memory(learner_client, "p1-backprop", 3)

    assert review_due(learner_client.get(DASHBOARD)) == "0"


@pytest.mark.django_db
def test_reviewing_a_missed_question_shows_on_the_next_dashboard(learner_client, learner):
    make_plan(learner)
    (card,) = miss(learner, Question.objects.current().first())
    make_missed_due(learner, card)
    assert header_review(learner_client.get(DASHBOARD)) == "Review today (1)"

    answer_again(learner_client, card, right=True)

    assert header_review(learner_client.get(DASHBOARD)) == "Review today (0)"


@pytest.mark.django_db
def test_a_drill_answer_shows_on_the_next_dashboard(learner_client, learner):
    make_plan(learner)
    attempt = drill_for(learner, "trustworthy-ai")
    assert accurate(learner_client.get(DASHBOARD), "trustworthy-ai") == "no practice answers yet"
    item = items_of(attempt)[0]

    learner_client.post(
        reverse("progress:attempt-answer", args=[attempt.pk, 1]),
        {"option": shown(item, item.question.correct_options)},
    )

    assert accurate(learner_client.get(DASHBOARD), "trustworthy-ai").startswith(
        "1 of 1 right: 80% range 32–95%"
    )


@pytest.mark.django_db
def test_handing_in_a_mock_shows_on_the_next_dashboard(learner_client, learner, settings):
    settings.MOCK_QUESTIONS = 10
    make_plan(learner)
    attempt = mock_for(learner)
    assert accurate(learner_client.get(DASHBOARD), "experimentation") == "no practice answers yet"

    # Nothing answered: handed in only once confirmed, every question counting as wrong.
    learner_client.post(reverse("progress:attempt-submit", args=[attempt.pk]), {"confirmed": "1"})

    assert accurate(learner_client.get(DASHBOARD), "experimentation").startswith(
        "0 of 3 right: 80% range 3–44%"
    )


@pytest.mark.django_db
def test_changing_the_plan_shows_on_the_next_dashboard(learner_client, learner):
    make_plan(learner, intensity="standard")
    assert "Standard schedule" in learner_client.get(DASHBOARD).text

    learner_client.post(
        reverse("progress:plan-choose"),
        {"intensity": "extended", "start_date": learner.study_plan.start_date.isoformat()},
    )
    learner_client.get(reverse("progress:plan"))  # shows the one-off "saved" message

    assert "Extended schedule" in learner_client.get(DASHBOARD).text


# Content changes reach every learner page on the next request, with no timed expiry

EDITED = "Edited: what does a residual connection do for gradient flow in deep networks?"


@pytest.fixture
def planned_learner(learner):
    make_plan(learner)
    tick(learner, "p1-multimodal-loss")  # on plan: the dashboard quotes the next check's prompt
    return learner


@pytest.mark.django_db
def test_an_admin_save_of_a_self_check_shows_on_the_next_request(learner_client, planned_learner):
    assert "p1-residual-gradient-flow" in learner_client.get(DASHBOARD).text
    version = ContentVersion.objects.get().number
    check = SelfCheck.objects.get(slug="p1-residual-gradient-flow")

    check.prompt = EDITED
    check.save()  # what the admin's change form does

    assert ContentVersion.objects.get().number == version + 1
    assert EDITED in page_text(learner_client.get(DASHBOARD).content)
    phase = learner_client.get(reverse("progress:phase", args=["core-ml-foundations"]))
    assert EDITED in page_text(phase.content)


@pytest.mark.django_db
def test_an_admin_delete_moves_the_content_version(syllabus):
    version = ContentVersion.objects.get().number

    Topic.objects.filter(slug="fid").get().delete()

    assert ContentVersion.objects.get().number == version + 1


@pytest.mark.django_db
def test_a_content_reload_shows_on_the_next_request(learner_client, planned_learner, tmp_path):
    learner_client.get(DASHBOARD)
    version = ContentVersion.objects.get().number
    objects = read_yaml(FIXTURE)
    for obj in objects:
        if obj["model"] == "phases.selfcheck" and obj["fields"]["slug"] == (
            "p1-residual-gradient-flow"
        ):
            obj["fields"]["prompt"] = EDITED
    edited = tmp_path / "syllabus.yaml"
    edited.write_text(yaml.safe_dump(objects, allow_unicode=True), encoding="utf-8")

    call_command("load_syllabus", file=edited, verbosity=0)

    assert ContentVersion.objects.get().number > version
    assert EDITED in page_text(learner_client.get(DASHBOARD).content)


@pytest.mark.django_db
def test_a_content_version_moved_by_another_server_rebuilds_this_servers_syllabus(
    learner_client, planned_learner
):
    learner_client.get(reverse("progress:phase", args=["core-ml-foundations"]))
    # Another server's edit: the rows change and the version moves, with no signal here.
    SelfCheck.objects.filter(slug="p1-residual-gradient-flow").update(prompt=EDITED)
    phase_url = reverse("progress:phase", args=["core-ml-foundations"])
    assert EDITED not in learner_client.get(phase_url).text  # this process's snapshot stands

    ContentVersion.bump()

    assert EDITED in page_text(learner_client.get(phase_url).content)
    assert EDITED in page_text(learner_client.get(DASHBOARD).content)


# Reloading an edited syllabus keeps every learner's progress on the checks that remain

KEPT = ["p1-residual-gradient-flow", "p3-clip-training"]
RETIRED = "p3-time-series-geospatial"
NEW = "p3-new-audio-spectrogram"


def edited_syllabus(tmp_path: Path) -> Path:
    objects = read_yaml(FIXTURE)
    for obj in objects:
        fields = obj["fields"]
        if obj["model"] == "phases.phase" and fields["slug"] == "multimodal-data":
            fields["title"] = "Multimodal data, fused deliberately"
        if obj["model"] == "phases.topic" and fields["slug"] == "fid":
            fields["title"] = "FID: lower means closer to real"
        if obj["model"] == "phases.selfcheck" and fields["slug"] == RETIRED:
            fields["retired"] = True
    objects.append(
        {
            "model": "phases.selfcheck",
            "fields": {
                "slug": NEW,
                "phase": ["multimodal-data"],
                "domain": ["multimodal-data"],
                "topic": None,
                "prompt": "How does audio usually become a neural-network-ready input?",
                "answer": "As a spectrogram: a time-frequency image a network can read.",
                "order": 7,
                "retired": False,
            },
        }
    )
    path = tmp_path / "syllabus.yaml"
    path.write_text(yaml.safe_dump(objects, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture
def learner_with_ticks(learner):
    make_plan(learner)
    tick(learner, *KEPT, RETIRED)
    return learner


@pytest.mark.django_db
def test_reload_keeps_ticks_on_remaining_checks_and_renames_in_place(learner_with_ticks, tmp_path):
    kept_ids = {slug: SelfCheck.objects.get(slug=slug).pk for slug in KEPT}
    phase_pk = Phase.objects.get(slug="multimodal-data").pk

    call_command("load_syllabus", file=edited_syllabus(tmp_path), verbosity=0)

    assert Phase.objects.get(pk=phase_pk).title == "Multimodal data, fused deliberately"
    assert Topic.objects.get(slug="fid").title == "FID: lower means closer to real"
    for slug, pk in kept_ids.items():
        assert (
            CheckOff.objects.filter(user=learner_with_ticks, self_check_id=pk).ticked().exists()
        ), slug


@pytest.mark.django_db
def test_a_retired_check_no_longer_counts_anywhere(learner_with_ticks, tmp_path, client):
    today = timezone.localdate()
    before = learner_state(LearnerBackend().get_user(learner_with_ticks.pk), today=today).report
    multimodal_before = next(d for d in before.domains if d.slug == "multimodal-data")

    call_command("load_syllabus", file=edited_syllabus(tmp_path), verbosity=0)

    after = learner_state(LearnerBackend().get_user(learner_with_ticks.pk), today=today).report
    multimodal = next(d for d in after.domains if d.slug == "multimodal-data")
    # One check retired (ticked) and one added (open): same total, one fewer done.
    assert multimodal.total == multimodal_before.total
    assert multimodal.done == multimodal_before.done - 1
    assert after.done == before.done - 1
    # The tick itself is kept as history; it just counts nowhere.
    assert (
        CheckOff.objects.filter(user=learner_with_ticks, self_check__slug=RETIRED).ticked().exists()
    )

    client.force_login(learner_with_ticks)
    phase_page = client.get(reverse("progress:phase", args=["multimodal-data"]))
    assert phase_page.status_code == 200
    assert f'id="check-{RETIRED}"' not in phase_page.text
    assert f'id="check-{NEW}"' in phase_page.text
    for name in ["progress:dashboard", "progress:plan", "phases:syllabus", "phases:home"]:
        assert client.get(reverse(name)).status_code == 200, name
    toggle = client.post(reverse("progress:selfcheck-toggle", args=[RETIRED]), {"done": "0"})
    assert toggle.status_code == 404
    assert (
        CheckOff.objects.filter(user=learner_with_ticks, self_check__slug=RETIRED).ticked().exists()
    )


@pytest.mark.django_db
def test_reloading_the_real_syllabus_after_an_edit_restores_it(
    learner_with_ticks, tmp_path, capsys
):
    call_command("load_syllabus", file=edited_syllabus(tmp_path), verbosity=0)
    call_command("load_syllabus", verbosity=0)

    # The loader warns about a live check the file no longer lists: it would go on counting.
    assert f"still count: {NEW}" in capsys.readouterr().err
    assert not SelfCheck.objects.get(slug=RETIRED).retired
    assert CheckOff.objects.filter(user=learner_with_ticks).ticked().count() == 3
    # The added check stays in the database (loaddata never deletes) but is not retired:
    # removal is always said explicitly, with `retired: true`.
    assert SelfCheck.objects.filter(slug=NEW).exists()


# Every model that holds a learner's rows, and a write to each through the app's services: the
# dashboard shown after it is the dashboard a new process would draw. A new learner-owned model
# without a write here fails the first test.


def learner_owned_models() -> set[str]:
    """The app's models whose rows belong to one learner: a key to the user, or to such a row."""
    from django.apps import apps
    from django.contrib.auth import get_user_model

    owners = {get_user_model()}
    owned: set = set()
    grew = True
    while grew:
        grew = False
        for model in apps.get_app_config("progress").get_models():
            if model in owned:
                continue
            if any(
                field.concrete and field.is_relation and field.related_model in owners | owned
                for field in model._meta.get_fields()
            ):
                owned.add(model)
                grew = True
    return {model._meta.label for model in owned}


def write_outcome(user) -> None:
    # Before the exam date there is nothing on the dashboard to change: it asks only after it.
    from progress.outcomes.services import record_outcome

    record_outcome(
        user=user,
        sat_on=timezone.localdate(),
        passed=True,
        domain_scores={},
        counted=False,
        now=timezone.now(),
    )


def write_plan(user) -> None:
    from phases.models import Intensity
    from progress.planning.services import save_plan

    today = timezone.localdate()
    save_plan(
        user=user,
        intensity=Intensity.objects.get(slug="fast-track"),
        start_date=today,
        exam_date=today + datetime.timedelta(days=21),
        today=today,
    )


def write_profile(user) -> None:
    from progress.accounts.time_zone import set_time_zone

    set_time_zone(user=user, time_zone="Pacific/Kiritimati")  # UTC+14: "today" moves on


def write_check_off(user) -> None:
    set_done(user=user, self_check_id=SelfCheck.objects.get(slug="p2-fid-direction").pk, done=True)


def write_attempt(user) -> None:
    from progress.practice.services import answer, submit

    mock = mock_for(user)
    item = items_of(mock)[0]
    answer(user=user, attempt=mock, item=item, chosen=[0], now=timezone.now())
    submit(user=user, attempt=mock, now=timezone.now())


def write_attempt_question(user) -> None:
    from progress.practice.services import answer

    drill = drill_for(user, "experimentation")
    item = items_of(drill)[0]
    answer(user=user, attempt=drill, item=item, chosen=[0], now=timezone.now())


def write_question_card(user) -> None:
    miss(user, Question.objects.current().filter(domain__slug="trustworthy-ai").first())


def write_question_report(user) -> None:
    from progress.practice.reports import report_question
    from progress.practice.services import answer

    drill = drill_for(user, "experimentation")
    item = items_of(drill)[0]
    answer(user=user, attempt=drill, item=item, chosen=[0], now=timezone.now())
    report_question(user=user, question=item.question, kind="typo", note="", now=timezone.now())


def write_not_yet(user) -> None:
    from progress.memory.ticks import Outcome

    # Tried yesterday: back in today's queue.
    check = SelfCheck.objects.get(slug="p2-fid-direction").pk
    yesterday = timezone.now() - datetime.timedelta(days=1)
    settle_revealed(user, self_check_id=check, outcome=Outcome.NOT_YET, answer="", now=yesterday)


def write_reveal(user) -> None:
    from progress.memory.ticks import reveal

    # Turned over, its outcome still to be said.
    check = SelfCheck.objects.get(slug="p2-fid-direction").pk
    reveal(user=user, self_check_id=check, answer="Lower is better.", now=timezone.now())


def write_review_log(user) -> None:
    from fsrs import Rating

    make_due(user, "p1-backprop")
    check = SelfCheck.objects.get(slug="p1-backprop").pk
    review_revealed(user, self_check_id=check, rating=Rating.Again, now=timezone.now())


def write_study_session(user) -> None:
    from progress.study_time.services import record_session

    record_session(
        user=user,
        phase_slug="experimentation",
        domain_slug="experimentation",
        day=timezone.localdate(),
        minutes=25,
    )


def exercise_written(user) -> None:
    from phases.content import syllabus

    phase = syllabus().phase("core-ml-foundations")
    write_exercise(user, phase, text="Skip paths carry the gradient.", now=timezone.now())
    tick_exercise_parts(user, phase, ticked={"p1-ex-residual-connections"}, now=timezone.now())


WRITES = {
    "progress.Exercise": exercise_written,
    "progress.StudyPlan": write_plan,
    # Changing a plan keeps the one it replaces.
    "progress.EarlierPlan": write_plan,
    "progress.ExamOutcome": write_outcome,
    "progress.Profile": write_profile,
    "progress.CheckOff": write_check_off,
    "progress.Attempt": write_attempt,
    "progress.AttemptQuestion": write_attempt_question,
    "progress.QuestionCard": write_question_card,
    "progress.QuestionReport": write_question_report,
    "progress.ReviewLog": write_review_log,
    "progress.StudySession": write_study_session,
    "progress.NotYet": write_not_yet,
    "progress.Reveal": write_reveal,
    # Kept by the writes that change what it holds, a tick among them (progress.summary).
    "progress.LearnerSummary": write_check_off,
}


# One row per learner, from the start.
CHANGED_IN_PLACE = {"progress.StudyPlan", "progress.Profile", "progress.LearnerSummary"}

# A reveal is no progress: a check turned over is neither ticked nor tried until its outcome is
# said, so the dashboard has nothing of it. It shows on its check's phase page instead, which
# test_a_reveal_shows_on_the_next_phase_page checks as this file checks the dashboard.
NOT_ON_THE_DASHBOARD = {"progress.Reveal", "progress.ExamOutcome"}


def fresh_page(user, url: str) -> str:
    """A page as a new process draws it: no snapshot, no cache, a new session."""
    from phases.content import forget_snapshot

    forget_snapshot()
    for alias in settings.CACHES:
        caches[alias].clear()
    client = Client()
    client.force_login(user)
    return without_csrf(client.get(url).content)


def fresh_dashboard(user) -> str:
    return fresh_page(user, DASHBOARD)


def test_every_learner_owned_model_has_a_write_here():
    assert learner_owned_models() == set(WRITES)


@pytest.mark.django_db
@pytest.mark.parametrize("model", sorted(WRITES))
def test_a_write_to_each_learner_owned_model_shows_on_the_next_dashboard(
    learner_client, learner, model
):
    from django.apps import apps

    make_plan(learner)
    tick(learner, "p1-backprop")
    rows = apps.get_model(model).objects.count()
    before = without_csrf(learner_client.get(DASHBOARD).content)

    WRITES[model](learner)

    after = without_csrf(learner_client.get(DASHBOARD).content)
    assert apps.get_model(model).objects.count() > rows or model in CHANGED_IN_PLACE
    if model in NOT_ON_THE_DASHBOARD:
        assert after == before
    else:
        # A new time zone moves "today" only when the two zones' dates differ at this moment.
        assert after != before or model == "progress.Profile"
    assert after == fresh_dashboard(learner)


@pytest.mark.django_db
def test_a_reveal_shows_on_the_next_phase_page(learner_client, learner):
    from progress.models import Reveal

    make_plan(learner)
    tick(learner, "p1-backprop")
    phase = reverse("progress:phase", args=["experimentation"])
    before = without_csrf(learner_client.get(phase).content)

    write_reveal(learner)

    response = learner_client.get(phase)
    after = without_csrf(response.content)
    assert Reveal.objects.filter(user=learner).count() == 1
    assert after != before
    # The row is turned over: the answer typed before the reveal, and the outcome to say.
    row = element_by_id(response.content, "check-p2-fid-direction")
    assert "Lower is better." in row.text
    assert "Reveal the reference answer" not in row.text
    assert "Got it" in row.text
    assert after == fresh_page(learner, phase)


@pytest.mark.django_db
def test_a_mock_reaching_its_deadline_shows_on_the_next_dashboard(learner_client, learner):
    from progress.models import Attempt
    from progress.practice.services import answer

    make_plan(learner)
    mock = mock_for(learner)
    for item in items_of(mock)[:3]:
        answer(user=learner, attempt=mock, item=item, chosen=[0], now=timezone.now())
    live = without_csrf(learner_client.get(DASHBOARD).content)

    # Time passes: no write, only the deadline falls behind the clock.
    Attempt.objects.filter(pk=mock.pk).update(
        started_at=mock.started_at - datetime.timedelta(hours=2),
        deadline=timezone.now() - datetime.timedelta(seconds=1),
    )

    over = without_csrf(learner_client.get(DASHBOARD).content)
    assert over != live  # its answers count now, the unanswered ones as wrong
    assert over == fresh_dashboard(learner)
