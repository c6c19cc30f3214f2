"""The Leitner schedule, pure: a tick puts a check in a box, reviews move it between boxes."""

import datetime

import pytest

from progress import leitner
from progress.models import Confidence

TODAY = datetime.date(2025, 3, 10)
LAST = len(leitner.INTERVALS) - 1


def in_days(n: int, today: datetime.date = TODAY) -> datetime.date:
    return today + datetime.timedelta(days=n)


def comes_back(box: int, today: datetime.date = TODAY) -> datetime.date:
    """The day a check in ``box`` comes back, by that box's interval."""
    return in_days(leitner.INTERVALS[box], today)


# A tick


@pytest.mark.parametrize(
    ("confidence", "box"),
    [(Confidence.SHAKY, 0), (Confidence.UNRATED, 1), (Confidence.SOLID, 2)],
)
def test_a_tick_goes_in_the_box_its_confidence_says(confidence, box):
    assert leitner.on_tick(confidence, TODAY) == (box, comes_back(box))


def test_a_shaky_tick_comes_back_tomorrow_and_sooner_than_a_plain_one_then_a_solid_one():
    shaky, plain, solid = (
        leitner.on_tick(confidence, TODAY)[1]
        for confidence in (Confidence.SHAKY, Confidence.UNRATED, Confidence.SOLID)
    )
    assert shaky == in_days(1)
    assert shaky < plain < solid


# A review


@pytest.mark.parametrize("box", range(LAST))
def test_knowing_a_due_check_moves_it_up_one_box(box):
    assert leitner.on_review(box, TODAY, knew=True, due=True, today=TODAY) == (
        box + 1,
        comes_back(box + 1),
    )


@pytest.mark.parametrize("box", range(LAST + 1))
def test_knowing_a_check_before_it_is_due_changes_nothing(box):
    due_on = in_days(5)
    assert leitner.on_review(box, due_on, knew=True, due=False, today=TODAY) == (box, due_on)


def test_knowing_it_early_again_and_again_never_promotes():
    box, due_on = leitner.on_tick(Confidence.SHAKY, TODAY)
    for _ in range(10):
        box, due_on = leitner.on_review(box, due_on, knew=True, due=False, today=TODAY)
    assert (box, due_on) == leitner.on_tick(Confidence.SHAKY, TODAY)


@pytest.mark.parametrize("due", [True, False], ids=["due", "early"])
@pytest.mark.parametrize("box", range(LAST + 1))
def test_a_miss_sends_it_back_to_box_zero_due_tomorrow(box, due):
    assert leitner.on_review(box, in_days(9), knew=False, due=due, today=TODAY) == (0, in_days(1))


def test_knowing_it_in_the_last_box_keeps_it_there():
    assert leitner.on_review(LAST, TODAY, knew=True, due=True, today=TODAY) == (
        LAST,
        comes_back(LAST),
    )


def test_knowing_it_every_time_it_is_due_climbs_to_the_last_box_and_stays():
    box, due_on = leitner.on_tick(Confidence.SHAKY, TODAY)
    for _ in range(LAST + 3):
        box, due_on = leitner.on_review(box, due_on, knew=True, due=True, today=due_on)
    assert box == LAST
    assert leitner.on_review(box, due_on, knew=True, due=True, today=due_on) == (
        LAST,
        comes_back(LAST, due_on),
    )


def test_a_shaky_check_known_when_due_comes_back_after_the_next_interval():
    box, due_on = leitner.on_tick(Confidence.SHAKY, TODAY)
    assert leitner.on_review(box, due_on, knew=True, due=True, today=due_on) == (
        1,
        comes_back(1, due_on),
    )


# The words the pages show


def test_intervals_text_names_every_interval_in_days():
    text = leitner.intervals_text()
    assert text.endswith(f"and {leitner.INTERVALS[-1]} days")
    for days in leitner.INTERVALS:
        assert str(days) in text


def test_intervals_text_is_made_from_the_intervals(monkeypatch):
    monkeypatch.setattr(leitner, "INTERVALS", (2, 5, 11))
    assert leitner.intervals_text() == "2, 5 and 11 days"
