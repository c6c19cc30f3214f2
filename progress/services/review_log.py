"""Writing the review log (progress.models.ReviewLog): one row for each review, inside the
transaction of the write that made it."""

import datetime
from typing import Any

from fsrs import Rating

from .. import memory
from ..figures import fsrs
from ..memory import Memory
from ..models import ReviewLog

DAY = datetime.timedelta(days=1)


def entry(
    *,
    user: Any,
    kind: str,
    key: int,
    after: Memory,
    before: Memory | None = None,
    rating: Rating,
    when: datetime.datetime,
    day: datetime.date,
    answer: str = "",
) -> ReviewLog:
    """The log row of one review (not saved): ``before`` is the card's memory before it (None
    for a first review), ``after`` the memory it left, ``day`` the learner's review day,
    ``answer`` what the learner typed before revealing the reference."""
    last = before.last_review if before is not None else None
    last_day = memory.reviewed_on(before) if before is not None else None
    return ReviewLog(
        user=user,
        kind=kind,
        self_check_id=key if kind == ReviewLog.Kind.CHECK else None,
        question_id=key if kind == ReviewLog.Kind.QUESTION else None,
        reviewed_at=when,
        day=day,
        first=before is None,
        # Days as FSRS counts them (the learner's days), the figure its forecast rests on.
        elapsed_days=(day - last_day).days if last_day is not None else None,
        predicted_recall=memory.recall(before, day, fsrs()) if last is not None else None,
        state_before=before.state if before else None,
        stability_before=before.stability if before else None,
        difficulty_before=before.difficulty if before else None,
        answer=answer,
        rating=int(rating),
        scheduled_days=(after.due - when) / DAY,
        state_after=after.state,
        stability_after=after.stability,
        difficulty_after=after.difficulty,
    )
