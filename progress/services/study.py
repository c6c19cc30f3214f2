"""Ticking a self-check done, and unticking it."""

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from .. import memory
from ..figures import fsrs
from ..lock import lock_learner
from ..models import CheckOff, Confidence, ReviewLog
from ..review_days import fix_review_day
from ..timezones import start_of_day
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

    Through the ORM, in one transaction, at the database's default durability. A first tick is
    the card's first review, rated by ``confidence`` (progress.memory.CONFIDENCE_RATING: none is
    "knew it", FSRS's Good; shaky is Hard), with what the learner typed before the reveal; the
    unique constraint on (user, self-check) makes two ticks at once one row. Unticking keeps the
    card and its history; ticking it again restores it, and is a review (with ``confidence``'s
    rating) only when the card is due and was not reviewed today: a re-tick buys no recall that
    the review queue would not give."""
    now = now or timezone.now()
    if not done:
        return (
            CheckOff.objects.for_user(user)
            .ticked()
            .filter(self_check_id=self_check_id)
            .update(unticked_at=now)
            > 0
        )
    lock_learner(user)
    day = fix_review_day(user, now)
    rating = memory.CONFIDENCE_RATING[confidence]
    card = CheckOff.objects.for_user(user).select_for_update().filter(self_check_id=self_check_id)
    existing = card.first()
    if existing is not None:
        if existing.unticked_at is None:
            return False
        before = existing.memory
        existing.unticked_at = None
        fields = ["unticked_at"]
        if memory.is_due(before, day.ends) and memory.reviewed_on(before) != day.day:
            after = memory.review(before, rating, now, day.day, fsrs(), start_of_day)
            existing.remember(after)
            existing.confidence = confidence
            fields += [*CheckOff.MEMORY_FIELDS, "confidence"]
            review_log.entry(
                user=user,
                kind=ReviewLog.Kind.CHECK,
                key=self_check_id,
                before=before,
                after=after,
                rating=rating,
                when=now,
                day=day.day,
                answer=answer,
            ).save()
        existing.save(update_fields=fields)
        return True
    first = memory.first_review(rating, now, day.day, fsrs(), start_of_day)
    _, created = CheckOff.objects.get_or_create(
        user=user,
        self_check_id=self_check_id,
        defaults={
            "done_at": now,
            "confidence": confidence,
            "state": first.state,
            "stability": first.stability,
            "difficulty": first.difficulty,
            "due": first.due,
            "last_review": first.last_review,
            "last_review_day": first.last_review_day,
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
            day=day.day,
            answer=answer,
        ).save()
    return created
