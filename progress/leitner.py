"""A simple Leitner schedule for self-checks, pure: boxes 0 to 4 come back after 1, 3, 7, 14
and 30 days; knowing it moves a check up a box, missing it sends it back to the first.
"""

import datetime

INTERVALS = (1, 3, 7, 14, 30)

# A plain tick says "covered"; confidence, when given, says how well.
FIRST_BOX = {"shaky": 0, "": 1, "solid": 2}


def due_after(box: int, today: datetime.date) -> datetime.date:
    return today + datetime.timedelta(days=INTERVALS[box])


def on_tick(confidence: str, today: datetime.date) -> tuple[int, datetime.date]:
    box = FIRST_BOX[confidence]
    return box, due_after(box, today)


def on_review(box: int, *, knew: bool, today: datetime.date) -> tuple[int, datetime.date]:
    box = min(box + 1, len(INTERVALS) - 1) if knew else 0
    return box, due_after(box, today)
