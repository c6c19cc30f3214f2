"""Learner B can neither see nor change learner A's plan, ticks, reviews or practice, by any
URL: every learner query starts from request.user, so another learner's rows are a 404."""

import datetime

import icalendar
import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter
from django.utils import timezone

from phases.models import Question
from progress import urls as progress_urls
from progress.memory.queue import QUESTION, review_queue
from progress.memory.review_days import current_review_day
from progress.models import Attempt, AttemptQuestion, CheckOff, QuestionCard, StudyPlan
from tests.conftest import HTMX
from tests.factories import (
    UserFactory,
    answer_from_memory,
    drill_for,
    items_of,
    make_due,
    make_missed_due,
    make_plan,
    miss,
    mock_for,
    practise,
    tick,
)
from tests.html import element_by_id, links, page_text, table_rows

pytestmark = pytest.mark.django_db

A_TICKS = ["p1-residual-gradient-flow", "p1-backprop", "p2-fid-direction", "p6-privacy-control"]
B_TICKS = ["p1-multimodal-loss"]


@pytest.fixture
def learner_a(syllabus):
    a = UserFactory(username="ada")
    make_plan(a, intensity="extended", days_ago=20, exam_in=100)
    tick(a, *A_TICKS)
    return a


@pytest.fixture
def learner_b(syllabus):
    return UserFactory(username="bob")


@pytest.fixture
def client_b(client, learner_b):
    client.force_login(learner_b)
    return client


def ticked(user) -> set[str]:
    """The learner's standing ticks (an unticked check keeps its row, unticked_at set)."""
    return set(
        CheckOff.objects.filter(user=user).ticked().values_list("self_check__slug", flat=True)
    )


def dashboard_done(response) -> dict[str, str]:
    rows = table_rows(response.content, "domain-table")
    # The Covered cell ends "(1 of 6)": done of total.
    return {
        cells[0].removesuffix(" Lagging"): cells[2]
        .rsplit("(", 1)[1]
        .rstrip(")")
        .replace(" of ", "/")
        for cells in rows
    }


def test_bs_dashboard_shows_bs_ticks_only(client_b, learner_a, learner_b):
    make_plan(learner_b)
    tick(learner_b, *B_TICKS)

    response = client_b.get(reverse("progress:dashboard"))

    done = dashboard_done(response)
    assert done["Core Machine Learning and AI Knowledge"] == "1/6"
    assert done["Experimentation"] == "0/7"
    assert done["Trustworthy AI"] == "0/7"
    assert "Standard schedule" in response.content.decode()
    assert "Extended schedule" not in response.content.decode()


def test_bs_plan_page_shows_bs_plan_only(client_b, learner_a, learner_b):
    make_plan(learner_b, intensity="fast-track", days_ago=1)
    tick(learner_b, *B_TICKS)

    response = client_b.get(reverse("progress:plan"))

    text = response.content.decode()
    assert "Fast track" in text
    assert "Extended" not in text
    assert "to your exam" not in text  # A set an exam date; B did not
    rows = table_rows(response.content, "plan-table")
    assert [row[4] for row in rows[:2]] == ["1/7", "0/7"]


def test_bs_calendar_is_bs_plan_only(client_b, learner_a, learner_b):
    plan_b = make_plan(learner_b, intensity="standard", days_ago=-7)

    response = client_b.get(reverse("progress:plan-calendar"))

    events = list(icalendar.Calendar.from_ical(response.content).walk("VEVENT"))
    assert len(events) == 8  # six phases, revision and the mock; no exam event: that is A's
    assert events[0].decoded("DTSTART") == plan_b.start_date
    assert all(f"-{learner_a.pk}@" not in str(event["UID"]) for event in events)


def test_b_without_a_plan_does_not_get_as_plan(client_b, learner_a):
    plan = client_b.get(reverse("progress:plan"))
    calendar = client_b.get(reverse("progress:plan-calendar"))
    choose = client_b.get(reverse("progress:plan-choose"))

    assert plan.status_code == 302
    assert calendar.status_code == 404
    assert "checked" in element_by_id(choose.content, "intensity-standard").attrs
    assert element_by_id(choose.content, "id_start_date").attrs["value"] != (
        learner_a.study_plan.start_date.isoformat()
    )
    assert not element_by_id(choose.content, "id_exam_date").attrs.get("value")


def test_bs_phase_page_shows_bs_ticks_only(client_b, learner_a, learner_b):
    tick(learner_b, *B_TICKS)

    response = client_b.get(reverse("progress:phase", args=["core-ml-foundations"]))

    assert "1 of 7" in element_by_id(response.content, "phase-progress").text
    for slug in A_TICKS[:2]:
        assert (
            "Reveal the reference answer" in element_by_id(response.content, f"check-{slug}").text
        )
    assert "Done" in element_by_id(response.content, f"check-{B_TICKS[0]}").text


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_b_unticking_a_check_a_ticked_leaves_as_tick(client_b, learner_a, learner_b, headers):
    url = reverse("progress:selfcheck-toggle", args=[A_TICKS[0]])

    client_b.post(url, {"done": "0"}, **headers)

    assert ticked(learner_a) == set(A_TICKS)
    assert ticked(learner_b) == set()
    assert not CheckOff.objects.filter(user=learner_b).exists()  # not even an unticked row


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_b_ticking_makes_bs_row_only(client_b, learner_a, learner_b, headers):
    response = answer_from_memory(client_b, "p3-clip-training", **headers)

    assert ticked(learner_b) == {"p3-clip-training"}
    assert ticked(learner_a) == set(A_TICKS)
    if headers:
        # B's figures: 1 check of 6 in phase 3, nothing of A's.
        assert "1 of 6" in element_by_id(response.content, "phase-progress").text


def test_b_ticking_what_a_ticked_gives_each_their_own_row(client_b, learner_a, learner_b):
    answer_from_memory(client_b, A_TICKS[0])

    assert ticked(learner_b) == {A_TICKS[0]}
    assert ticked(learner_a) == set(A_TICKS)
    assert CheckOff.objects.filter(self_check__slug=A_TICKS[0]).count() == 2


def test_b_saving_a_plan_never_touches_as_plan(client_b, learner_a, learner_b):
    before = StudyPlan.objects.filter(user=learner_a).values().get()

    response = client_b.post(
        reverse("progress:plan-choose"),
        {
            "intensity": "fast-track",
            "start_date": datetime.date.today().isoformat(),
            # Fields a form does not declare are ignored, whoever they name.
            "user": learner_a.pk,
            "user_id": learner_a.pk,
        },
    )

    assert response.status_code == 302
    assert StudyPlan.objects.filter(user=learner_a).values().get() == before
    assert StudyPlan.objects.get(user=learner_b).intensity.slug == "fast-track"
    assert StudyPlan.objects.count() == 2


def test_a_query_string_naming_another_learner_changes_nothing(client_b, learner_a, learner_b):
    response = client_b.get(reverse("progress:dashboard"), {"user": learner_a.pk})

    assert dashboard_done(response)["Core Machine Learning and AI Knowledge"] == "0/6"


# Reviews and practice


def test_b_reviewing_a_check_only_a_ticked_is_a_404_and_leaves_as_schedule(
    client_b, learner_a, learner_b
):
    make_due(learner_a, A_TICKS[0])
    before = list(CheckOff.objects.filter(user=learner_a).values())

    response = client_b.post(reverse("progress:review-answer", args=[A_TICKS[0]]), {"rating": "1"})

    assert response.status_code == 404
    assert list(CheckOff.objects.filter(user=learner_a).values()) == before


@pytest.fixture
def as_missed_question(learner_a) -> QuestionCard:
    """A question A got wrong in a drill, due for review today."""
    (card,) = miss(learner_a, Question.objects.current().filter(domain__slug="core-ml").first())
    make_missed_due(learner_a, card)
    today = current_review_day(learner_a, timezone.now())
    assert (QUESTION, card.pk) in review_queue(learner_a, day=today)
    return QuestionCard.objects.get(pk=card.pk)


def card_row(card: QuestionCard) -> dict:
    return QuestionCard.objects.filter(pk=card.pk).values().get()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
@pytest.mark.parametrize("rating", ["1", "3"])
def test_b_reviewing_as_missed_question_is_a_404_and_leaves_as_card(
    client_b, learner_a, learner_b, as_missed_question, headers, rating
):
    before = card_row(as_missed_question)
    url = reverse("progress:review-question", args=[as_missed_question.pk])

    response = client_b.post(url, {"rating": rating}, **headers)

    assert response.status_code == 404
    assert card_row(as_missed_question) == before
    assert not QuestionCard.objects.filter(user=learner_b).exists()


def test_bs_review_queue_and_header_count_are_bs_only(
    client_b, learner_a, learner_b, as_missed_question
):
    make_due(learner_a, *A_TICKS)

    response = client_b.get(reverse("progress:review"))

    assert element_by_id(response.content, "header-review").text == "Review today (0)"
    assert element_by_id(response.content, "review-card").text.startswith("Nothing to review")


def test_bs_practice_figures_and_history_are_bs_only(client_b, learner_a, learner_b):
    a_drill = practise(learner_a, "core-ml", right=0, wrong=10)
    a_mock = mock_for(learner_a)
    b_drill = practise(learner_b, "core-ml", right=10)

    practice = client_b.get(reverse("progress:practice"))
    history = client_b.get(reverse("progress:practice-history"))

    core_ml = next(row for row in table_rows(practice.content) if row[0].startswith("Core"))
    assert core_ml[2] == "10 of 10 right: 80% range 81–99% likely at least 70%"
    assert "Resume your mock" not in page_text(practice.content)
    result = reverse("progress:attempt-result", args=[b_drill.pk])
    assert result in links(history.content)
    for attempt in (a_drill, a_mock):
        assert reverse("progress:attempt-result", args=[attempt.pk]) not in links(history.content)


def test_as_open_mock_neither_blocks_nor_shows_in_bs_drill(client_b, learner_a, learner_b):
    a_mock = mock_for(learner_a)

    response = client_b.post(reverse("progress:drill-start"), {"domain": "core-ml"})

    assert response.status_code == 302
    b_drill = Attempt.objects.get(user=learner_b)
    assert b_drill.kind == Attempt.Kind.DRILL
    assert Attempt.objects.get(pk=a_mock.pk).submitted_at is None


def stored(attempt: Attempt) -> tuple[list[dict], list[dict]]:
    return (
        list(Attempt.objects.filter(pk=attempt.pk).values()),
        list(AttemptQuestion.objects.filter(attempt=attempt).order_by("position").values()),
    )


def every_attempt_request(attempt: Attempt) -> list[tuple[str, str, dict]]:
    item = items_of(attempt)[0]
    pk = attempt.pk
    return [
        ("get", reverse("progress:attempt", args=[pk]), {}),
        ("get", reverse("progress:attempt", args=[pk]) + "?q=1", {}),
        ("get", reverse("progress:attempt-flagged", args=[pk]), {}),
        ("get", reverse("progress:attempt-result", args=[pk]), {}),
        (
            "post",
            reverse("progress:attempt-answer", args=[pk, 1]),
            {"option": [str(i) for i in sorted(item.question.correct_options)]},
        ),
        ("post", reverse("progress:attempt-answer", args=[pk, 1]), {"then": "flag"}),
        ("post", reverse("progress:attempt-submit", args=[pk]), {}),
    ]


@pytest.mark.parametrize("kind", ["mock", "drill"])
def test_another_learners_attempt_is_unreachable_by_every_url(client_b, learner_a, learner_b, kind):
    attempt = mock_for(learner_a) if kind == "mock" else drill_for(learner_a)
    before = stored(attempt)

    for method, url, data in every_attempt_request(attempt):
        for headers in ({}, HTMX):
            response = getattr(client_b, method)(url, data, **headers)
            assert response.status_code == 404, (method, url, response.status_code)

    assert stored(attempt) == before
    assert not Attempt.objects.filter(user=learner_b).exists()


def test_an_attempt_that_does_not_exist_is_a_404(client_b):
    assert client_b.get(reverse("progress:attempt", args=[999999])).status_code == 404


def test_attempt_pages_need_a_login(learner_a):
    attempt = mock_for(learner_a)
    before = stored(attempt)

    for method, url, data in every_attempt_request(attempt):
        response = getattr(Client(), method)(url, data)
        assert response.status_code == 302
        assert response.url.startswith(reverse("account_login"))
    assert stored(attempt) == before


def learner_patterns(patterns, prefix=""):
    """Every URL pattern outside the admin, with its full route."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.app_name == "admin":
                continue
            yield from learner_patterns(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            yield prefix + str(pattern.pattern), pattern


# The only ids in learner URLs are a practice attempt's, a question's place in it, a missed
# question's review card and a study session; attempts, cards and sessions are looked up from
# request.user, which the attempt and review tests above and tests/test_views_study_time.py prove
# for every such URL.
SCOPED_IDS = {"attempt_id", "position", "card_id", "session_id"}


# The unsubscribe link names its learner, but only inside a signed token (tests/test_reminders.py
# checks that a tampered one is refused).
SIGNED = {"token"}


def test_no_progress_url_takes_an_id_but_its_own_attempts():
    for pattern in progress_urls.urlpatterns:
        converters = pattern.pattern.converters
        ints = {name for name, c in converters.items() if isinstance(c, IntConverter)}
        assert ints <= SCOPED_IDS, pattern
        assert set(converters) <= {"slug"} | SCOPED_IDS | SIGNED, pattern


def test_no_url_outside_the_admin_names_a_user_or_a_primary_key():
    routes = list(learner_patterns(get_resolver().url_patterns))
    assert any("study/" in route for route, _ in routes)  # the walk reached the progress app
    for route, pattern in routes:
        params = set(getattr(pattern.pattern, "converters", {})) | set(
            pattern.pattern.regex.groupindex
        )
        assert not params & {"pk", "id", "user", "user_id", "username", "learner"}, route
        ints = {
            name
            for name, c in getattr(pattern.pattern, "converters", {}).items()
            if isinstance(c, IntConverter)
        }
        assert ints <= SCOPED_IDS, route
