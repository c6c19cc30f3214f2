"""Recall on exam day over the weeks (progress.trend), from fixed review sequences."""

import datetime

import pytest

from progress import chart, memory
from progress.memory import Memory
from progress.trend import LoggedReview, week_ends, weekly_recall

UTC = datetime.UTC
EXAM = datetime.datetime(2026, 3, 30, tzinfo=UTC)
FSRS = memory.scheduler(0.9, fuzz=False)


def at(day: int) -> datetime.datetime:
    return datetime.datetime(2026, 3, day, 12, tzinfo=UTC)


def recall_on_exam_day(card: Memory) -> float:
    return memory.recall(card, EXAM, FSRS)


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


def test_each_week_reads_the_latest_review_of_each_check_before_its_end():
    # Check 1 (domain a) ticked on 2 March, reviewed on 10 March with a longer stability;
    # check 2 (domain b) ticked on 11 March. Domain a has 2 checks, b has 1; weights 60 and 40.
    first = LoggedReview(1, at(2), 2, 3.0, 5.0)
    second = LoggedReview(1, at(10), 2, 20.0, 5.0)
    other = LoggedReview(2, at(11), 2, 3.0, 5.0)
    ends = [at(8), at(15)]

    figures = weekly_recall(
        [other, second, first],  # any order in
        ends=ends,
        check_domain={1: "a", 2: "b"},
        domains=[("a", 60, 2), ("b", 40, 1)],
        recall_of=recall_on_exam_day,
    )

    week_one = 60 * recall_on_exam_day(Memory(2, 3.0, 5.0, at(2), at(2))) / 2 / 100
    week_two = (
        60 * recall_on_exam_day(Memory(2, 20.0, 5.0, at(10), at(10))) / 2
        + 40 * recall_on_exam_day(Memory(2, 3.0, 5.0, at(11), at(11)))
    ) / 100
    assert figures == pytest.approx([week_one, week_two])
    assert figures[0] < figures[1]


def test_a_check_that_does_not_count_and_a_review_without_memory_add_nothing():
    figures = weekly_recall(
        [LoggedReview(1, at(2), 2, None, None), LoggedReview(9, at(2), 2, 50.0, 5.0)],
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
