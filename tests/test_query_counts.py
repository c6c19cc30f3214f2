"""SQL queries per learner page: pinned, and the same however many learners, ticks and practice
answers there are."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from phases import content
from phases.models import Question, SelfCheck
from progress.exercises.models import Exercise
from progress.memory.review_days import fix_review_day
from progress.models import Attempt, CheckOff, NotYet, QuestionCard, Reveal
from progress.practice.services import answer, flag, submit
from tests.conftest import HTMX
from tests.factories import (
    UserFactory,
    drill_for,
    items_of,
    make_due,
    make_missed_due,
    make_plan,
    miss,
    mock_for,
    practise,
    shown,
    tick,
    wrong_option,
)

pytestmark = pytest.mark.django_db

TOGGLE = reverse("progress:selfcheck-toggle", args=["p1-backprop"])
REVEAL = reverse("progress:selfcheck-reveal", args=["p1-backprop"])
OUTCOME = reverse("progress:selfcheck-outcome", args=["p1-backprop"])
REVIEW_ANSWER = reverse("progress:review-answer", args=["p2-fid-direction"])
TIMER_START = reverse("progress:timer-start", args=["core-ml-foundations"])
RECORD = reverse("progress:study-session-record", args=["core-ml-foundations"])
EXERCISE = reverse("progress:exercise-save", args=["core-ml-foundations"])
EXERCISE_PARTS = reverse("progress:exercise-parts", args=["core-ml-foundations"])
EXERCISE_DOWNLOAD = reverse("progress:exercise-download", args=["core-ml-foundations"])


def preview_query() -> dict[str, str]:
    start = timezone.localdate()
    exam = start + datetime.timedelta(days=20)  # standard runs late: the suggestion is looked up
    return {"intensity": "standard", "start_date": start.isoformat(), "exam_date": exam.isoformat()}


# A learner's write is one transaction (transaction.atomic): inside a test's own transaction, a
# savepoint and its release.
WRITE = 2
# A logged-in request reads its session (Django's database sessions), then the learner with their
# plan, profile and content version in one query (progress.auth).
USER = 1
# A tick through the ORM: get_or_create's read and its insert in a savepoint, and its row of the
# review log, in the service's transaction; with htmx, then the learner's ticks.
TICK = 5 + WRITE
# An untick of a check never ticked: the learner's lock, then an UPDATE that changes nothing.
TICK_CHANGING_NOTHING = 2 + WRITE
TICK_READING = TICK + 1
TICK_READING_CHANGING_NOTHING = TICK_CHANGING_NOTHING + 1
# A write that changes what the learner's summary holds keeps it in its transaction
# (progress.summary): the summary's row, the day the write falls on counted again, today's
# review queue counted for the header, its UPDATE.
SUMMARY = 4
# A write of study time keeps the summary's minutes: its row, the minutes by phase and domain,
# those by day, its UPDATE.
MINUTES = 4
# A request that changes the session saves it (Django's database sessions: one UPDATE, in a
# savepoint).
SESSION = 1 + WRITE

# (name, method, url, data, headers, pinned maximum), pinned at today's counts so they cannot
# creep; the toggle and the review answer answer 302 or a fragment.
PAGES = [
    # Whether a mock ran out of time unclosed (closed, its answers count at once), the ticks, the
    # ticked checks' review log for the weekly recall line, the minutes studied, and today's
    # phase's written exercise; the counted answers, the header's review count and the
    # study-activity calendar come with the learner, in their summary (progress.summary).
    ("dashboard", "get", reverse("progress:dashboard"), None, {}, 6),
    ("dashboard-htmx", "get", reverse("progress:dashboard"), None, HTMX, 6),
    # The reveal is a row of its own (progress.models.Reveal): the learner's lock, then
    # update_or_create (its savepoint, a locked read, the insert in a savepoint), in the
    # service's transaction; with htmx, the row: the ticks, the reveals, the "not yet"s.
    ("reveal", "post", REVEAL, {"answer": "The chain rule."}, {}, 1 + 5 + 2 * WRITE),
    ("reveal-htmx", "post", REVEAL, {"answer": "The chain rule."}, HTMX, 1 + 5 + 2 * WRITE + 3),
    # After the reveal (prepare, not counted), in one transaction: the reveal used up (a locked
    # read, its delete), the learner's lock, the review day (the profile, locked), the tick
    # (its card read, get_or_create's read and insert in a savepoint) with its log row, and its
    # "not yet" cleared. With htmx, then the row and the figures.
    ("got-it", "post", OUTCOME, {"outcome": "got-it"}, {}, 1 + 2 + 8 + 2 * WRITE + SUMMARY),
    (
        "got-it-htmx",
        "post",
        OUTCOME,
        {"outcome": "got-it"},
        HTMX,
        1 + 2 + 8 + 2 * WRITE + 3 + SUMMARY,
    ),
    # A "not yet": the reveal used up, is it ticked, the learner's lock, the review day,
    # update_or_create (its savepoint, locked read, insert in a savepoint) and the log row.
    (
        "not-yet",
        "post",
        OUTCOME,
        {"outcome": "not-yet"},
        {},
        1 + 2 + 1 + 2 + 5 + WRITE + 2 + SUMMARY,
    ),
    ("untoggle", "post", TOGGLE, {"done": "0"}, {}, 1 + TICK_CHANGING_NOTHING),
    # With htmx, the row: the ticks, the reveals and the "not yet"s.
    ("untoggle-htmx", "post", TOGGLE, {"done": "0"}, HTMX, 3 + TICK_READING_CHANGING_NOTHING),
    # Plan and ticks, the review queue (the header's count and the minutes studied come with
    # the learner's summary), the timer, the phase's written exercise, the checks the learner
    # said "not yet" to, and the checks turned over (progress.models.Reveal).
    ("phase", "get", reverse("progress:phase", args=["core-ml-foundations"]), None, {}, 6),
    ("phase-5", "get", reverse("progress:phase", args=["analysis-and-optimization"]), None, {}, 7),
    # The sessions (the minutes and the header's count come with the learner's summary).
    ("study-time", "get", reverse("progress:study-time"), None, {}, 3),
    # The learner's row locked, the minutes already on that day (a day holds 24 hours), the
    # phase and the domain, the insert; the summary's minutes kept.
    ("record", "post", RECORD, {"minutes": "30"}, {}, 6 + WRITE + MINUTES),
    # A first save of the exercise's text: the learner's lock, the row's locking read, its
    # insert; a first tick of its parts the same, then the update, all in the service's
    # transaction (a save names the version it was read at). The download reads the one row.
    ("exercise-save", "post", EXERCISE, {"text": "Skip paths."}, {}, 1 + 3 + WRITE),
    ("exercise-save-htmx", "post", EXERCISE, {"text": "Skip paths."}, HTMX, 1 + 3 + WRITE),
    ("exercise-parts", "post", EXERCISE_PARTS, {"part": "p1-ex-fusion-table"}, {}, 1 + 4 + WRITE),
    (
        "exercise-parts-htmx",
        "post",
        EXERCISE_PARTS,
        {"part": "p1-ex-fusion-table"},
        HTMX,
        1 + 4 + WRITE,
    ),
    ("exercise-download", "get", EXERCISE_DOWNLOAD, None, {}, 1 + 1),
    # The queue, the card, the checks turned over, and the review log's forecasts for "How well
    # the forecast fits you".
    ("review", "get", reverse("progress:review"), None, {}, 5),
    # The rating is taken only for a card in today's queue: the queue is read first (one query);
    # then, in one transaction, the learner's lock, the card, its reveal used up, the review day
    # and the log row.
    ("review-answer", "post", REVIEW_ANSWER, {"rating": "1"}, {}, 9 + WRITE + SUMMARY),
    # With htmx the next card, or when the queue is empty, when the next one comes back.
    (
        "review-answer-htmx",
        "post",
        REVIEW_ANSWER,
        {"rating": "1"},
        HTMX,
        13 + WRITE + SUMMARY,
    ),
    ("practice", "get", reverse("progress:practice"), None, {}, 6),
    ("history", "get", reverse("progress:practice-history"), None, {}, 4),
    # With the learner's earlier plans, the newest few.
    ("plan", "get", reverse("progress:plan"), None, {}, 5),
    ("calendar", "get", reverse("progress:plan-calendar"), None, {}, 2),
    ("choose", "get", reverse("progress:plan-choose"), None, {}, 3),
    ("preview-htmx", "get", reverse("progress:plan-preview"), preview_query(), HTMX, 3),
    ("preview", "get", reverse("progress:plan-preview"), preview_query(), {}, 4),
]


def prepare(client, url) -> None:
    """An outcome or a rating is said after the reveal: the reveal first, not counted."""
    if url == OUTCOME:
        assert client.post(REVEAL, {"answer": "The chain rule."}).status_code == 302
    if url == REVIEW_ANSWER:
        revealed = client.post(reverse("progress:review-reveal"), {"answer": "Lower is closer."})
        assert revealed.status_code == 200


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


def test_the_syllabus_snapshot_is_built_in_eight_queries_once_per_content_version(
    django_assert_num_queries,
):
    content.content_changed()
    version = content.content_version()
    with django_assert_num_queries(8):
        snapshot = content.syllabus(version)
    assert len(snapshot.checks) == SelfCheck.objects.current().count()
    with django_assert_num_queries(0):
        assert content.syllabus(version) is snapshot


@pytest.fixture
def planned_learner(learner):
    make_plan(learner, days_ago=10, exam_in=30)
    tick(learner, "p1-residual-gradient-flow", "p2-fid-direction")
    make_due(learner, "p2-fid-direction")
    practise(learner, "core-ml", right=3, wrong=2)
    return learner


def crowd(me, others: int = 10) -> None:
    """Other learners with plans, ticks and practice, and many more ticks and answers of my own.
    Ten others: a query made per learner would show ten times over (and every tick and answer
    goes through the write path, which keeps a summary: thirty cost the suite minutes)."""
    slugs = list(SelfCheck.objects.current().values_list("slug", flat=True))
    for n, other in enumerate(UserFactory.create_batch(others)):
        make_plan(other, intensity=("fast-track", "standard", "extended")[n % 3], days_ago=n)
        tick(other, *slugs[n % 3 :: 4])
        make_due(other, *slugs[n % 3 :: 8])
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
    prepare(learner_client, url)
    with django_assert_max_num_queries(most + USER):
        request(learner_client, method, url, data, headers)


@pytest.mark.parametrize(
    ("method", "url", "data", "headers", "most"),
    [page[1:] for page in PAGES],
    ids=[page[0] for page in PAGES],
)
def test_query_counts_are_the_same_alone_and_among_others_with_a_longer_history(
    learner_client, planned_learner, django_assert_num_queries, method, url, data, headers, most
):
    prepare(learner_client, url)
    baseline = measure(learner_client, method, url, data, headers)
    crowd(planned_learner)
    assert SelfCheck.objects.filter(check_offs__user=planned_learner).count() >= 20
    # Measure the same request again from the same starting point: a tick that really ticks
    # (a repeated one changes nothing and costs less), a review of a check that is due.
    # A first tick (an untick keeps the card, and ticking it again would be a restore).
    CheckOff.objects.filter(user=planned_learner, self_check__slug="p1-backprop").delete()
    make_due(planned_learner, "p2-fid-direction")
    Exercise.objects.filter(user=planned_learner).delete()  # a first save, as measured
    NotYet.objects.filter(user=planned_learner).delete()
    Reveal.objects.filter(user=planned_learner).delete()  # a first reveal, as measured
    prepare(learner_client, url)

    with django_assert_num_queries(baseline):
        request(learner_client, method, url, data, headers)


@pytest.mark.parametrize(("headers", "most"), [({}, 5 + WRITE), (HTMX, 7 + WRITE)])
def test_starting_the_timer_stays_within_its_budget(
    learner_client, planned_learner, django_assert_max_num_queries, headers, most
):
    # The learner's row locked, the running timer looked for, the phase, the insert; with htmx,
    # then the section: minutes studied and the timer.
    with django_assert_max_num_queries(most + USER):
        request(learner_client, "post", TIMER_START, None, headers)


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


def single_answer(attempt: Attempt, at_least: int) -> int:
    """The first question from position ``at_least`` on that asks for one answer: ``["1"]``
    answers it (a choose-two would refuse a single option)."""
    return next(
        item.position
        for item in items_of(attempt)
        if item.position >= at_least and len(item.question.correct_options) == 1
    )


def attempt_url(attempt: Attempt, q: int | None = None) -> str:
    url = reverse("progress:attempt", args=[attempt.pk])
    return url if q is None else f"{url}?q={q}"


def answer_url(attempt: Attempt, position: int) -> str:
    return reverse("progress:attempt-answer", args=[attempt.pk, position])


# (name, method, url for the busy learner's live mock, data, pinned maximum at today's count)
PRACTICE_PAGES = [
    ("mock-question", "get", lambda a: attempt_url(a), None, 4),
    ("mock-question-by-number", "get", lambda a: attempt_url(a, 7), None, 4),
    # The learner's lock, the attempt and its questions, the answer written (conditionally).
    ("answer", "post", lambda a: answer_url(a, single_answer(a, 6)), {"option": ["1"]}, 7 + WRITE),
    (
        "answer-then-flagged",
        "post",
        lambda a: answer_url(a, single_answer(a, 6)),
        {"option": "1", "then": "flagged"},
        6 + WRITE,
    ),
    (
        "flag",
        "post",
        lambda a: answer_url(a, 8),
        {"then": "flag"},
        6 + WRITE,
    ),
    ("flagged", "get", lambda a: reverse("progress:attempt-flagged", args=[a.pk]), None, 4),
    # The learner's lock, the hand-in, then the answers read once, which of them are first
    # answers (one read, two updates: progress.practice.services.settle_first_sight), the
    # review day, and every miss made a review card in one statement
    # (progress.memory.reviews.remember_misses).
    (
        "submit",
        "post",
        lambda a: reverse("progress:attempt-submit", args=[a.pk]),
        None,
        10 + WRITE,
    ),
    ("practice-home", "get", lambda a: reverse("progress:practice"), None, 6),
    ("mock-resumed", "post", lambda a: reverse("progress:mock-start"), None, 2),
    ("review", "get", lambda a: reverse("progress:review"), None, 5),
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

    with django_assert_max_num_queries(most + USER):
        response = getattr(client, method)(url, data or {})

    assert response.status_code in (200, 302), response.status_code


def test_a_drill_refused_while_a_mock_is_open_stays_within_twelve_queries(
    client, settings, django_assert_max_num_queries
):
    # Pinned at today's count: the refusal looks up the domain and the open mock, then answers
    # with the whole practice page.
    user, _ = busy_learner(settings)
    client.force_login(user)

    with django_assert_max_num_queries(12 + USER):
        response = client.post(reverse("progress:drill-start"), {"domain": "core-ml"})

    assert response.status_code == 409


def test_the_result_page_stays_within_eight_queries(
    client, settings, django_assert_max_num_queries
):
    user, attempt = busy_learner(settings)
    submit(user=user, attempt=attempt, now=timezone.now())
    client.force_login(user)

    with django_assert_max_num_queries(4 + USER):
        response = client.get(reverse("progress:attempt-result", args=[attempt.pk]))

    assert response.status_code == 200


def test_a_drill_question_with_feedback_stays_within_six_queries(
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

    # One of them asks whether a mock is live: then no drill page opens.
    with django_assert_max_num_queries(6 + USER):
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


# Review cards: ticked self-checks and missed questions, one query for the whole queue


def card_learner(*, questions: int, checks: int) -> tuple[object, list[QuestionCard]]:
    """A learner with a plan, ``checks`` ticks and ``questions`` missed questions, all due; the
    missed questions the longest overdue, so the Review page shows one of them."""
    user = UserFactory()
    make_plan(user, days_ago=10, exam_in=30)
    slugs = list(SelfCheck.objects.current().order_by("pk").values_list("slug", flat=True))
    tick(user, *slugs[:checks])
    make_due(user, *slugs[:checks], days_ago=1)
    cards = miss(user, *Question.objects.current().order_by("pk")[:questions])
    make_missed_due(user, *cards, days_ago=2)
    return user, cards


# (name, url, headers, pinned maximum): the learner, an overdue mock to hand in and the queue in
# three, the card on show in one more (a missed question's prompt and options); the dashboard as
# pinned above.
CARD_PAGES = [
    ("review", reverse("progress:review"), {}, 6),
    ("review-htmx", reverse("progress:review"), HTMX, 5),
    ("dashboard", reverse("progress:dashboard"), {}, 6),
    ("dashboard-htmx", reverse("progress:dashboard"), HTMX, 6),
]


@pytest.mark.parametrize(
    ("url", "headers", "most"),
    [page[1:] for page in CARD_PAGES],
    ids=[page[0] for page in CARD_PAGES],
)
def test_the_review_page_and_dashboard_cost_the_same_for_two_cards_and_for_fifty(
    client, django_assert_max_num_queries, url, headers, most
):
    few, _ = card_learner(questions=1, checks=1)
    many, _ = card_learner(questions=8, checks=42)
    # Each learner's first request: the dashboard is rendered, not read from the cache.
    client.force_login(few)
    with CaptureQueriesContext(connection) as baseline:
        assert review_count(request(client, "get", url, None, headers)) == "2"
    client.force_login(many)

    with django_assert_max_num_queries(most + USER), CaptureQueriesContext(connection) as queries:
        response = request(client, "get", url, None, headers)

    assert review_count(response) == "40"  # the daily cap
    assert len(queries) == len(baseline)


def review_count(response) -> str:
    """The header's "Review today (N)" count (an htmx answer carries it out of band)."""
    return re.search(r'id="header-review"[^>]*>Review.*?\((\d+)\)', response.text, re.S).group(1)


@pytest.mark.parametrize(
    ("headers", "most"),
    [({}, 11 + WRITE + SESSION + SUMMARY), (HTMX, 14 + WRITE + 1 + SUMMARY)],
    ids=["plain", "htmx"],
)
def test_reviewing_a_missed_question_stays_within_its_budget_however_many_cards(
    client, django_assert_max_num_queries, headers, most
):
    # The learner, the card, the live mock's questions (none may be judged here), the learner's
    # lock, the review day, its review written and the progress version moved, the summary kept;
    # plain, the
    # answer kept in the session for the page after the redirect; with htmx, the card's new
    # schedule for the verdict, then the next card: an overdue mock to hand in, the queue and
    # the missed question on show.
    def cost(user, card: QuestionCard) -> int:
        client.force_login(user)
        url = reverse("progress:review-question", args=[card.pk])
        data = {"option": shown(card, sorted(card.question.correct_options))}
        with django_assert_max_num_queries(most):
            queries = measure(client, "post", url, data, headers)
        assert QuestionCard.objects.get(pk=card.pk).reviews == 2
        return queries

    # A missed question next on both: it costs the query a self-check does not.
    few, few_cards = card_learner(questions=2, checks=1)
    many, many_cards = card_learner(questions=8, checks=42)

    assert cost(few, few_cards[0]) == cost(many, many_cards[0])


def mock_with_misses(wrong: int) -> tuple[object, Attempt]:
    user = UserFactory()
    attempt = mock_for(user)
    for item in items_of(attempt)[:wrong]:
        chosen = [wrong_option(item.question)]
        answer(user=user, attempt=attempt, item=item, chosen=chosen, now=timezone.now())
    return user, attempt


def test_handing_in_a_mock_costs_the_same_for_one_miss_and_for_twenty(client, settings):
    settings.MOCK_QUESTIONS = 30

    def cost(wrong: int) -> int:
        user, attempt = mock_with_misses(wrong)
        client.force_login(user)
        url = reverse("progress:attempt-submit", args=[attempt.pk])
        # One miss leaves most of the 30 unanswered: handed in once confirmed.
        queries = measure(client, "post", url, {"confirmed": "1"}, {})
        assert QuestionCard.objects.filter(user=user).count() == wrong
        return queries

    assert cost(20) == cost(1)


def test_a_wrong_drill_answer_makes_its_card_and_its_log_row_in_two_statements(
    learner, learner_client, django_assert_num_queries
):
    # Every learner has a profile from sign-up on (their time zone), and today's review day is
    # fixed already, as after any earlier review today.
    fix_review_day(learner, timezone.now())
    attempt = drill_for(learner)
    item = items_of(attempt)[0]
    url = answer_url(attempt, item.position)
    right = measure(
        learner_client, "post", url, {"option": shown(item, item.question.correct_options)}, {}
    )
    other = drill_for(learner, seed=2)
    item = next(i for i in items_of(other) if i.question_id != items_of(attempt)[0].question_id)

    # The same as a right answer, and four statements more: the learner's review day (their
    # profile, read locked), the missed question's card and its first row in the review log,
    # and today's review queue counted for the header (a right answer makes no card, so it
    # leaves the count as it was).
    with django_assert_num_queries(right + 4):
        request(
            learner_client,
            "post",
            answer_url(other, item.position),
            {"option": shown(item, [wrong_option(item.question)])},
            {},
        )
    assert QuestionCard.objects.filter(user=learner, question=item.question).exists()
