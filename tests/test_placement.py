"""The placement's rules and the calendars it shapes, pure: strong domains shorten their phases
(phases.schedule.shorten), and a short-notice plan puts the most marks at stake first
(phases.short_notice)."""

import datetime

import pytest

from phases.schedule import MIN_TOTAL_HOURS, MOCK_HOURS, fit_to, lay_out, shorten
from phases.short_notice import SHORT_NOTICE_HOURS_PER_DAY, day_by_day, phase_priorities
from progress.planning import placement
from tests.conftest import days

D = datetime.date
START = D(2026, 3, 2)
STANDARD = ((1, 6), (2, 9), (3, 6), (4, 5), (5, 6), (6, 2))
PHASE_DOMAINS = [
    (1, [("core-ml", 20)]),
    (2, [("experimentation", 25)]),
    (3, [("multimodal-data", 15)]),
    (4, [("software-development", 15)]),
    (5, [("data-analysis", 10), ("performance-optimization", 10)]),
    (6, [("trustworthy-ai", 5)]),
]


# The revision stretch


def test_after_phase_6_come_revision_days_then_the_mock_on_a_day_of_its_own():
    schedule = lay_out(STANDARD, 8, START, revision_hours=3)

    revision = schedule.revision
    assert revision.start == schedule.slots[-1].end + days(1)
    assert revision.revision_days >= 1
    assert revision.mock_day == revision.last_revision_day + days(1) == schedule.finish
    assert schedule.total_hours == 34 + 3 + MOCK_HOURS


def test_the_mock_is_the_guides_one_full_length_paper():
    # "60 questions in 60 minutes": one hour, once.
    assert MOCK_HOURS == 1


def test_a_fitted_plan_keeps_its_revision_and_sits_the_mock_the_day_before_the_exam():
    exam = START + days(12)

    fitted = fit_to(STANDARD, START, exam, revision_hours=3)

    assert fitted.revision.mock_day == exam - days(1)
    assert fitted.revision.revision_days >= 1
    assert fitted.slots[-1].end < fitted.revision.start
    assert fitted.fits(exam)


def test_a_fit_needs_a_day_for_each_phase_the_revision_and_the_mock():
    fit_to(STANDARD, START, START + days(8), revision_hours=3)
    with pytest.raises(ValueError, match="fewer days"):
        fit_to(STANDARD, START, START + days(7), revision_hours=3)


# Shortening strong domains


def test_a_strong_domain_takes_half_its_share_off_its_phase():
    hours, saved = shorten(STANDARD, {1: 1.0, 5: 0.5}, other_hours=4)

    assert dict(hours)[1] == 3  # 6 h, all strong: half
    assert dict(hours)[5] == 5  # 6 h, half strong: a quarter, 1.5 h, rounded down
    assert saved == ((1, 3), (5, 1))
    assert dict(hours)[2] == 9


def test_shortening_never_takes_the_plan_under_the_guides_25_hours():
    every = dict.fromkeys(range(1, 7), 1.0)

    hours, saved = shorten(STANDARD, every, other_hours=4)

    assert sum(h for _, h in hours) + 4 == MIN_TOTAL_HOURS == 25
    assert sum(s for _, s in saved) == 34 + 4 - 25


def test_no_strong_domain_leaves_every_phase_its_hours():
    assert shorten(STANDARD, {}, other_hours=4) == (STANDARD, ())


# The placement's rule


@pytest.mark.parametrize(
    ("right", "asked", "strong"),
    [(3, 3, True), (2, 2, True), (4, 4, True), (1, 1, False), (2, 3, False), (0, 2, False)],
)
def test_a_domain_is_strong_when_every_placement_question_in_it_was_right_from_two(
    right, asked, strong
):
    assert placement.is_strong(right, asked) is strong


def test_scores_count_an_unanswered_question_as_asked_and_wrong():
    assert placement.scores([("core-ml", True), ("core-ml", None), ("experimentation", False)]) == {
        "core-ml": [1, 2],
        "experimentation": [0, 1],
    }


def test_the_placement_is_fifteen_questions_in_fifteen_minutes():
    assert (placement.QUESTIONS, placement.MINUTES) == (15, 15)


# Short notice, day by day


def test_short_notice_puts_the_heaviest_domains_the_placement_found_weakest_first():
    missed = placement.missed_share(
        {"core-ml": [3, 3], "experimentation": [1, 4], "multimodal-data": [0, 2]}
    )

    order = [number for number, _ in phase_priorities(PHASE_DOMAINS, missed)]

    # Experimentation 25 x 3/4 = 18.75, phase 5's unplaced 20, software 15, multimodal 15 x 1,
    # trustworthy 5, core ML (all right) 0.
    assert order == [5, 2, 3, 4, 6, 1]


def test_without_a_placement_short_notice_goes_by_exam_weight():
    order = [number for number, _ in phase_priorities(PHASE_DOMAINS, {})]

    assert order == [2, 1, 5, 3, 4, 6]


def test_two_days_left_make_a_two_day_plan_that_ends_the_day_before_the_exam():
    exam = START + days(2)
    priorities = phase_priorities(PHASE_DOMAINS, {})

    plan = day_by_day(priorities, START, exam)

    assert plan.day_by_day
    assert [slot.number for slot in plan.slots] == [2, 1, 5, 3, 4, 6]
    assert plan.start == START
    assert plan.finish == exam - days(1)
    assert plan.fits(exam)
    assert plan.total_hours == 2 * SHORT_NOTICE_HOURS_PER_DAY
    assert {slot.start for slot in plan.slots} == {START, START + days(1)}
    assert plan.revision is None


def test_one_day_left_holds_as_many_phases_as_it_has_hours():
    plan = day_by_day(phase_priorities(PHASE_DOMAINS, {}), START, START + days(1))

    assert [slot.number for slot in plan.slots] == [2, 1, 5]
    assert all(slot.start == slot.end == START for slot in plan.slots)


def test_a_week_left_shares_the_hours_by_marks_at_stake():
    plan = day_by_day(phase_priorities(PHASE_DOMAINS, {}), START, START + days(7))

    hours = {slot.number: slot.hours for slot in plan.slots}
    assert sum(hours.values()) == 21
    assert hours[2] == max(hours.values())
    assert hours[6] == min(hours.values())
    assert plan.finish == START + days(6)


def test_no_day_left_is_refused():
    with pytest.raises(ValueError):
        day_by_day(phase_priorities(PHASE_DOMAINS, {}), START, START)
