"""SQL queries per learner page: pinned, and the same however many learners and ticks there are."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from phases import content
from phases.models import SelfCheck
from progress import services
from tests.factories import UserFactory, make_plan, tick

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TOGGLE = reverse("progress:selfcheck-toggle", args=["p1-backprop"])


def preview_query() -> dict[str, str]:
    start = timezone.localdate()
    exam = start + datetime.timedelta(days=20)  # standard runs late: the suggestion is looked up
    return {"intensity": "standard", "start_date": start.isoformat(), "exam_date": exam.isoformat()}


# (name, method, url, data, headers, pinned maximum); the toggle answers 302 or a fragment.
PAGES = [
    ("dashboard", "get", reverse("progress:dashboard"), None, {}, 8),
    ("dashboard-htmx", "get", reverse("progress:dashboard"), None, HTMX, 8),
    ("toggle", "post", TOGGLE, {"done": "1"}, {}, 6),
    ("toggle-htmx", "post", TOGGLE, {"done": "1"}, HTMX, 6),
    ("untoggle", "post", TOGGLE, {"done": "0"}, {}, 6),
    ("untoggle-htmx", "post", TOGGLE, {"done": "0"}, HTMX, 6),
    ("phase", "get", reverse("progress:phase", args=["core-ml-foundations"]), None, {}, 8),
    ("phase-5", "get", reverse("progress:phase", args=["analysis-and-optimization"]), None, {}, 8),
    ("plan", "get", reverse("progress:plan"), None, {}, 8),
    ("calendar", "get", reverse("progress:plan-calendar"), None, {}, 8),
]
# Outside the budget, pinned at today's counts so they cannot creep: the full pages
# read the three intensities' hours twice (once for the cards, once for the preview).
PLAN_FORM_PAGES = [
    ("choose", "get", reverse("progress:plan-choose"), None, {}, 11),
    ("preview-htmx", "get", reverse("progress:plan-preview"), preview_query(), HTMX, 8),
    ("preview", "get", reverse("progress:plan-preview"), preview_query(), {}, 12),
]
ALL_PAGES = PAGES + PLAN_FORM_PAGES


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
    content.syllabus()


def test_the_syllabus_snapshot_is_built_in_six_queries(django_assert_num_queries):
    content.forget()
    with django_assert_num_queries(6):
        snapshot = content.syllabus()
    assert len(snapshot.checks) == SelfCheck.objects.current().count()
    with django_assert_num_queries(0):
        assert content.syllabus() is snapshot


@pytest.fixture
def planned_learner(learner):
    make_plan(learner, days_ago=10, exam_in=30)
    tick(learner, "p1-residual-gradient-flow", "p2-fid-direction")
    return learner


def crowd(me, others: int = 30) -> None:
    """Other learners with plans and ticks, and many more ticks of my own."""
    slugs = list(SelfCheck.objects.current().values_list("slug", flat=True))
    for n, other in enumerate(UserFactory.create_batch(others)):
        make_plan(other, intensity=("fast-track", "standard", "extended")[n % 3], days_ago=n)
        tick(other, *slugs[n % 3 :: 2])
    mine = set(SelfCheck.objects.filter(check_offs__user=me).values_list("slug", flat=True))
    tick(me, *[slug for slug in slugs[::2] if slug not in mine and slug != "p1-backprop"][:20])


@pytest.mark.parametrize(
    ("method", "url", "data", "headers", "most"),
    [page[1:] for page in ALL_PAGES],
    ids=[page[0] for page in ALL_PAGES],
)
def test_learner_pages_stay_within_their_query_budget(
    learner_client, planned_learner, django_assert_max_num_queries, method, url, data, headers, most
):
    with django_assert_max_num_queries(most):
        request(learner_client, method, url, data, headers)


@pytest.mark.parametrize(
    ("method", "url", "data", "headers", "most"),
    [page[1:] for page in ALL_PAGES],
    ids=[page[0] for page in ALL_PAGES],
)
def test_query_counts_do_not_grow_with_learners_or_ticks(
    learner_client, planned_learner, django_assert_num_queries, method, url, data, headers, most
):
    baseline = measure(learner_client, method, url, data, headers)
    crowd(planned_learner)
    assert SelfCheck.objects.filter(check_offs__user=planned_learner).count() >= 20
    # Measure the same request again from the same starting point: a tick that really ticks
    # (a repeated one changes nothing and costs less).
    toggled = SelfCheck.objects.get(slug="p1-backprop")
    services.set_done(user=planned_learner, self_check_id=toggled.pk, done=False)

    with django_assert_num_queries(baseline):
        request(learner_client, method, url, data, headers)


def test_the_dashboard_without_a_plan_or_ticks_stays_within_budget(
    learner_client, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
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
