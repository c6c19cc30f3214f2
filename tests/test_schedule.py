import datetime

import pytest

from phases.schedule import IntensityOption, fitting_intensity, lay_out

D = datetime.date

# The standard calendar: 8 h a week, phase hours following exam weight.
STANDARD_HOURS = ((1, 7), (2, 9), (3, 6), (4, 5), (5, 7), (6, 2))
START = D(2026, 3, 2)


@pytest.fixture
def standard():
    return lay_out(STANDARD_HOURS, 8, START)


def test_phase_boundaries_come_from_cumulative_hours(standard):
    # Cumulative hours 7, 16, 22, 27, 34, 36 at 8 h/week end after
    # ceil(h * 7 / 8) = 7, 14, 20, 24, 30, 32 days.
    assert [(slot.number, slot.start, slot.end) for slot in standard.slots] == [
        (1, D(2026, 3, 2), D(2026, 3, 8)),
        (2, D(2026, 3, 9), D(2026, 3, 15)),
        (3, D(2026, 3, 16), D(2026, 3, 21)),
        (4, D(2026, 3, 22), D(2026, 3, 25)),
        (5, D(2026, 3, 26), D(2026, 3, 31)),
        (6, D(2026, 4, 1), D(2026, 4, 2)),
    ]
    assert [slot.days for slot in standard.slots] == [7, 7, 6, 4, 6, 2]


def test_phases_run_back_to_back_without_gap_or_overlap(standard):
    slots = standard.slots
    assert slots[0].start == START
    for earlier, later in zip(slots, slots[1:], strict=False):
        assert later.start == earlier.end + datetime.timedelta(days=1)
    assert sum(slot.days for slot in slots) == (standard.finish - standard.start).days + 1


def test_rounding_does_not_accumulate_across_phases():
    # Six 1-hour phases at 6 h/week: rounding each phase alone (ceil(7/6) = 2 days) would give
    # 12 days; cumulative hours give exactly ceil(6 * 7 / 6) = 7.
    schedule = lay_out([(n, 1) for n in range(1, 7)], 6, START)
    assert schedule.finish == D(2026, 3, 8)
    assert [slot.days for slot in schedule.slots] == [2, 1, 1, 1, 1, 1]


def test_the_calendar_adds_up_the_phase_hours_and_ends_on_the_last_phase_s_last_day(standard):
    assert standard.total_hours == 36
    assert standard.start == START
    assert standard.finish == standard.slots[-1].end == D(2026, 4, 2)


def test_one_hour_phase_at_a_fast_pace_still_gets_a_day():
    # At 21 h/week, 1 and 2 cumulative hours both round to one day; the second phase must not
    # collapse to nothing.
    schedule = lay_out([(1, 1), (2, 1), (3, 1)], 21, START)
    assert [(slot.start, slot.end) for slot in schedule.slots] == [
        (D(2026, 3, 2), D(2026, 3, 2)),
        (D(2026, 3, 3), D(2026, 3, 3)),
        (D(2026, 3, 4), D(2026, 3, 4)),
    ]
    assert all(slot.days == 1 for slot in schedule.slots)


def test_share_due_is_zero_before_the_phase_starts(standard):
    phase_two = standard.slots[1]
    assert phase_two.share_due(D(2026, 3, 1)) == 0.0
    assert phase_two.share_due(D(2026, 3, 8)) == 0.0


def test_share_due_is_zero_on_the_first_day(standard):
    assert standard.slots[1].share_due(D(2026, 3, 9)) == 0.0


def test_share_due_mid_phase_counts_whole_days_elapsed(standard):
    phase_two = standard.slots[1]  # 9 to 15 March, 7 days
    assert phase_two.share_due(D(2026, 3, 12)) == pytest.approx(3 / 7)
    assert phase_two.share_due(D(2026, 3, 15)) == pytest.approx(6 / 7)


def test_share_due_is_one_after_the_phase_ends(standard):
    phase_two = standard.slots[1]
    assert phase_two.share_due(D(2026, 3, 16)) == 1.0
    assert phase_two.share_due(D(2027, 1, 1)) == 1.0


def test_schedule_share_due_maps_every_phase(standard):
    assert standard.share_due(D(2026, 3, 12)) == pytest.approx(
        {1: 1.0, 2: 3 / 7, 3: 0.0, 4: 0.0, 5: 0.0, 6: 0.0}
    )
    assert standard.share_due(D(2026, 4, 3)) == dict.fromkeys(range(1, 7), 1.0)


def test_current_phase_is_the_one_containing_today(standard):
    assert standard.current(D(2026, 3, 2)).number == 1
    assert standard.current(D(2026, 3, 8)).number == 1
    assert standard.current(D(2026, 3, 9)).number == 2
    assert standard.current(D(2026, 3, 18)).number == 3
    assert standard.current(D(2026, 4, 2)).number == 6


def test_current_phase_is_none_outside_the_calendar(standard):
    assert standard.current(D(2026, 3, 1)) is None
    assert standard.current(D(2026, 4, 3)) is None


def test_days_late_is_zero_without_an_exam_date(standard):
    assert standard.days_late(None) == 0


def test_days_late_is_zero_when_the_plan_ends_at_least_a_day_before_the_exam(standard):
    assert standard.days_late(D(2026, 4, 3)) == 0
    assert standard.fits(D(2026, 4, 3))
    assert standard.days_late(D(2026, 5, 1)) == 0


def test_an_exam_on_the_last_study_day_is_a_day_too_late(standard):
    assert standard.days_late(D(2026, 4, 2)) == 1
    assert not standard.fits(D(2026, 4, 2))


def test_days_late_counts_the_days_the_plan_must_lose_to_end_the_day_before(standard):
    assert standard.days_late(D(2026, 4, 1)) == 2
    assert standard.days_late(D(2026, 3, 30)) == 4


# Fast finishes 8 March, standard 15 March, extended 22 March when started on 2 March.
FAST = IntensityOption(slug="fast", hours_per_week=14, phase_hours=((1, 14),), order=0)
STANDARD = IntensityOption(slug="standard", hours_per_week=7, phase_hours=((1, 14),), order=1)
EXTENDED = IntensityOption(slug="extended", hours_per_week=7, phase_hours=((1, 21),), order=2)


def test_fitting_intensity_picks_the_gentlest_calendar_that_ends_a_day_before_the_exam():
    options = [FAST, STANDARD, EXTENDED]
    assert fitting_intensity(options, START, D(2026, 4, 30)) == "extended"
    assert fitting_intensity(options, START, D(2026, 3, 23)) == "extended"
    assert fitting_intensity(options, START, D(2026, 3, 22)) == "standard"
    assert fitting_intensity(options, START, D(2026, 3, 16)) == "standard"
    assert fitting_intensity(options, START, D(2026, 3, 15)) == "fast"
    assert fitting_intensity(options, START, D(2026, 3, 9)) == "fast"


def test_fitting_intensity_goes_by_order_not_by_list_position():
    assert fitting_intensity([EXTENDED, FAST, STANDARD], START, D(2026, 3, 21)) == "standard"


def test_fitting_intensity_is_none_when_no_calendar_fits():
    assert fitting_intensity([FAST, STANDARD, EXTENDED], START, D(2026, 3, 8)) is None
    assert fitting_intensity([], START, D(2026, 12, 31)) is None


@pytest.mark.parametrize("hours_per_week", [0, -8])
def test_non_positive_weekly_hours_are_rejected(hours_per_week):
    with pytest.raises(ValueError, match="hours_per_week"):
        lay_out(STANDARD_HOURS, hours_per_week, START)


def test_empty_phase_list_is_rejected():
    with pytest.raises(ValueError, match="at least one phase"):
        lay_out([], 8, START)
