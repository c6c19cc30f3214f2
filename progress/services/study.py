"""Ticking a self-check, and saying how well it is known."""

import dataclasses
import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from .. import memory
from ..figures import fsrs
from ..models import CheckOff, Confidence, ReviewLog
from . import review_log


@transaction.atomic
def set_done(
    *, user: Any, self_check_id: int, done: bool, now: datetime.datetime | None = None
) -> bool:
    """Tick or untick; saying the same thing twice changes nothing. True when a row changed.

    Through the ORM, in one transaction, at the database's default durability. A tick is the
    card's first review, rated "knew it" (FSRS's Good); the unique constraint on (user,
    self-check) makes two ticks at once one row (get_or_create)."""
    if not done:
        deleted, _ = CheckOff.objects.filter(user=user, self_check_id=self_check_id).delete()
        return deleted > 0
    now = now or timezone.now()
    first = memory.first_review(memory.CONFIDENCE_RATING[Confidence.UNRATED], now, fsrs())
    _, created = CheckOff.objects.get_or_create(
        user=user,
        self_check_id=self_check_id,
        defaults={
            "done_at": now,
            "confidence": Confidence.UNRATED,
            **dataclasses.asdict(first),
            "reviews": 1,
        },
    )
    if created:
        review_log.record(
            user=user,
            kind=ReviewLog.Kind.CHECK,
            key=self_check_id,
            before=None,
            after=first,
            rating=memory.CONFIDENCE_RATING[Confidence.UNRATED],
            when=now,
        )
    return created


@transaction.atomic
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
        rerated = memory.first_review(rating, check_off.done_at, fsrs())
        check_off.remember(rerated)
        review_log.rerate_tick(
            user=user,
            self_check_id=self_check_id,
            after=rerated,
            rating=rating,
            when=check_off.done_at,
        )
    check_off.confidence = confidence
    check_off.save(update_fields=[*CheckOff.MEMORY_FIELDS, "confidence"])
    return True
