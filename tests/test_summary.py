"""The learner's summary (progress.summary): whatever a learner does, in whatever order and time
zone, the summary the writes kept is the one their rows make from scratch; one missing or made
for another zone or syllabus version is served right and built again."""

import contextlib
import datetime
import random

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings
from django.utils import timezone
from fsrs import Rating
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from phases.content import content_changed
from phases.models import ContentVersion, Domain, Intensity, Phase, Question, SelfCheck
from progress import charts as chart
from progress.auth import learner_queryset
from progress.memory.queue import review_queue
from progress.memory.review_days import current_review_day
from progress.memory.reviews import ReviewRefused, review_question
from progress.memory.ticks import Outcome, set_done
from progress.models import Attempt, CheckOff, LearnerSummary, QuestionCard, StudySession
from progress.planning.services import save_plan
from progress.practice import services as practice
from progress.study_time import services as study_time
from progress.summary.keep import build, due_count, minutes_of, summary_of
from tests.factories import (
    AttemptFactory,
    AttemptQuestionFactory,
    UserFactory,
    practise,
    review_revealed,
    settle_revealed,
)
from tests.html import header_review, without_csrf

pytestmark = pytest.mark.django_db

ZONES = ("UTC", "Pacific/Auckland", "America/Los_Angeles", "Asia/Kolkata")
CHECKS = 3  # a few self-checks, so ticks, unticks and reviews meet the same cards
DOMAINS = ("core-ml", "multimodal-data")

# A study session's domain, its day (days ago) and its minutes, typed in or corrected.
SESSION = (st.sampled_from(DOMAINS), st.integers(0, 100), st.integers(1, 300))

step = st.one_of(
    st.tuples(st.just("tick"), st.integers(0, CHECKS - 1), st.sampled_from(["", "shaky"])),
    st.tuples(st.just("untick"), st.integers(0, CHECKS - 1)),
    st.tuples(st.just("settle"), st.integers(0, CHECKS - 1), st.sampled_from(list(Outcome))),
    st.tuples(st.just("review"), st.integers(0, CHECKS - 1), st.sampled_from(list(Rating))),
    st.tuples(st.just("review a miss"), st.sampled_from(list(Rating))),
    st.tuples(st.just("drill"), st.sampled_from(DOMAINS), st.lists(st.booleans(), max_size=4)),
    st.tuples(st.just("mock"), st.lists(st.booleans(), max_size=5)),
    st.tuples(st.just("hand in")),
    st.tuples(st.just("wait"), st.integers(1, 24 * 40)),  # hours
    st.tuples(st.just("move"), st.sampled_from(ZONES)),
    st.tuples(st.just("plan"), st.one_of(st.none(), st.integers(1, 60))),  # days to the exam
    # Study time: typed in (a phase, a domain, days ago, minutes), corrected, deleted, timed.
    st.tuples(st.just("study"), st.integers(0, 1), *SESSION),  # a phase
    st.tuples(st.just("correct time"), st.integers(0, 3), *SESSION),  # one of the sessions
    st.tuples(st.just("delete time"), st.integers(0, 3)),
    st.tuples(st.just("start timer"), st.integers(0, 1)),
    st.tuples(st.just("stop timer"), st.sampled_from(DOMAINS)),
)


def as_kept(summary: LearnerSummary, today: datetime.date) -> tuple:
    """What a page reads of a summary: the calendar's days up to today, each domain's window,
    the minutes studied by phase and domain and those of the calendar's days on."""
    first = chart.activity_start(today)
    days = {
        day: counts
        for day, counts in summary.days.items()
        if first <= datetime.date.fromisoformat(day) <= today
    }
    totals, by_day = minutes_of(summary)
    minutes = {day: total for day, total in by_day.items() if day >= first}
    return summary.zone, days, summary.window, +totals, minutes


def answer(user, attempt: Attempt, right: bool, now: datetime.datetime) -> None:
    item = attempt.questions.filter(answered_at__isnull=True).select_related("question").first()
    if item is None:
        return
    keys = list(item.question.correct_options)
    wrong = [i for i in range(len(item.question.options)) if i not in keys][: len(keys)]
    practice.answer(user=user, attempt=attempt, item=item, chosen=keys if right else wrong, now=now)


def play(user, steps, start: datetime.datetime) -> tuple[datetime.datetime, str]:
    """The steps through the app's own services; the moment and the zone they end in."""
    checks = list(SelfCheck.objects.current().order_by("pk").values_list("pk", flat=True))[:CHECKS]
    phases = list(Phase.objects.order_by("number").values_list("slug", flat=True))[:2]
    rng = random.Random(7)
    now = start
    zone = "UTC"
    for action, *args in steps:
        now += datetime.timedelta(minutes=7)
        with timezone.override(zone):
            if action == "tick":
                set_done(user=user, self_check_id=checks[args[0]], done=True, now=now)
            elif action == "untick":
                set_done(user=user, self_check_id=checks[args[0]], done=False, now=now)
            elif action == "settle":
                settle_revealed(user, self_check_id=checks[args[0]], outcome=args[1], now=now)
            elif action == "review":
                with contextlib.suppress(ReviewRefused):
                    review_revealed(user, self_check_id=checks[args[0]], rating=args[1], now=now)
            elif action == "review a miss":
                card = QuestionCard.objects.filter(user=user).in_queue().first()
                if card is not None:
                    with contextlib.suppress(ReviewRefused):
                        review_question(user=user, card_id=card.pk, rating=args[0], now=now)
            elif action == "drill":
                try:
                    drill = practice.start_drill(
                        user=user, domain=Domain.objects.get(slug=args[0]), now=now, rng=rng
                    )
                except practice.MockIsOpen:
                    continue
                for right in args[1]:
                    answer(user, drill, right, now)
            elif action == "mock":
                mock = practice.start_mock(user=user, now=now, rng=rng)
                for right in args[0]:
                    answer(user, mock, right, now)
            elif action == "hand in":
                mock = Attempt.objects.filter(user=user).unsubmitted_mocks().first()
                if mock is not None and not practice.close_if_over(
                    user=user, attempt=mock, now=now
                ):
                    practice.submit(user=user, attempt=mock, now=now)
            elif action == "wait":
                now += datetime.timedelta(hours=args[0])
            elif action == "move":
                zone = args[0]
            elif action == "study":
                phase, domain, days_ago, minutes = args
                day = timezone.localdate(now) - datetime.timedelta(days=days_ago)
                with contextlib.suppress(study_time.DayIsFull):
                    study_time.record_session(
                        user=user,
                        phase_slug=phases[phase],
                        domain_slug=domain,
                        day=day,
                        minutes=minutes,
                    )
            elif action in ("correct time", "delete time"):
                sessions = list(StudySession.objects.for_user(user).recorded().order_by("pk"))
                if sessions:
                    session = sessions[args[0] % len(sessions)]
                    if action == "delete time":
                        study_time.delete_session(user=user, session_id=session.pk)
                    else:
                        _, domain, days_ago, minutes = args
                        day = timezone.localdate(now) - datetime.timedelta(days=days_ago)
                        with contextlib.suppress(study_time.DayIsFull):
                            study_time.correct_session(
                                user=user,
                                session_id=session.pk,
                                domain_slug=domain,
                                day=day,
                                minutes=minutes,
                            )
            elif action == "start timer":
                study_time.start_timer(user=user, phase_slug=phases[args[0]], now=now)
            elif action == "stop timer":
                with contextlib.suppress(study_time.DayIsFull, study_time.TooShort):
                    study_time.stop_timer(user=user, domain_slug=args[0], now=now)
            elif action == "plan":
                today = timezone.localdate(now)
                save_plan(
                    user=user,
                    intensity=Intensity.objects.get(slug="standard"),
                    start_date=today,
                    exam_date=today + datetime.timedelta(days=args[0]) if args[0] else None,
                    today=today,
                    now=now,
                )
    return now, zone


@override_settings(ACCURACY_WINDOW=3, MOCK_QUESTIONS=6, MOCK_MINUTES=30)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, max_size=16))
# The shapes a random run may take long to meet, always tried first.
@example(steps=[("tick", 0, ""), ("wait", 30), ("review", 0, Rating.Good)])
@example(steps=[("tick", 0, ""), ("wait", 30), ("untick", 0), ("tick", 0, "shaky")])
@example(steps=[("tick", 0, ""), ("wait", 30), ("settle", 1, Outcome.NOT_YET)])
@example(steps=[("settle", 0, Outcome.NOT_YET), ("wait", 30), ("settle", 0, Outcome.GOT_IT)])
@example(steps=[("drill", "core-ml", [False]), ("wait", 30), ("review a miss", Rating.Good)])
@example(steps=[("mock", [True, False]), ("wait", 2), ("hand in",)])
@example(steps=[("mock", [True]), ("hand in",), ("drill", "core-ml", [True, True, False])])
# A mock run out while the learner was away is handed in as of its deadline; the header counts
# today's queue as of now (found by this test: near midnight, in another zone).
@example(
    steps=[("tick", 0, ""), ("wait", 20), ("mock", [False]), ("wait", 30), ("move", "Asia/Kolkata")]
)
@example(steps=[("tick", 0, ""), ("move", "Pacific/Auckland"), ("tick", 1, "")])
# Study time typed in, corrected to another domain and day, timed, and deleted.
@example(
    steps=[
        ("study", 0, "core-ml", 0, 30),
        ("study", 1, "multimodal-data", 90, 45),
        ("correct time", 0, "multimodal-data", 3, 60),
        ("start timer", 1),
        ("wait", 1),
        ("stop timer", "core-ml"),
        ("delete time", 1),
    ]
)
@example(steps=[("tick", 0, ""), ("wait", 24 * 100), ("tick", 1, "")])
@example(
    steps=[("tick", 0, ""), ("tick", 1, ""), ("wait", 60), ("plan", 3), ("review", 0, Rating.Good)]
)
def test_the_kept_summary_is_the_one_the_rows_make(syllabus, steps):
    start = timezone.now().replace(microsecond=0)
    with transaction.atomic():
        user = UserFactory()
        now, zone = play(user, steps, start)
        with timezone.override(zone):
            # Every page that reads answers closes a mock whose time ran out first.
            practice.close_overdue_mock(user=user, now=now)
            today = timezone.localdate(now)
            fresh = build(user, now=now)
            stored = LearnerSummary.objects.filter(user=user).first()
            if stored is not None and stored.zone == zone:
                # Kept by the writes, never rebuilt since: exactly what the rows make.
                assert as_kept(stored, today) == as_kept(fresh, today)
            served = summary_of(get_user_model().objects.get(pk=user.pk), now=now)
            assert as_kept(served, today) == as_kept(fresh, today)
            assert as_kept(LearnerSummary.objects.get(user=user), today) == as_kept(fresh, today)
            # The header's count: as the last write kept it, on its review day.
            request_user = learner_queryset().get(pk=user.pk)
            day = current_review_day(request_user, now)
            queue = len(review_queue(request_user, day=day))
            kept = LearnerSummary.objects.get(user=user)
            if kept.due_day == day.day:
                assert kept.due_count == queue
            assert due_count(request_user, now=now) == queue
            # Counted for a day no write kept yet, and kept for the day's other pages.
            kept = LearnerSummary.objects.get(user=user)
            assert (kept.due_day, kept.due_count) == (day.day, queue)
        transaction.set_rollback(True)


def page(client) -> str:
    response = client.get("/dashboard/")
    assert response.status_code == 200
    return without_csrf(response.content)  # masked afresh for each response


def test_a_missing_summary_is_served_from_the_rows_and_built(learner_client, learner):
    checks = SelfCheck.objects.current()
    set_done(user=learner, self_check_id=checks[0].pk, done=True)
    practise(learner, "core-ml", right=2, wrong=1)
    kept = page(learner_client)
    LearnerSummary.objects.filter(user=learner).delete()

    assert page(learner_client) == kept
    summary = LearnerSummary.objects.get(user=learner)
    assert sum(day["ticks"] for day in summary.days.values()) == 1
    assert sum(day["answers"] for day in summary.days.values()) == 3


def test_a_summary_from_another_zone_or_content_version_is_built_again(learner):
    set_done(user=learner, self_check_id=SelfCheck.objects.current().first().pk, done=True)
    now = timezone.now()
    with timezone.override("Pacific/Auckland"):
        served = summary_of(get_user_model().objects.get(pk=learner.pk), now=now)
        assert served.zone == "Pacific/Auckland"
        assert LearnerSummary.objects.get(user=learner).zone == "Pacific/Auckland"
    ContentVersion.objects.filter(pk=1).update(number=ContentVersion.objects.get(pk=1).number + 1)
    content_changed()
    newer = ContentVersion.objects.get(pk=1).number
    with timezone.override("Pacific/Auckland"):
        served = summary_of(get_user_model().objects.get(pk=learner.pk), now=now)
    assert served.content_version == newer
    assert LearnerSummary.objects.get(user=learner).content_version == newer


def test_a_summary_made_before_minutes_were_kept_shows_the_minutes_and_keeps_them(
    learner_client, learner
):
    study_time.record_session(
        user=learner,
        phase_slug="core-ml-foundations",
        domain_slug="core-ml",
        day=timezone.localdate(),
        minutes=50,
    )
    LearnerSummary.objects.filter(user=learner).update(minutes=None)

    page = learner_client.get("/dashboard/")

    assert page.status_code == 200
    assert "50 min" in page.content.decode()
    kept = LearnerSummary.objects.get(user=learner)
    assert kept.minutes["totals"] == [[1, "core-ml", 50]]


def test_a_question_missed_again_leaves_today_s_queue_and_the_header_counts_it_out(
    learner_client, learner
):
    # A right drill answer makes no card and leaves the header's count as it was; a miss of a
    # question whose card is due today starts that card again, reviewed today: out of the queue.
    question = Question.objects.current().filter(domain__slug="core-ml", stretch=False).first()
    earlier = timezone.now() - datetime.timedelta(days=3)
    missed = AttemptFactory(user=learner, drill=True, started_at=earlier)
    wrong = AttemptQuestionFactory(attempt=missed, question=question)
    answer(learner, missed, False, earlier)
    assert header_review(learner_client.get("/practice/")) == "Review today (1)"

    again = AttemptFactory(user=learner, drill=True)
    AttemptQuestionFactory(attempt=again, question=question)
    answer(learner, again, False, timezone.now())

    assert (
        QuestionCard.objects.get(user=learner, question=question).missed_at
        > wrong.attempt.started_at
    )
    assert header_review(learner_client.get("/practice/")) == "Review today (0)"


def test_the_first_page_of_a_day_with_no_write_counts_the_queue_and_keeps_it(
    learner_client, learner
):
    check = SelfCheck.objects.current().first()
    set_done(user=learner, self_check_id=check.pk, done=True)
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    # As yesterday's last write left it: nothing due then; the card is due since this morning.
    LearnerSummary.objects.filter(user=learner).update(due_day=yesterday, due_count=0)
    CheckOff.objects.filter(user=learner).update(
        due=timezone.now() - datetime.timedelta(hours=1),
        last_review=timezone.now() - datetime.timedelta(days=3),
        last_review_day=timezone.localdate() - datetime.timedelta(days=3),
    )

    practice_page = learner_client.get("/practice/")
    assert practice_page.status_code == 200
    assert header_review(practice_page) == "Review today (1)"
    kept = LearnerSummary.objects.get(user=learner)
    assert (kept.due_day, kept.due_count) == (timezone.localdate(), 1)
    dashboard = learner_client.get("/dashboard/")
    assert dashboard.status_code == 200
    assert header_review(dashboard) == "Review today (1)"
