"""Ticking a self-check, and saying how well it is known."""

import datetime
from typing import Any

from django.utils import timezone

from phases.snapshot import CheckInfo
from studyplan.caching import moves_learner, write_retiring
from studyplan.compiled import CompiledQuery

from .. import memory
from ..figures import fsrs, ticks_query
from ..models import CheckOff, Confidence


def set_done(
    *, user: Any, self_check_id: int, done: bool, now: datetime.datetime | None = None
) -> bool:
    """Tick or untick; saying the same thing twice changes nothing. True when a row changed.

    Each is one statement that reports whether it changed a row, handed to
    studyplan.caching.write_retiring with the retirement of the learner's cached pages: the
    unique constraint on (user, self-check) makes a repeated tick insert nothing, with no read
    first. A tick is the card's first review, rated "knew it" (FSRS's Good).
    """
    changed, _, _ = _write(user, self_check_id, done, now, reading=None)
    return changed


def set_done_reading_ticks(
    *, user: Any, check: CheckInfo, done: bool, now: datetime.datetime | None = None
) -> list[Any]:
    """set_done, and the learner's ticks as they stand after it, as check_figures counts them:
    read in the same statement as the write on PostgreSQL, one round trip for the tick answer.
    The read may come just before the write or just after (studyplan.caching.write_retiring):
    the tick is applied to what it finds either way."""
    _, read, first = _write(user, check.id, done, now, reading=ticks_query(check))
    ticks = {row[0]: row for row in read}
    if first is None:
        ticks.pop(check.id, None)
    elif check.id not in ticks:
        ticks[check.id] = (check.id, Confidence.UNRATED, first.due)
    return list(ticks.values())


def _write(
    user: Any,
    self_check_id: int,
    done: bool,
    now: datetime.datetime | None,
    reading: CompiledQuery | None,
) -> tuple[bool, list[Any], memory.Memory | None]:
    """Tick at ``now`` or untick, through write_retiring; what it returns, and the tick's card as
    its first review leaves it (None for an untick)."""
    table = CheckOff._meta.db_table
    if not done:
        changed, read = write_retiring(
            user,
            f"DELETE FROM {table} WHERE user_id = %s AND self_check_id = %s",
            [user.pk, self_check_id],
            reading=reading,
        )
        return changed, read, None
    now = now or timezone.now()
    first = memory.first_review(memory.CONFIDENCE_RATING[Confidence.UNRATED], now, fsrs())
    changed, read = write_retiring(
        user,
        f"INSERT INTO {table} (user_id, self_check_id, done_at, confidence, state, "
        "stability, difficulty, due, last_review, reviews) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, 1) "
        "ON CONFLICT (user_id, self_check_id) DO NOTHING",
        [
            user.pk,
            self_check_id,
            now,
            Confidence.UNRATED,
            first.state,
            first.stability,
            first.difficulty,
            first.due,
            first.last_review,
        ],
        reading=reading,
    )
    return changed, read, first


@moves_learner
def rate(*, user: Any, self_check_id: int, confidence: Confidence, now: datetime.datetime) -> bool:
    """Say how well a ticked check is known (progress.memory.CONFIDENCE_RATING: shaky is Hard,
    solid Easy). Until its first review after the tick, this is the tick's own rating: the card
    is scheduled afresh from the tick, so changing one's mind cannot push it out. After that it
    only relabels the check: reviews happen on the Review page, when the card is due, so
    switching between shaky and solid buys no memory. False if not ticked."""
    check_off = (
        CheckOff.objects.for_user(user).select_for_update().filter(self_check_id=self_check_id)
    ).first()
    if check_off is None:
        return False
    if check_off.confidence == confidence:
        return True
    if check_off.reviews <= 1:
        rating = memory.CONFIDENCE_RATING[confidence]
        check_off.reviews = 0
        check_off.remember(memory.first_review(rating, check_off.done_at, fsrs()))
    check_off.confidence = confidence
    check_off.save(update_fields=[*CheckOff.MEMORY_FIELDS, "confidence"])
    return True
