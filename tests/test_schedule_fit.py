"""Fitting a plan to the exam date (phases.schedule.fit_to and the hours it is given), and the
planned study sessions a week."""

import datetime
import math

import pytest

from phases.schedule import (
    fit_to,
    hours_by_weight,
    lay_out,
    phase_weights,
    session_length,
    sessions_per_week,
)
from tests.conftest import days

D = datetime.date
START = D(2026, 3, 2)

# The syllabus's six phases and their domains' exam weights.
PHASE_DOMAINS = (
    (1, (("core-ml", 20),)),
    (2, (("experimentation", 25),)),
    (3, (("multimodal-data", 15),)),
    (4, (("software-development", 15),)),
    (5, (("data-analysis", 10), ("performance-optimization", 10))),
    (6, (("trustworthy-ai", 5),)),
)
WEIGHTS = ((1, 20), (2, 25), (3, 15), (4, 15), (5, 20), (6, 5))


# Each phase's share of the exam


def test_a_phase_weighs_what_its_domains_weigh_together():
    assert phase_weights(PHASE_DOMAINS) == WEIGHTS


def test_a_domain_listed_by_two_phases_is_shared_between_them_not_counted_twice():
    weights = phase_weights(((1, (("a", 30), ("b", 10))), (2, (("b", 10), ("c", 60)))))

    assert weights == ((1, 35), (2, 65))
    assert sum(weight for _, weight in weights) == 100


# Hours by exam weight


@pytest.mark.parametrize("total", [6, 7, 10, 28, 36, 40, 101])
def test_hours_follow_exam_weight_and_add_up_to_the_total(total):
    hours = hours_by_weight(total, WEIGHTS)

    assert [number for number, _ in hours] == [1, 2, 3, 4, 5, 6]
    assert sum(h for _, h in hours) == total
    assert all(h >= 1 for _, h in hours)
    by_number = dict(hours)
    for number, weight in WEIGHTS:
        share = total * weight / 100
        if share >= 1:
            assert abs(by_number[number] - share) < 1, (number, by_number[number], share)
    # A heavier phase never gets fewer hours than a lighter one.
    for (a, wa), (b, wb) in zip(WEIGHTS, WEIGHTS[1:], strict=False):
        if wa > wb:
            assert by_number[a] >= by_number[b]
        elif wa < wb:
            assert by_number[a] <= by_number[b]


def test_the_fast_tracks_28_hours_by_exam_weight():
    # 28 × (20, 25, 15, 15, 20, 5)% = 5.6, 7, 4.2, 4.2, 5.6, 1.4: the two 0.6 remainders
    # round up.
    assert hours_by_weight(28, WEIGHTS) == ((1, 6), (2, 7), (3, 4), (4, 4), (5, 6), (6, 1))


def test_every_phase_gets_at_least_an_hour_and_the_rest_stays_in_proportion():
    # Phase 6's share of 10 h is half an hour: it gets one, and the other 9 h are shared by
    # weight among the rest (9 × 20/95 = 1.9, 9 × 25/95 = 2.4, ...).
    assert hours_by_weight(10, WEIGHTS) == ((1, 2), (2, 2), (3, 2), (4, 1), (5, 2), (6, 1))
    # One heavy phase keeps its share; the light ones get their hour and no more.
    heavy = ((1, 0.5), (2, 0.1), (3, 0.1), (4, 0.1), (5, 0.1), (6, 0.1))
    assert hours_by_weight(10, heavy) == ((1, 5), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1))


def test_too_few_hours_for_the_phases_are_refused():
    with pytest.raises(ValueError, match="at least one hour"):
        hours_by_weight(5, WEIGHTS)


# Fitting to the exam date


@pytest.mark.parametrize("total", [28, 36, 40])
@pytest.mark.parametrize("available", [6, 7, 8, 9, 20, 45, 200])
def test_a_fitted_plan_ends_the_day_before_the_exam(total, available):
    exam = START + days(available)

    fitted = fit_to(hours_by_weight(total, WEIGHTS), START, exam)

    assert fitted.start == START
    assert fitted.finish == exam - days(1)
    assert fitted.days_late(exam) == 0
    assert fitted.fitted
    assert fitted.total_hours == total
    # Back to back, a day at least each, in phase order.
    assert [slot.number for slot in fitted.slots] == [1, 2, 3, 4, 5, 6]
    for earlier, later in zip(fitted.slots, fitted.slots[1:], strict=False):
        assert later.start == earlier.end + days(1)
    assert all(slot.days >= 1 for slot in fitted.slots)


def test_a_fitted_plans_days_follow_its_hours():
    hours = hours_by_weight(36, WEIGHTS)

    # 36 days for 36 hours: each phase gets a day per hour.
    fitted = fit_to(hours, START, START + days(36))

    assert [slot.days for slot in fitted.slots] == [h for _, h in hours]


def test_a_fitted_plan_keeps_a_day_for_every_phase_after_a_long_one():
    # 95 of 100 hours in phase 1, six days: phase 1 cannot take five of them and starve the rest.
    fitted = fit_to(((1, 95), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)), START, START + days(6))

    assert [slot.days for slot in fitted.slots] == [1, 1, 1, 1, 1, 1]


@pytest.mark.parametrize(
    ("total", "available", "weekly"),
    [
        (28, 14, 14),  # two weeks: 28 / 2
        (36, 28, 9),  # four weeks: 36 / 4
        (40, 70, 4),  # ten weeks: 40 / 10
        (28, 8, 25),  # 28 / (8/7) = 24.5, rounded up
        (36, 10, 26),  # 36 / (10/7) = 25.2, rounded up
    ],
)
def test_weekly_hours_are_the_total_over_the_weeks_available(total, available, weekly):
    fitted = fit_to(hours_by_weight(total, WEIGHTS), START, START + days(available))

    assert fitted.hours_per_week == weekly == math.ceil(total / (available / 7))
    assert fitted.weeks == round(available / 7, 1)


@pytest.mark.parametrize("exam", [START, START - days(1), START - days(30)])
def test_fitting_refuses_an_exam_on_or_before_the_start(exam):
    with pytest.raises(ValueError, match="after the start"):
        fit_to(hours_by_weight(28, WEIGHTS), START, exam)


def test_fitting_refuses_fewer_days_than_phases():
    with pytest.raises(ValueError, match="every phase needs a day"):
        fit_to(hours_by_weight(28, WEIGHTS), START, START + days(5))


def test_an_intensitys_own_calendar_is_not_fitted():
    assert not lay_out(hours_by_weight(36, WEIGHTS), 8, START).fitted


# Planned sessions a week


@pytest.mark.parametrize(
    ("hours_per_week", "sessions"),
    [
        (20, 6),  # fast track: weekdays and a weekend day
        (8, 4),  # standard
        (4, 3),  # extended: 2 sessions of 2 h, raised to the minimum of 3
        (1, 3),
        (9, 5),  # 4.5 sessions, rounded up
        (42, 6),  # a heavy fitted plan still leaves a day free
    ],
)
def test_planned_sessions_follow_weekly_hours_in_two_hour_sessions(hours_per_week, sessions):
    assert sessions_per_week(hours_per_week) == sessions


@pytest.mark.parametrize(
    "hours_per_week, length",
    [
        (20, "3½ hours"),
        (8, "2 hours"),
        (4, "1½ hours"),
        (1, "½ hour"),
        (2, "½ hour"),
        (42, "7 hours"),
    ],
)
def test_each_planned_session_is_the_weekly_hours_over_the_sessions(hours_per_week, length):
    # A 20 h week is not "6 sessions of about 2 hours": its 6 sessions are 3½ hours each.
    assert session_length(hours_per_week) == length
