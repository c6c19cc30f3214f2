"""The export holds every row about the learner, and deleting the account leaves none of them.

"Every row" is found by walking the models, not by listing them: every model with a foreign key
or one-to-one to the user, then every model pointing at one of those (an attempt's questions),
plus the rows django-axes keeps by username. A model added later that holds a learner's rows
fails these tests until the export carries it and the deletion removes it.
"""

import datetime
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from allauth.account.models import EmailAddress, EmailConfirmation
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.db.models import ForeignObjectRel, Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from fsrs import Rating

from phases.content import syllabus
from phases.models import Domain, SelfCheck
from progress.accounts.export import RESULT_WITHHELD, export_learner
from progress.memory.ticks import Outcome, reveal, set_done
from progress.models import Attempt, Confidence, Profile, QuestionCard, StudyPlan
from progress.outcomes.services import record_outcome
from progress.planning.services import catch_up
from progress.practice.reports import report_question
from progress.practice.services import answer, flag, start_drill, submit
from progress.study_time.services import record_session, start_timer
from tests.factories import (
    PASSWORD,
    AttemptFactory,
    AttemptQuestionFactory,
    UserFactory,
    items_of,
    make_plan,
    mock_for,
    review_revealed,
    settle_revealed,
    shown,
    tick_exercise_parts,
    write_exercise,
    wrong_option,
)
from tests.html import with_tag

pytestmark = pytest.mark.django_db

EXPORT = reverse("progress:account-export")
DELETE = reverse("progress:account-delete")
LOGIN = reverse("account_login")
LOGOUT = reverse("account_logout")


# The walk


@dataclass(frozen=True)
class Owned:
    """A model whose rows belong to a learner, and how to reach the learner from it."""

    model: type[Model]
    lookup: str  # e.g. "attempt__user"; "pk" for the user itself
    by_username: bool  # reached through the username django-axes stores, not a foreign key
    link: str | None  # the field pointing at the parent row, which the export need not repeat

    def rows(self, user: Any, username: str) -> Any:
        return self.model._default_manager.filter(
            **{self.lookup: username if self.by_username else user.pk}
        )


def _children(model: type[Model]) -> Iterator[ForeignObjectRel]:
    """Foreign keys and one-to-ones pointing at ``model``, hidden ones included (the tables
    behind the user's groups and permissions are hidden)."""
    for field in model._meta.get_fields(include_hidden=True):
        if isinstance(field, ForeignObjectRel) and (field.one_to_many or field.one_to_one):
            yield field


def learner_owned() -> dict[str, Owned]:
    user_model = get_user_model()
    roots = [Owned(user_model, "pk", by_username=False, link=None)] + [
        # django-axes keys its rows by the username typed at the login form.
        Owned(model, "username", by_username=True, link=None)
        for model in apps.get_app_config("axes").get_models()
        if any(field.name == "username" for field in model._meta.concrete_fields)
    ]
    found: dict[str, Owned] = {}
    queue = list(roots)
    while queue:
        owned = queue.pop(0)
        if owned.model._meta.label in found:
            continue
        found[owned.model._meta.label] = owned
        for relation in _children(owned.model):
            link = relation.field.name
            lookup = link if owned.lookup == "pk" else f"{link}__{owned.lookup}"
            queue.append(Owned(relation.related_model, lookup, owned.by_username, link))
    return found


# Where each model's rows are in the export


def _axes(export: dict[str, Any], section: str) -> list[dict[str, Any]]:
    return export["login_records"][section]


EXPORTED: dict[str, Callable[[dict[str, Any]], list[Any]]] = {
    "auth.User": lambda export: [export["account"]],
    "auth.User_groups": lambda export: export["account"]["groups"],
    "auth.User_user_permissions": lambda export: export["account"]["user_permissions"],
    "admin.LogEntry": lambda export: export["admin_actions"],
    "progress.Profile": lambda export: [export["profile"]] if export["profile"] else [],
    "progress.StudyPlan": lambda export: [export["plan"]] if export["plan"] else [],
    "progress.LearnerSummary": lambda export: [export["summary"]] if export["summary"] else [],
    "progress.EarlierPlan": lambda export: export["earlier_plans"],
    "progress.ExamOutcome": lambda export: export["exam_outcome"],
    "progress.CheckOff": lambda export: export["ticks"],
    "progress.Exercise": lambda export: export["exercises"],
    "progress.QuestionCard": lambda export: export["question_cards"],
    "progress.NotYet": lambda export: export["not_yet"],
    "progress.Reveal": lambda export: export["reveals"],
    "progress.Attempt": lambda export: export["attempts"],
    "progress.QuestionReport": lambda export: export["question_reports"],
    "progress.ReviewLog": lambda export: export["reviews"],
    "progress.StudySession": lambda export: export["study_sessions"],
    "progress.AttemptQuestion": lambda export: [
        item for attempt in export["attempts"] for item in attempt["questions"]
    ],
    "axes.AccessAttempt": lambda export: _axes(export, "failed_login_attempts"),
    "axes.AccessAttemptExpiration": lambda export: [
        {"expires_at": record["expires_at"]}
        for record in _axes(export, "failed_login_attempts")
        if record["expires_at"] is not None
    ],
    "axes.AccessFailureLog": lambda export: _axes(export, "failed_login_log"),
    "axes.AccessLog": lambda export: _axes(export, "login_log"),
    "account.EmailAddress": lambda export: export["email_addresses"],
    "account.EmailConfirmation": lambda export: export["email_confirmations"],
}

# Columns the export carries under another name, or leaves out on purpose.
MEMORY_RENAMED = {"state": "memory_state", "stability": "stability_days"}
RENAMED = {
    "progress.AttemptQuestion": {"is_correct": "result"},
    "progress.CheckOff": MEMORY_RENAMED,
    "progress.QuestionCard": {
        **MEMORY_RENAMED,
        "chosen": "your_answer",
        "left_at": "left_queue_at",
    },
}
WITHHELD = {
    # A salted hash: no use to the learner, and a risk in a file they may leave lying around.
    "auth.User": {"password"},
    # The options' stored order would tell the key: the export gives them as shown instead.
    "progress.AttemptQuestion": {"order"},
    # The order a missed question's options come back in next: it would tell the key too.
    "progress.QuestionCard": {"order"},
    # The confirmation link's key is a credential.
    "account.EmailConfirmation": {"key"},
}


def expected_keys(label: str, owned: Owned) -> set[str]:
    renamed = RENAMED.get(label, {})
    return {
        renamed.get(field.name, field.name)
        for field in owned.model._meta.concrete_fields
        if not field.primary_key and field.name != owned.link
    } - WITHHELD.get(label, set())


# A learner with a row in every model the walk finds


def _log_in_and_fail(username: str, *, address: str) -> None:
    """Through the real login form, so django-axes writes its rows as it does in production:
    a login and a logout (its access log), then two wrong passwords (its failure counter, the
    counter's expiry and its failure log)."""
    browser = Client(REMOTE_ADDR=address, HTTP_USER_AGENT=f"Test browser at {address}")
    assert browser.post(LOGIN, {"login": username, "password": PASSWORD}).status_code == 302
    browser.post(LOGOUT)
    for _ in range(2):
        refused = browser.post(LOGIN, {"login": username, "password": "not-the-password"})
        assert refused.status_code == 400


def build_learner(*, address: str, now: datetime.datetime) -> Any:
    user = UserFactory()
    email_address = EmailAddress.objects.create(
        user=user, email=user.email, primary=True, verified=False
    )
    EmailConfirmation.create(email_address)
    group, _ = Group.objects.get_or_create(name="Beta testers")
    user.groups.add(group)
    user.user_permissions.add(Permission.objects.get(codename="view_attempt"))
    Profile.objects.create(
        user=user,
        time_zone="Pacific/Auckland",
        weekly_reminder=True,
        reminded_on=datetime.date(2026, 3, 2),
        study_day_hour=19,
    )
    make_plan(user, exam_in=40)
    # Laid again from today: the plan as it stood goes to the learner's earlier plans.
    catch_up(user=user, today=timezone.localdate(), now=now)
    record_outcome(
        user=user,
        sat_on=timezone.localdate() - datetime.timedelta(days=1),
        passed=True,
        domain_scores={"core-ml": 72},
        counted=True,
        now=now,
    )
    LogEntry.objects.log_actions(
        user.pk,
        StudyPlan.objects.filter(user=user),
        CHANGE,
        "Moved the exam date.",
        single_object=True,
    )

    checks = dict(SelfCheck.objects.values_list("slug", "pk"))
    # Ticked on an earlier day: a card takes one review a day, and the tick is its first.
    ticked_at = timezone.now() - datetime.timedelta(days=3)
    set_done(
        user=user,
        self_check_id=checks["p1-backprop"],
        done=True,
        confidence=Confidence.SOLID,
        answer="Chain rule, output to input.",
        now=ticked_at,
    )
    set_done(user=user, self_check_id=checks["p2-fid-direction"], done=True, now=ticked_at)
    settle_revealed(
        user,
        self_check_id=checks["p1-fusion-tradeoff"],
        outcome=Outcome.NOT_YET,
        answer="Early fusion is… I forget.",
        now=now,
    )
    review_revealed(user, self_check_id=checks["p2-fid-direction"], rating=Rating.Again, now=now)
    # Turned over, and not yet said how it went.
    reveal(user=user, self_check_id=checks["p1-residual-gradient-flow"], answer="Skips.", now=now)

    phase = syllabus().phase("core-ml-foundations")
    write_exercise(user, phase, text=f"Skip paths, by {user.username}.", now=now)
    tick_exercise_parts(user, phase, ticked={"p1-ex-fusion-table"}, now=now)

    drill = start_drill(
        user=user, domain=Domain.objects.get(slug="core-ml"), now=now, rng=random.Random(3)
    )
    right, wrong, *_ = items_of(drill)
    answer(
        user=user, attempt=drill, item=right, chosen=sorted(right.question.correct_options), now=now
    )
    answer(user=user, attempt=drill, item=wrong, chosen=[wrong_option(wrong.question)], now=now)
    report_question(user=user, question=wrong.question, kind="unclear", note="Which one?", now=now)
    record_session(
        user=user,
        phase_slug="core-ml-foundations",
        domain_slug="core-ml",
        day=timezone.localdate(now),
        minutes=45,
    )
    start_timer(user=user, phase_slug="experimentation", now=now)

    mock = mock_for(user, now=now)
    first, second, *_ = items_of(mock)
    answer(
        user=user, attempt=mock, item=first, chosen=sorted(first.question.correct_options), now=now
    )
    flag(user=user, attempt=mock, item=second, flagged=True, now=now)
    submit(user=user, attempt=mock, now=now + datetime.timedelta(minutes=5))

    _log_in_and_fail(user.username, address=address)
    # And still logged in on another device: a session (written as login writes it, without
    # login's signals, which django-axes would log a second time).
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session.save()
    return user


@pytest.fixture
def axes_keeps_everything(settings):
    # Off by default in django-axes; on here so each of its tables gets a row to look for.
    settings.AXES_ENABLE_ACCESS_FAILURE_LOG = True
    settings.AXES_USE_ATTEMPT_EXPIRATION = True


@pytest.fixture
def two_learners(syllabus, axes_keeps_everything):
    now = timezone.now()
    return (
        build_learner(address="192.0.2.10", now=now),
        build_learner(address="198.51.100.20", now=now),
    )


def export_of(user: Any) -> dict[str, Any]:
    # Through JSON, as the learner gets it: a value that does not serialise fails here.
    return json.loads(json.dumps(export_learner(user, now=timezone.now())))


# The tests


def test_every_model_holding_learner_rows_has_a_place_in_the_export():
    walked = set(learner_owned())

    missing = walked - set(EXPORTED)
    assert not missing, (
        f"{sorted(missing)} hold a learner's rows but are not in the export: add them to "
        "progress.accounts.export.export_learner (and to EXPORTED here)."
    )
    assert set(EXPORTED) <= walked, f"No longer learner-owned: {sorted(set(EXPORTED) - walked)}"


def test_the_walk_finds_the_models_below_the_user_and_behind_the_username():
    walked = learner_owned()

    assert walked["progress.AttemptQuestion"].lookup == "attempt__user"
    assert walked["axes.AccessAttemptExpiration"].lookup == "access_attempt__username"
    assert walked["auth.User_groups"].lookup == "user"
    assert "phases.Question" not in walked  # content points nowhere near a learner


def test_the_learner_has_a_row_in_every_walked_model(two_learners):
    me, _ = two_learners
    empty = [label for label, owned in learner_owned().items() if not owned.rows(me, me.username)]
    # Without a row in each, the counts below would pass on an export that forgets a model.
    assert empty == []


def test_the_export_holds_every_row_of_every_model_and_none_of_anyone_elses(two_learners):
    me, other = two_learners
    export = export_of(me)

    for label, owned in learner_owned().items():
        records = EXPORTED[label](export)
        assert len(records) == owned.rows(me, me.username).count(), label
        assert len(records) > 0, label
    login_records = [
        record
        for section in ("failed_login_attempts", "failed_login_log", "login_log")
        for record in _axes(export, section)
    ]
    assert {record["username"] for record in login_records} == {me.username}
    assert {record["ip_address"] for record in login_records} == {"192.0.2.10"}
    text = json.dumps(export)
    assert other.username not in text
    assert "198.51.100.20" not in text


def test_the_export_gives_when_each_of_my_sessions_ends_and_never_its_key(two_learners):
    # Sessions name their learner only inside their data (Django's database sessions), so the
    # walk above cannot find them: each learner here is logged in on one other device.
    me, other = two_learners
    mine, theirs = (
        [
            session
            for session in SessionStore.get_model_class().objects.all()
            if session.get_decoded().get(SESSION_KEY) == str(user.pk)
        ]
        for user in (me, other)
    )
    assert len(mine) == len(theirs) == 1

    export = export_of(me)

    assert export["sessions"] == [{"expire_date": mine[0].expire_date.isoformat()}]
    text = json.dumps(export)
    assert mine[0].session_key not in text and mine[0].session_data not in text


def test_every_column_of_every_exported_row_is_in_the_export(two_learners):
    me, _ = two_learners
    export = export_of(me)

    for label, owned in learner_owned().items():
        for record in EXPORTED[label](export):
            if isinstance(record, dict):
                missing = expected_keys(label, owned) - set(record)
                assert not missing, f"{label}: {sorted(missing)} not exported"


def test_the_export_says_what_each_row_holds(two_learners):
    me, _ = two_learners
    export = export_of(me)

    assert export["account"]["groups"] == ["Beta testers"]
    assert export["account"]["user_permissions"] == ["progress.view_attempt"]
    assert "password" not in export["account"]
    review_day = me.profile.review_day
    assert export["profile"] == {
        "time_zone": "Pacific/Auckland",
        "weekly_reminder": True,
        "reminded_on": "2026-03-02",
        "reminders_on_since": None,
        "study_day_hour": 19,
        "study_reminded_on": None,
        "outcome_asked_on": None,
        # The day the reviews above fixed (progress.memory.review_days), in the learner's zone.
        "review_day": review_day.isoformat(),
        "review_day_starts": me.profile.review_day_starts.isoformat(),
        "review_day_ends": me.profile.review_day_ends.isoformat(),
    }
    assert export["reveals"] == [
        {
            "self_check": "p1-residual-gradient-flow",
            "answer": "Skips.",
            "revealed_at": export["reveals"][0]["revealed_at"],
        }
    ]
    assert export["plan"]["kind"] == "paced"
    assert "Moved the exam date." in export["admin_actions"][0]["change_message"]

    ticks = {tick["self_check"]: tick for tick in export["ticks"]}
    stored = {row.self_check.slug: row for row in me.check_offs.select_related("self_check")}
    assert ticks["p1-backprop"]["confidence"] == "solid"
    assert ticks["p2-fid-direction"]["confidence"] == "shaky"
    # The solid tick is still its only review; "forgot" was a second one.
    assert {slug: tick["reviews"] for slug, tick in ticks.items()} == {
        "p1-backprop": 1,
        "p2-fid-direction": 2,
    }
    for slug, exported in ticks.items():
        row = stored[slug]
        assert exported["memory_state"] == row.state
        assert exported["stability_days"] == pytest.approx(row.stability)
        assert exported["difficulty"] == pytest.approx(row.difficulty)
        assert exported["due"] == row.due.isoformat()
        assert exported["last_review"] == row.last_review.isoformat()
    # Forgetting a check leaves it less stable than knowing it easily.
    assert ticks["p2-fid-direction"]["stability_days"] < ticks["p1-backprop"]["stability_days"]

    # The drill's wrong answer came back as a card; the mock's unanswered ones did not.
    (card,) = export["question_cards"]
    stored_card = QuestionCard.objects.get(user=me)
    assert card["question"] == stored_card.question.slug
    # The learner's answer as its words: stored indices would tell the key's place.
    assert card["your_answer"] == [
        stored_card.question.options[i]["text"] for i in stored_card.chosen
    ]
    assert card["missed_at"] == stored_card.missed_at.isoformat()
    assert card["due"] == stored_card.due.isoformat()
    assert (card["reviews"], card["right_in_a_row"], card["left_queue_at"]) == (1, 0, None)

    drill, mock = export["attempts"]
    assert (drill["kind"], drill["domain"], mock["kind"], mock["domain"]) == (
        "drill",
        "core-ml",
        "mock",
        None,
    )
    assert mock["deadline"] and mock["submitted_at"]
    attempts = {attempt.kind: attempt for attempt in Attempt.objects.filter(user=me).order_by("pk")}
    for exported, attempt in ((drill, attempts["drill"]), (mock, attempts["mock"])):
        items = items_of(attempt)
        assert [item["position"] for item in exported["questions"]] == list(
            range(1, len(items) + 1)
        )
        assert [item["question"] for item in exported["questions"]] == [
            item.question.slug for item in items
        ]
        # The stored order would tell the key: the export has the options as shown instead.
        assert all("order" not in item for item in exported["questions"])
    assert [item["result"] for item in drill["questions"][:3]] == ["right", "wrong", "unanswered"]
    assert [item["result"] for item in mock["questions"][:2]] == ["right", "unanswered"]
    assert [item["flagged"] for item in mock["questions"][:2]] == [False, True]
    assert drill["questions"][0]["answered_at"] and drill["questions"][2]["answered_at"] is None
    wrong = attempts["drill"].questions.get(position=2)
    assert drill["questions"][1]["chosen"] == [int(place) for place in shown(wrong, wrong.chosen)]
    assert drill["questions"][1]["chosen_options"] == [
        wrong.question.options[i]["text"] for i in wrong.chosen
    ]
    assert drill["questions"][1]["options_shown"] == [
        wrong.question.options[i]["text"] for i in wrong.order
    ]

    (attempt_row,) = _axes(export, "failed_login_attempts")
    assert attempt_row["failures_since_start"] == 2
    assert attempt_row["user_agent"] == "Test browser at 192.0.2.10"
    assert attempt_row["path_info"] == LOGIN
    assert attempt_row["expires_at"]
    assert len(_axes(export, "failed_login_log")) == 2
    (login,) = _axes(export, "login_log")
    assert login["user_agent"] == "Test browser at 192.0.2.10"
    assert login["session_hash"]


def test_a_live_mock_exports_its_answers_but_not_its_key(learner):
    now = timezone.now()
    mock = mock_for(learner, now=now)
    item = items_of(mock)[0]
    answer(
        user=learner,
        attempt=mock,
        item=item,
        chosen=sorted(item.question.correct_options),
        now=now,
    )

    live = export_learner(learner, now=now)["attempts"][0]["questions"][0]
    after_deadline = export_learner(learner, now=mock.deadline)["attempts"][0]["questions"][0]

    # The answer as places in the order shown (1 for the first), never the stored order.
    assert live["chosen"] == [int(place) for place in shown(item, item.question.correct_options)]
    assert "order" not in live
    assert live["result"] == RESULT_WITHHELD
    assert after_deadline["result"] == "right"


def test_the_export_takes_as_many_queries_for_many_attempts_as_for_one(
    syllabus, axes_keeps_everything
):
    now = timezone.now()
    user = build_learner(address="192.0.2.10", now=now)
    with CaptureQueriesContext(connection) as few:
        export_learner(user, now=now)

    for seed in range(4):
        start_drill(
            user=user,
            domain=Domain.objects.get(slug="experimentation"),
            now=now,
            rng=random.Random(seed),
        )
    _log_in_and_fail(user.username, address="203.0.113.7")
    with CaptureQueriesContext(connection) as many:
        export = export_learner(user, now=now)

    assert len(export["attempts"]) == 6
    assert len(_axes(export, "login_log")) == 2
    assert len(many) == len(few)


def test_deleting_the_account_leaves_no_row_of_mine_and_every_row_of_theirs(client, two_learners):
    me, other = two_learners
    owned = learner_owned()
    mine = {
        label: set(o.rows(me, me.username).values_list("pk", flat=True))
        for label, o in owned.items()
    }
    theirs = {
        label: set(o.rows(other, other.username).values_list("pk", flat=True))
        for label, o in owned.items()
    }
    client.force_login(me)

    response = client.post(DELETE, {"password": PASSWORD, "confirm": "on"})

    assert response.status_code == 302
    for label, o in owned.items():
        manager = o.model._default_manager
        assert not manager.filter(pk__in=mine[label]).exists(), f"{label} survived the deletion"
        assert not o.rows(me, me.username).exists(), f"{label} still has rows for the username"
        assert (
            set(manager.filter(pk__in=theirs[label]).values_list("pk", flat=True))
            == (theirs[label])
        ), f"{label}: another learner's rows were touched"
    # Shared rows a learner pointed at are not theirs to delete.
    assert Group.objects.filter(name="Beta testers").exists()
    # The sessions, found by what they hold: mine on every device gone, theirs kept.
    logged_in = [
        session.get_decoded().get(SESSION_KEY)
        for session in SessionStore.get_model_class().objects.all()
    ]
    assert str(me.pk) not in logged_in and str(other.pk) in logged_in


def test_a_refused_deletion_keeps_every_login_record(client, two_learners):
    me, _ = two_learners
    client.force_login(me)
    before = {
        model: set(model.objects.filter(username=me.username).values_list("pk", flat=True))
        for model in (AccessAttempt, AccessFailureLog, AccessLog)
    }

    response = client.post(DELETE, {"password": "not-my-password", "confirm": "on"})

    assert response.status_code == 400
    for model, pks in before.items():
        # A wrong password here may add a failure record; it never removes one.
        assert pks <= set(model.objects.filter(username=me.username).values_list("pk", flat=True))


def test_the_export_downloads_as_a_json_file(client, two_learners):
    me, _ = two_learners
    client.force_login(me)

    response = client.get(EXPORT)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        'attachment; filename="nca-genm-study-tracker-my-data.json"'
    )
    data = json.loads(response.content)
    assert data["account"]["username"] == me.username
    assert len(data["attempts"]) == Attempt.objects.filter(user=me).count()
    assert data["login_records"]["failed_login_attempts"]


def test_the_account_page_links_to_the_export_and_posts_the_deletion(client, two_learners):
    me, _ = two_learners
    client.force_login(me)

    page = client.get(reverse("progress:account"))

    assert EXPORT in [link.attrs.get("href") for link in with_tag(page.content, "a")]
    assert DELETE in [form.attrs.get("action") for form in with_tag(page.content, "form")]


def test_while_a_mock_is_live_no_attempt_in_the_export_gives_a_verdict_on_its_questions(
    syllabus,
):
    user = UserFactory()
    now = timezone.now()
    drill = start_drill(
        user=user, domain=Domain.objects.get(slug="core-ml"), now=now, rng=random.Random(5)
    )
    first = items_of(drill)[0]
    answer(user=user, attempt=drill, item=first, chosen=[wrong_option(first.question)], now=now)
    submit(user=user, attempt=drill, now=now)
    mock = AttemptFactory(user=user, mock=True)
    AttemptQuestionFactory(attempt=mock, question=first.question)

    exported = {a["kind"]: a for a in export_learner(user, now=timezone.now())["attempts"]}

    assert exported["drill"]["questions"][0]["result"] == RESULT_WITHHELD
    after = {a["kind"]: a for a in export_learner(user, now=mock.deadline)["attempts"]}
    assert after["drill"]["questions"][0]["result"] == "wrong"
