"""Recall on exam day over the weeks (progress.dashboard.trend), from fixed review sequences."""

import datetime

import pytest
from django.utils import timezone
from fsrs import Rating

from phases.models import SelfCheck
from progress import charts as chart
from progress.dashboard.trend import (
    WEEKS,
    LoggedReview,
    recall_line,
    recall_trend,
    week_ends,
    weekly_recall,
)
from progress.memory import scheduling as memory
from progress.memory.review_log import logged_reviews
from progress.memory.scheduling import Memory
from progress.memory.ticks import set_done
from progress.timezones import start_of_day
from progress.verdicts.figures import learner_state
from tests.factories import review_revealed

UTC = datetime.UTC
EXAM_DAY = datetime.date(2026, 3, 30)
FSRS = memory.scheduler(0.9, fuzz=False)


def on(day: int) -> datetime.date:
    return datetime.date(2026, 3, day)


def at(day: int) -> datetime.datetime:
    return datetime.datetime(2026, 3, day, 12, tzinfo=UTC)


def recall_on_exam_day(card: Memory) -> float:
    return memory.recall(card, EXAM_DAY, FSRS)


def test_week_ends_are_each_sunday_from_the_first_week_then_today():
    # 4 March 2026 is a Wednesday: its week ends on Sunday 8 March.
    assert week_ends(datetime.date(2026, 3, 4), datetime.date(2026, 3, 19)) == [
        datetime.date(2026, 3, 8),
        datetime.date(2026, 3, 15),
        datetime.date(2026, 3, 19),
    ]
    assert week_ends(datetime.date(2026, 3, 19), datetime.date(2026, 3, 19)) == [
        datetime.date(2026, 3, 19)
    ]
    many = week_ends(datetime.date(2025, 1, 1), datetime.date(2026, 3, 19), weeks=12)
    assert len(many) == 12 and many[-1] == datetime.date(2026, 3, 19)


def test_a_logged_review_s_memory_is_the_card_as_that_review_left_it_on_its_day():
    logged = LoggedReview(1, at(10), on(11), 2, 20.0, 5.0)

    assert logged.memory == Memory(2, 20.0, 5.0, at(10), at(10), on(11))
    assert memory.reviewed_on(logged.memory) == on(11)
    # A row logged before days were kept: its UTC date.
    assert memory.reviewed_on(LoggedReview(1, at(10), None, 2, 20.0, 5.0).memory) == on(10)


def test_each_week_reads_the_latest_review_of_each_check_before_its_end():
    # Check 1 (domain a) ticked on 2 March, reviewed on 10 March with a longer stability;
    # check 2 (domain b) ticked on 11 March. Domain a has 2 checks, b has 1; weights 60 and 40.
    first = LoggedReview(1, at(2), on(2), 2, 3.0, 5.0)
    second = LoggedReview(1, at(10), on(10), 2, 20.0, 5.0)
    other = LoggedReview(2, at(11), on(11), 2, 3.0, 5.0)
    ends = [at(8), at(15)]

    figures = weekly_recall(
        [other, second, first],  # any order in
        ends=ends,
        check_domain={1: "a", 2: "b"},
        domains=[("a", 60, 2), ("b", 40, 1)],
        recall_of=recall_on_exam_day,
    )

    week_one = 60 * recall_on_exam_day(Memory(2, 3.0, 5.0, at(2), at(2), on(2))) / 2 / 100
    week_two = (
        60 * recall_on_exam_day(Memory(2, 20.0, 5.0, at(10), at(10), on(10))) / 2
        + 40 * recall_on_exam_day(Memory(2, 3.0, 5.0, at(11), at(11), on(11)))
    ) / 100
    assert figures == pytest.approx([week_one, week_two])
    assert 0 < figures[0] < figures[1]


def test_a_review_at_a_week_s_end_counts_for_it_and_one_just_after_does_not():
    end = at(8)
    on_time = LoggedReview(1, end, on(8), 2, 3.0, 5.0)
    just_after = LoggedReview(2, end + datetime.timedelta(microseconds=1), on(8), 2, 3.0, 5.0)

    figures = weekly_recall(
        [on_time, just_after],
        ends=[end],
        check_domain={1: "a", 2: "b"},
        domains=[("a", 50, 1), ("b", 50, 1)],
        recall_of=recall_on_exam_day,
    )

    assert figures == pytest.approx([50 * recall_on_exam_day(on_time.memory) / 100])


def test_recall_of_is_handed_the_review_s_memory_with_the_learner_s_day():
    # 11:30 UTC on 8 March is 00:30 on 9 March in Auckland: the learner's day is the 9th.
    logged = LoggedReview(1, datetime.datetime(2026, 3, 8, 11, 30, tzinfo=UTC), on(9), 2, 3.0, 5.0)
    handed: list[Memory] = []

    def recording(card: Memory) -> float:
        handed.append(card)
        return recall_on_exam_day(card)

    figures = weekly_recall(
        [logged], ends=[at(8)], check_domain={1: "a"}, domains=[("a", 100, 1)], recall_of=recording
    )

    assert handed == [logged.memory]
    assert handed[0].last_review_day == on(9)
    assert figures == pytest.approx([recall_on_exam_day(logged.memory)])
    # A day later than the UTC date: exam day is a day nearer, recall on it higher.
    utc_dated = LoggedReview(1, logged.at, None, 2, 3.0, 5.0).memory
    assert figures[0] > recall_on_exam_day(utc_dated)


def test_a_check_that_does_not_count_and_a_review_without_memory_add_nothing():
    figures = weekly_recall(
        [
            LoggedReview(1, at(2), on(2), None, None, None),
            LoggedReview(9, at(2), on(2), 2, 50.0, 5.0),
        ],
        ends=[at(8)],
        check_domain={1: "a"},
        domains=[("a", 100, 1)],
        recall_of=recall_on_exam_day,
    )
    assert figures == [0.0]


def test_the_trend_chart_needs_two_weeks_and_draws_the_bar():
    assert chart.trend([(datetime.date(2026, 3, 8), 40)], bar=80) is None
    drawn = chart.trend([(datetime.date(2026, 3, 8), 40), (datetime.date(2026, 3, 15), 60)], bar=80)
    assert drawn is not None
    assert [label for _, _, label, _ in drawn.points] == ["8 Mar", "15 Mar"]
    assert 80 in [percent for _, percent in drawn.gridlines]
    # Higher recall is drawn higher (a smaller y).
    assert drawn.points[1][1] < drawn.points[0][1]


@pytest.mark.django_db
def test_a_long_history_reads_only_the_line_s_weeks_and_draws_the_same_line(learner):
    now = timezone.now()
    begun = now - datetime.timedelta(weeks=40)
    learner.date_joined = begun  # a learner of 40 weeks: reviews from before the line's weeks
    learner.save(update_fields=["date_joined"])
    checks = list(SelfCheck.objects.current().order_by("pk").values_list("pk", flat=True)[:3])
    for check in checks:
        set_done(user=learner, self_check_id=check, done=True, now=begun)
    for n in range(1, 27):  # every ten days, each check in turn, the newest some days ago
        when = begun + datetime.timedelta(days=10 * n, hours=n % 5)
        rating = (Rating.Good, Rating.Hard, Rating.Again)[n % 3]
        review_revealed(learner, self_check_id=checks[n % 3], rating=rating, now=when)
    state = learner_state(learner, today=timezone.localdate())

    line = recall_trend(state)

    everything = logged_reviews(learner, checks)
    first_monday = state.today - datetime.timedelta(days=state.today.weekday(), weeks=WEEKS - 1)
    bounded = logged_reviews(learner, checks, since=start_of_day(first_monday))
    # Each check's latest review before the weeks, then every one in them.
    assert len(bounded) < len(everything) == 3 + 26
    assert bounded == sorted(
        [
            *{
                review.check_id: review
                for review in everything
                if review.at < start_of_day(first_monday)
            }.values(),
            *[review for review in everything if review.at >= start_of_day(first_monday)],
        ],
        key=lambda review: review.at,
    )
    assert len(line) == WEEKS
    assert line == recall_line(state, everything, state.today)
