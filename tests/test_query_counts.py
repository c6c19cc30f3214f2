"""SQL queries per learner page: pinned, and the same however many learners, ticks and practice
answers there are."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from phases.models import SelfCheck
from progress.models import Attempt
from progress.services.practice import answer, flag, submit
from progress.services.study import set_done
from studyplan import caching
from tests.factories import (
    UserFactory,
    drill_for,
    items_of,
    make_due,
    make_plan,
    mock_for,
    practise,
    tick,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TOGGLE = reverse("progress:selfcheck-toggle", args=["p1-backprop"])
REVIEW_ANSWER = reverse("progress:review-answer", args=["p2-fid-direction"])


def preview_query() -> dict[str, str]:
    start = timezone.localdate()
    exam = start + datetime.timedelta(days=20)  # standard runs late: the suggestion is looked up
    return {"intensity": "standard", "start_date": start.isoformat(), "exam_date": exam.isoformat()}


# (name, method, url, data, headers, pinned maximum), pinned at today's counts so they cannot
# creep; the toggle and the review answer answer 302 or a fragment.
PAGES = [
    # Plan and ticks, counted answers, the live mock's deadline, the header's review count, and
    # the study-activity calendar.
    ("dashboard", "get", reverse("progress:dashboard"), None, {}, 6),
    ("dashboard-htmx", "get", reverse("progress:dashboard"), None, HTMX, 6),
    ("toggle", "post", TOGGLE, {"done": "1"}, {}, 3),
    ("toggle-htmx", "post", TOGGLE, {"done": "1"}, HTMX, 4),
    ("untoggle", "post", TOGGLE, {"done": "0"}, {}, 2),
    ("untoggle-htmx", "post", TOGGLE, {"done": "0"}, HTMX, 3),
    ("phase", "get", reverse("progress:phase", args=["core-ml-foundations"]), None, {}, 3),
    ("phase-5", "get", reverse("progress:phase", args=["analysis-and-optimization"]), None, {}, 3),
    ("review", "get", reverse("progress:review"), None, {}, 2),
    ("review-answer", "post", REVIEW_ANSWER, {"knew": "0"}, {}, 4),
    ("review-answer-htmx", "post", REVIEW_ANSWER, {"knew": "0"}, HTMX, 5),
    ("practice", "get", reverse("progress:practice"), None, {}, 6),
    ("history", "get", reverse("progress:practice-history"), None, {}, 4),
    ("plan", "get", reverse("progress:plan"), None, {}, 3),
    ("calendar", "get", reverse("progress:plan-calendar"), None, {}, 2),
    ("choose", "get", reverse("progress:plan-choose"), None, {}, 3),
    ("preview-htmx", "get", reverse("progress:plan-preview"), preview_query(), HTMX, 3),
    ("preview", "get", reverse("progress:plan-preview"), preview_query(), {}, 4),
]


def request(client, method, url, data, headers):
    response = getattr(client, method)(url, data or {}, **headers)
    assert response.status_code in (200, 302), response.status_code
    return response


def measure(client, method, url, data, headers) -> int:
    with CaptureQueriesContext(connection) as queries:
        request(client, method, url, data, headers)
    return len(queries)


@pytest.fixture(autouse=True)
def warm_syllabus(fresh_caches, syllabus):
    # Steady state: the syllabus snapshot is built once per process and content change (its own
    # cost is pinned below), then every learner page reads it from memory.
    caching.syllabus()


def test_the_syllabus_snapshot_is_built_in_six_queries_once_per_content_version(
    django_assert_num_queries,
):
    caching.content_changed()
    version = caching.content_version()
    with django_assert_num_queries(6):
        snapshot = caching.syllabus(version)
    assert len(snapshot.checks) == SelfCheck.objects.current().count()
    with django_assert_num_queries(0):
        assert caching.syllabus(version) is snapshot


@pytest.fixture
def planned_learner(learner):
    make_plan(learner, days_ago=10, exam_in=30)
    tick(learner, "p1-residual-gradient-flow", "p2-fid-direction")
    make_due(learner, "p2-fid-direction")
    practise(learner, "core-ml", right=3, wrong=2)
    return learner


def crowd(me, others: int = 30) -> None:
    """Other learners with plans, ticks and practice, and many more ticks and answers of my own."""
    slugs = list(SelfCheck.objects.current().values_list("slug", flat=True))
    for n, other in enumerate(UserFactory.create_batch(others)):
        make_plan(other, intensity=("fast-track", "standard", "extended")[n % 3], days_ago=n)
        tick(other, *slugs[n % 3 :: 2])
        make_due(other, *slugs[n % 3 :: 4])
        practise(other, ("core-ml", "experimentation")[n % 2], right=n % 7, wrong=3)
    mine = set(SelfCheck.objects.filter(check_offs__user=me).values_list("slug", flat=True))
    tick(me, *[slug for slug in slugs[::2] if slug not in mine and slug != "p1-backprop"][:20])
    for slug in ("experimentation", "multimodal-data", "trustworthy-ai"):
        practise(me, slug, right=8, wrong=4)


@pytest.mark.parametrize(
    ("method", "url", "data", "headers", "most"),
    [page[1:] for page in PAGES],
    ids=[page[0] for page in PAGES],
)
def test_learner_pages_stay_within_their_query_budget(
    learner_client, planned_learner, django_assert_max_num_queries, method, url, data, headers, most
):
    with django_assert_max_num_queries(most):
        request(learner_client, method, url, data, headers)


@pytest.mark.parametrize(
    ("method", "url", "data", "headers", "most"),
    [page[1:] for page in PAGES],
    ids=[page[0] for page in PAGES],
)
def test_query_counts_are_the_same_for_one_learner_and_for_thirty(
    learner_client, planned_learner, django_assert_num_queries, method, url, data, headers, most
):
    baseline = measure(learner_client, method, url, data, headers)
    crowd(planned_learner)
    assert SelfCheck.objects.filter(check_offs__user=planned_learner).count() >= 20
    # Measure the same request again from the same starting point: a tick that really ticks
    # (a repeated one changes nothing and costs less), a review of a check that is due.
    toggled = SelfCheck.objects.get(slug="p1-backprop")
    set_done(user=planned_learner, self_check_id=toggled.pk, done=False)
    make_due(planned_learner, "p2-fid-direction")

    with django_assert_num_queries(baseline):
        request(learner_client, method, url, data, headers)


def test_the_dashboard_without_a_plan_or_ticks_stays_within_budget(
    learner_client, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        request(learner_client, "get", reverse("progress:dashboard"), None, {})


def test_a_cached_dashboard_costs_only_loading_the_learner(
    learner_client, planned_learner, django_assert_max_num_queries
):
    request(learner_client, "get", reverse("progress:dashboard"), None, {})

    with django_assert_max_num_queries(2):
        request(learner_client, "get", reverse("progress:dashboard"), None, {})


def test_a_learner_with_every_check_done_costs_no_more_queries(
    learner_client, planned_learner, django_assert_num_queries
):
    dashboard = reverse("progress:dashboard")
    baseline = measure(learner_client, "get", dashboard, None, {})
    tick(
        planned_learner,
        *SelfCheck.objects.current()
        .exclude(check_offs__user=planned_learner)
        .values_list("slug", flat=True),
    )

    with django_assert_num_queries(baseline):
        request(learner_client, "get", dashboard, None, {})


# Practice pages, for a learner in the middle of a mock with history behind them


def busy_learner(settings):
    """A learner mid-mock, with history: a finished mock, a drill and a few reviews due."""
    settings.MOCK_QUESTIONS = 60
    settings.MOCK_MINUTES = 60
    user = UserFactory()
    make_plan(user)
    tick(user, "p1-backprop", "p1-validation-vs-test", "p2-fid-direction")
    make_due(user, "p1-backprop", "p2-fid-direction")
    practise(user, "core-ml", right=3, wrong=2)
    old = mock_for(user, now=timezone.now() - datetime.timedelta(hours=3))
    for item in items_of(old)[:20]:
        answer(user=user, attempt=old, item=item, chosen=[0], now=old.started_at)
    attempt = mock_for(user)
    items = items_of(attempt)
    for item in items[:5]:
        answer(user=user, attempt=attempt, item=item, chosen=[0], now=timezone.now())
    flag(user=user, attempt=attempt, item=items[2], flagged=True, now=timezone.now())
    return user, attempt


def others_practise(count: int) -> None:
    for _ in range(count):
        other = UserFactory()
        attempt = mock_for(other)
        for item in items_of(attempt)[:30]:
            answer(user=other, attempt=attempt, item=item, chosen=[1], now=timezone.now())
        submit(user=other, attempt=attempt, now=timezone.now())
        mock_for(other)
        practise(other, "experimentation", right=4, wrong=4)


def attempt_url(attempt: Attempt, q: int | None = None) -> str:
    url = reverse("progress:attempt", args=[attempt.pk])
    return url if q is None else f"{url}?q={q}"


def answer_url(attempt: Attempt, position: int) -> str:
    return reverse("progress:attempt-answer", args=[attempt.pk, position])


# (name, method, url for the busy learner's live mock, data, pinned maximum at today's count)
PRACTICE_PAGES = [
    ("mock-question", "get", lambda a: attempt_url(a), None, 4),
    ("mock-question-by-number", "get", lambda a: attempt_url(a, 7), None, 4),
    ("answer", "post", lambda a: answer_url(a, 6), {"option": ["1"]}, 6),
    (
        "answer-then-flagged",
        "post",
        lambda a: answer_url(a, 6),
        {"option": "1", "then": "flagged"},
        5,
    ),
    (
        "flag",
        "post",
        lambda a: reverse("progress:attempt-flag", args=[a.pk, 8]),
        {"flagged": "1"},
        4,
    ),
    ("flagged", "get", lambda a: reverse("progress:attempt-flagged", args=[a.pk]), None, 4),
    ("submit", "post", lambda a: reverse("progress:attempt-submit", args=[a.pk]), None, 4),
    ("practice-home", "get", lambda a: reverse("progress:practice"), None, 6),
    ("mock-resumed", "post", lambda a: reverse("progress:mock-start"), None, 2),
    ("review", "get", lambda a: reverse("progress:review"), None, 2),
    ("history", "get", lambda a: reverse("progress:practice-history"), None, 4),
]


@pytest.mark.parametrize(
    ("method", "make_url", "data", "most"),
    [page[1:] for page in PRACTICE_PAGES],
    ids=[page[0] for page in PRACTICE_PAGES],
)
def test_practice_pages_stay_within_their_query_budget(
    client, settings, django_assert_max_num_queries, method, make_url, data, most
):
    user, attempt = busy_learner(settings)
    client.force_login(user)
    url = make_url(attempt)

    with django_assert_max_num_queries(most):
        response = getattr(client, method)(url, data or {})

    assert response.status_code in (200, 302), response.status_code


def test_a_drill_refused_while_a_mock_is_open_stays_within_twelve_queries(
    client, settings, django_assert_max_num_queries
):
    # Pinned at today's count: the refusal looks up the domain and the open mock, then answers
    # with the whole practice page.
    user, _ = busy_learner(settings)
    client.force_login(user)

    with django_assert_max_num_queries(12):
        response = client.post(reverse("progress:drill-start"), {"domain": "core-ml"})

    assert response.status_code == 409


def test_the_result_page_stays_within_eight_queries(
    client, settings, django_assert_max_num_queries
):
    user, attempt = busy_learner(settings)
    submit(user=user, attempt=attempt, now=timezone.now())
    client.force_login(user)

    with django_assert_max_num_queries(4):
        response = client.get(reverse("progress:attempt-result", args=[attempt.pk]))

    assert response.status_code == 200


def test_a_drill_question_with_feedback_stays_within_five_queries(
    learner, learner_client, django_assert_max_num_queries
):
    attempt = drill_for(learner)
    item = items_of(attempt)[0]
    answer(
        user=learner,
        attempt=attempt,
        item=item,
        chosen=sorted(item.question.correct_options),
        now=timezone.now(),
    )

    with django_assert_max_num_queries(5):
        response = learner_client.get(attempt_url(attempt, 1))

    assert response.status_code == 200


def test_the_mock_question_page_costs_the_same_however_much_others_practise(client, settings):
    user, attempt = busy_learner(settings)
    client.force_login(user)

    def cost() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(attempt_url(attempt)).status_code == 200
        return len(queries)

    alone = cost()
    others_practise(3)
    # More of my own history, too: finished drills.
    for _ in range(2):
        practise(user, "trustworthy-ai", right=2, wrong=1)

    assert cost() == alone
