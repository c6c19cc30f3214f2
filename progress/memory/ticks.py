"""Ticks: a self-check answered from memory, turned over, then how it went, in the learner's
words; and unticking it.

"Got it" ticks it (its first review, "knew it"); "Shaky" ticks it as a hard first review, so it
comes back sooner; "Not yet" ticks nothing: the failed attempt goes in the review log, with what
was typed, and the check comes back at the start of the learner's next day (progress.memory.models).
A failed attempt leaves no memory behind, so it can raise no recall figure.
"""

import datetime
from typing import Any

from django.db import models, transaction
from django.utils import timezone
from fsrs import Rating, State

from progress.auth import learner_syllabus
from progress.lock import lock_learner
from progress.memory import review_log
from progress.memory import scheduling as memory
from progress.memory.review_days import fix_review_day
from progress.memory.scheduler import fsrs
from progress.memory.scheduling import Memory
from progress.models import CheckOff, Confidence, NotYet, Reveal, ReviewLog
from progress.summary.keep import kept
from progress.timezones import start_of_day


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
    """Tick or untick, under the learner's lock (_set_done says how)."""
    lock_learner(user)
    return _set_done(
        user=user,
        self_check_id=self_check_id,
        done=done,
        confidence=confidence,
        answer=answer,
        now=now,
    )


def _set_done(
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
        standing = CheckOff.objects.for_user(user).ticked().filter(self_check_id=self_check_id)
        done_at = standing.values_list("done_at", flat=True).first()
        if done_at is None or not standing.update(unticked_at=now):
            return False
        kept(user, now=now, ticks=[done_at])
        return True
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
        # The tick stands again on its day; a review made now counts on today's.
        kept(user, now=now, ticks=[existing.done_at], reviews=[now])
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
        # Its first review: not one the calendar counts.
        kept(user, now=now, ticks=[now])
    return created


class Outcome(models.TextChoices):
    GOT_IT = "got-it", "Got it: mark done"
    SHAKY = "shaky", "Shaky: mark done, review sooner"
    NOT_YET = "not-yet", "Not yet"


# What each outcome does, as the phase page says it above its self-checks.
OUTCOMES_TEXT = (
    f"{Outcome.GOT_IT.label.split(':')[0]} marks it done; "
    f"{Outcome.SHAKY.label.split(':')[0]} marks it done and brings it back for review sooner; "
    f"{Outcome.NOT_YET.label} leaves it open and brings it back tomorrow."
)

# The Review page's ratings of a check that was "not yet", as outcomes: it is no card yet, so any
# rating but "forgot" ticks it.
RATING_OUTCOME = {
    Rating.Again: Outcome.NOT_YET,
    Rating.Hard: Outcome.SHAKY,
    Rating.Good: Outcome.GOT_IT,
    Rating.Easy: Outcome.GOT_IT,
}
CONFIDENCE = {Outcome.GOT_IT: Confidence.UNRATED, Outcome.SHAKY: Confidence.SHAKY}


class NotRevealed(Exception):
    """An outcome or a rating for a check whose reference answer is not turned over (never,
    or long enough ago to count as face down again, or already rated in another tab)."""


# What the learner reads when NotRevealed is raised, or an outcome comes before the reveal.
NOT_REVEALED = "Reveal the reference answer first, then say how it went."


def fresh_reveals(user: Any, now: datetime.datetime) -> dict[int, str]:
    """The checks the learner has turned over and not yet said how it went, by self-check id:
    what they typed before each reveal. One query."""
    since = now - Reveal.REVEAL_LASTS
    return dict(
        Reveal.objects.for_user(user)
        .filter(revealed_at__gte=since)
        .values_list("self_check_id", "answer")
    )


@transaction.atomic
def reveal(*, user: Any, self_check_id: int, answer: str, now: datetime.datetime) -> None:
    """The check turned over, after ``answer`` was typed: a row of its own, so reveals made at
    the same moment (several tabs) all stand."""
    lock_learner(user)
    Reveal.objects.update_or_create(
        user=user, self_check_id=self_check_id, defaults={"answer": answer, "revealed_at": now}
    )


def take_reveal(*, user: Any, self_check_id: int, now: datetime.datetime) -> str:
    """The check's reveal used up by the outcome or rating being made (inside its transaction):
    what was typed before it. NotRevealed when there is none to use: two tabs rating at once are
    one rating and one refusal."""
    row = (
        Reveal.objects.for_user(user)
        .select_for_update()
        .filter(self_check_id=self_check_id, revealed_at__gte=now - Reveal.REVEAL_LASTS)
        .first()
    )
    Reveal.objects.for_user(user).filter(self_check_id=self_check_id).delete()
    if row is None:
        raise NotRevealed("the reference answer is not turned over")
    return row.answer


@transaction.atomic
def settle(*, user: Any, self_check_id: int, outcome: Outcome, now: datetime.datetime) -> bool:
    """Record how an answer from memory went, once its reference was revealed (NotRevealed if
    not). False when nothing changed: the check was already ticked (a tick is undone only by
    unticking it)."""
    lock_learner(user)
    answer = take_reveal(user=user, self_check_id=self_check_id, now=now)
    if outcome != Outcome.NOT_YET:
        # No longer "not yet", before the tick keeps the summary (the review queue it counts).
        NotYet.objects.filter(user=user, self_check_id=self_check_id).delete()
        return _set_done(
            user=user,
            self_check_id=self_check_id,
            done=True,
            confidence=CONFIDENCE[outcome],
            answer=answer,
            now=now,
        )
    if CheckOff.objects.for_user(user).ticked().filter(self_check_id=self_check_id).exists():
        return False
    day = fix_review_day(user, now)
    # Back at the start of the learner's next review day.
    due = day.ends
    NotYet.objects.update_or_create(
        user=user, self_check_id=self_check_id, defaults={"tried_at": now, "due": due}
    )
    attempt = review_log.entry(
        user=user,
        kind=ReviewLog.Kind.CHECK,
        key=self_check_id,
        after=Memory(int(State.Learning), None, None, due, now, day.day),
        rating=Rating.Again,
        when=now,
        day=day.day,
        answer=answer,
    )
    # A try at recall, not a card's first review (there is no card): the activity calendar
    # counts it as a review.
    attempt.first = False
    attempt.save()
    kept(user, now=now, reviews=[now])
    return True


def revealed(user: Any, now: datetime.datetime) -> dict[str, str]:
    """The checks the learner has turned over, on a phase page or the Review page, and not yet
    said how it went (slug: what they typed first): rows of their own, so a reveal survives a
    redirect, a reload, another tab or a plain form; one left turned over for
    Reveal.REVEAL_LASTS counts as face down again."""
    content = learner_syllabus(user)
    return {
        check.slug: answer
        for check_id, answer in fresh_reveals(user, now).items()
        if (check := content.check_by_id(check_id)) is not None
    }
