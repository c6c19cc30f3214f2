"""A Leitner schedule for self-checks, pure: each box brings a check back after its interval;
knowing a due check moves it up a box, missing one sends it back to the first.
"""

import datetime

INTERVALS = (1, 3, 7, 14, 30)

# A plain tick says "covered"; a confidence rating, when given, says how well.
FIRST_BOX = {"shaky": 0, "": 1, "solid": 2}


def intervals_text() -> str:
    *first, last = (str(days) for days in INTERVALS)
    return f"{', '.join(first)} and {last} days"


def due_after(box: int, today: datetime.date) -> datetime.date:
    return today + datetime.timedelta(days=INTERVALS[box])


def on_tick(confidence: str, today: datetime.date) -> tuple[int, datetime.date]:
    box = FIRST_BOX[confidence]
    return box, due_after(box, today)


def on_review(
    box: int, due_on: datetime.date, *, knew: bool, due: bool, today: datetime.date
) -> tuple[int, datetime.date]:
    """The box and due day after a review. An early "knew it" changes nothing: only a review
    of a due check promotes, so clicking it again and again cannot game the schedule."""
    if not knew:
        return 0, due_after(0, today)
    if not due:
        return box, due_on
    box = min(box + 1, len(INTERVALS) - 1)
    return box, due_after(box, today)
