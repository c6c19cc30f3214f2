"""Ticking a self-check, and saying how well it is known."""

import datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from studyplan.caching import moves_learner

from .. import leitner
from ..models import CheckOff, Confidence


@moves_learner
def set_done(
    *, user: Any, self_check_id: int, done: bool, today: datetime.date | None = None
) -> bool:
    """Tick or untick; saying the same thing twice changes nothing. True when a row changed.

    Each is one statement that reports whether it changed a row: the unique constraint on
    (user, self-check) makes a repeated tick insert nothing, with no read first and no
    transaction around it. A new tick enters the review schedule.
    """
    table = CheckOff._meta.db_table
    with connection.cursor() as cursor:
        if done:
            box, due_on = leitner.on_tick(Confidence.UNRATED, today or timezone.localdate())
            cursor.execute(
                f"INSERT INTO {table} (user_id, self_check_id, done_at, confidence, box, due_on) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (user_id, self_check_id) DO NOTHING",
                [user.pk, self_check_id, timezone.now(), Confidence.UNRATED, box, due_on],
            )
        else:
            cursor.execute(
                f"DELETE FROM {table} WHERE user_id = %s AND self_check_id = %s",
                [user.pk, self_check_id],
            )
        return cursor.rowcount > 0


@moves_learner
def rate(*, user: Any, self_check_id: int, confidence: Confidence, today: datetime.date) -> bool:
    """Say how well a ticked check is known; it is rescheduled from today. False if not ticked."""
    box, due_on = leitner.on_tick(confidence, today)
    changed = CheckOff.objects.filter(user=user, self_check_id=self_check_id).update(
        confidence=confidence, box=box, due_on=due_on
    )
    return bool(changed)
