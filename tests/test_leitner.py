"""The Leitner schedule, pure: boxes come back after 1, 3, 7, 14 and 30 days."""

import datetime

import pytest

from progress import leitner

TODAY = datetime.date(2025, 3, 10)


def days(n: int) -> datetime.date:
    return TODAY + datetime.timedelta(days=n)


def test_the_intervals_are_one_three_seven_fourteen_and_thirty_days():
    assert leitner.INTERVALS == (1, 3, 7, 14, 30)


@pytest.mark.parametrize(("box", "after"), list(enumerate([1, 3, 7, 14, 30])))
def test_each_box_comes_back_after_its_interval(box, after):
    assert leitner.due_after(box, TODAY) == days(after)


def test_a_plain_tick_goes_in_box_one_due_in_three_days():
    assert leitner.on_tick("", TODAY) == (1, days(3))


def test_a_shaky_tick_goes_in_box_zero_due_tomorrow():
    assert leitner.on_tick("shaky", TODAY) == (0, days(1))


def test_a_solid_tick_goes_in_box_two_due_in_a_week():
    assert leitner.on_tick("solid", TODAY) == (2, days(7))


@pytest.mark.parametrize(("box", "after"), [(0, 3), (1, 7), (2, 14), (3, 30)])
def test_knowing_it_moves_it_up_one_box(box, after):
    assert leitner.on_review(box, knew=True, today=TODAY) == (box + 1, days(after))


def test_knowing_it_in_the_last_box_keeps_it_there_at_thirty_days():
    last = len(leitner.INTERVALS) - 1
    assert leitner.on_review(last, knew=True, today=TODAY) == (last, days(30))


def test_climbing_from_the_first_box_stops_at_the_last():
    box = 0
    for _ in range(10):
        box, due_on = leitner.on_review(box, knew=True, today=TODAY)
    assert (box, due_on) == (4, days(30))


@pytest.mark.parametrize("box", [0, 1, 2, 3, 4])
def test_a_miss_sends_it_back_to_box_zero_due_tomorrow(box):
    assert leitner.on_review(box, knew=False, today=TODAY) == (0, days(1))


def test_a_shaky_check_known_at_review_moves_to_three_days():
    box, due_on = leitner.on_tick("shaky", TODAY)
    assert leitner.on_review(box, knew=True, today=due_on) == (1, days(1 + 3))


def test_dates_cross_the_leap_day():
    assert leitner.on_tick("shaky", datetime.date(2024, 2, 28)) == (0, datetime.date(2024, 2, 29))
    assert leitner.on_tick("", datetime.date(2024, 2, 27)) == (1, datetime.date(2024, 3, 1))
    assert leitner.on_review(3, knew=True, today=datetime.date(2024, 2, 15)) == (
        4,
        datetime.date(2024, 3, 16),
    )


def test_the_same_steps_outside_a_leap_year_land_a_day_later():
    assert leitner.on_tick("shaky", datetime.date(2023, 2, 28)) == (0, datetime.date(2023, 3, 1))
    assert leitner.on_review(3, knew=True, today=datetime.date(2023, 2, 15)) == (
        4,
        datetime.date(2023, 3, 17),
    )


def test_dates_cross_the_year_end():
    assert leitner.on_review(2, knew=True, today=datetime.date(2024, 12, 25)) == (
        3,
        datetime.date(2025, 1, 8),
    )
