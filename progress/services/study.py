"""Ticking a self-check done, and unticking it."""

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
    *,
    user: Any,
    self_check_id: int,
    done: bool,
    confidence: Confidence = Confidence.UNRATED,
    answer: str = "",
    now: datetime.datetime | None = None,
) -> bool:
    """Tick or untick; saying the same thing twice changes nothing. True when a row changed.

    Through the ORM, in one transaction, at the database's default durability. A tick is the
    card's first review, rated by ``confidence`` (progress.memory.CONFIDENCE_RATING: none is
    "knew it", FSRS's Good; shaky is Hard), with what the learner typed before the reveal; the
    unique constraint on (user, self-check) makes two ticks at once one row (get_or_create)."""
    if not done:
        deleted, _ = CheckOff.objects.filter(user=user, self_check_id=self_check_id).delete()
        return deleted > 0
    now = now or timezone.now()
    rating = memory.CONFIDENCE_RATING[confidence]
    first = memory.first_review(rating, now, fsrs())
    _, created = CheckOff.objects.get_or_create(
        user=user,
        self_check_id=self_check_id,
        defaults={
            "done_at": now,
            "confidence": confidence,
            **dataclasses.asdict(first),
            "reviews": 1,
        },
    )
    if created:
        review_log.entry(
            user=user,
            kind=ReviewLog.Kind.CHECK,
            key=self_check_id,
            after=first,
            rating=rating,
            when=now,
            answer=answer,
        ).save()
    return created
