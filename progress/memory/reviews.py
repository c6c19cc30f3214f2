"""Reviews: rating a card on the Review page, and missed questions joining the queue."""

import datetime
import random
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from fsrs import Rating

from progress.lock import lock_learner
from progress.memory import review_log
from progress.memory import scheduling as memory
from progress.memory.review_days import fix_review_day
from progress.memory.scheduler import fsrs
from progress.memory.ticks import take_reveal
from progress.models import AttemptQuestion, CheckOff, Confidence, QuestionCard, ReviewLog
from progress.practice import scoring as practice
from progress.summary.keep import kept
from progress.timezones import start_of_day


class ReviewRefused(Exception):
    """A review that would change nothing a learner has earned: the card was reviewed today."""


def _review(
    card: CheckOff | QuestionCard, *, user: Any, rating: Rating, now: Any, answer: str
) -> None:
    """The card reviewed at ``now`` as FSRS schedules it (not saved), and the review logged;
    the caller saves the card and keeps the summary."""
    # A tick or a miss today is the card's first review, and the next falls due tomorrow at the
    # earliest: a card whose last review was on the learner's review day takes no other until
    # the next one (progress.memory.review_days: a change of time zone does not start a new day).
    day = fix_review_day(user, now)
    if memory.reviewed_on(card.memory) == day.day:
        raise ReviewRefused(
            "You have already reviewed this card today: it comes back when it is due. "
            "Nothing was changed."
        )
    before = card.memory
    after = memory.review(before, rating, now, day.day, fsrs(), start_of_day)
    card.remember(after)
    review_log.entry(
        user=user,
        kind=ReviewLog.Kind.CHECK if isinstance(card, CheckOff) else ReviewLog.Kind.QUESTION,
        key=card.self_check_id if isinstance(card, CheckOff) else card.question_id,
        before=before,
        after=after,
        rating=rating,
        when=now,
        day=day.day,
        answer=answer,
    ).save()


@transaction.atomic
def review_check(*, user: Any, self_check_id: int, rating: Rating, now: datetime.datetime) -> bool:
    """Review a ticked self-check once its reference is revealed (retrieval.NotRevealed if
    not), with what was typed before the reveal; "forgot" also marks it shaky. False when it is
    not ticked; ReviewRefused when it was reviewed today (the caller refuses cards not in
    today's queue)."""
    # Locked until the write commits (this service's transaction): two tabs rating at once are
    # one review and one refusal (SQLite's IMMEDIATE transactions already queue them).
    lock_learner(user)
    check_off = (
        CheckOff.objects.for_user(user)
        .ticked()
        .select_for_update()
        .filter(self_check_id=self_check_id)
    ).first()
    if check_off is None:
        return False
    answer = take_reveal(user=user, self_check_id=self_check_id, now=now)
    _review(check_off, user=user, rating=rating, now=now, answer=answer)
    if rating == Rating.Again:
        check_off.confidence = Confidence.SHAKY
    check_off.save(update_fields=[*CheckOff.MEMORY_FIELDS, "confidence"])
    kept(user, now=now, reviews=[now])
    return True


@transaction.atomic
def review_question(
    *, user: Any, card_id: int, rating: Rating, now: datetime.datetime, answer: str = ""
) -> bool:
    """Review a missed question: known (any rating but "forgot") memory.RIGHT_IN_A_ROW_TO_LEAVE
    times in a row, so on as many days, it leaves the queue; its options come back in a new
    order. False when it is not in the queue; ReviewRefused when it was reviewed today."""
    lock_learner(user)
    card = (
        QuestionCard.objects.for_user(user).in_queue().select_for_update().filter(pk=card_id)
    ).first()
    if card is None:
        return False
    _review(card, user=user, rating=rating, now=now, answer=answer)
    card.right_in_a_row = 0 if rating == Rating.Again else card.right_in_a_row + 1
    if card.right_in_a_row >= memory.RIGHT_IN_A_ROW_TO_LEAVE:
        card.left_at = now
    card.order = practice.reshuffled(card.order, random.SystemRandom())
    card.save(update_fields=[*QuestionCard.MEMORY_FIELDS, "right_in_a_row", "left_at", "order"])
    kept(user, now=now, reviews=[now])
    return True


def remember_misses(*, user: Any, items: Iterable[AttemptQuestion], now: datetime.datetime) -> int:
    """Each wrong answer of a closed attempt becomes a card (its first review: "forgot", at
    ``now``); a question missed again comes back to the queue from scratch. One statement
    however many, the review day fixed first: the number made."""
    missed = [item for item in items if item.is_correct is False and item.chosen is not None]
    if not missed:
        return 0
    day = fix_review_day(user, now)
    first = memory.first_review(Rating.Again, now, day.day, fsrs(), start_of_day)
    rng = random.SystemRandom()
    cards: dict[int, QuestionCard] = {}
    for item in missed:
        card = QuestionCard(
            user=user,
            question_id=item.question_id,
            chosen=item.chosen,
            # Back in an order of its own: not the one it was missed in.
            order=practice.reshuffled(item.order, rng),
            missed_at=now,
            right_in_a_row=0,
            left_at=None,
            reviews=0,
        )
        card.remember(first)
        cards[item.question_id] = card
    ReviewLog.objects.bulk_create(
        review_log.entry(
            user=user,
            kind=ReviewLog.Kind.QUESTION,
            key=question_id,
            after=first,
            rating=Rating.Again,
            when=now,
            day=day.day,
        )
        for question_id in cards
    )
    fields = ["chosen", "order", "missed_at", "right_in_a_row", "left_at"]
    QuestionCard.objects.bulk_create(
        cards.values(),
        update_conflicts=True,
        unique_fields=["user", "question"],
        update_fields=[*fields, *QuestionCard.MEMORY_FIELDS],
    )
    return len(cards)
