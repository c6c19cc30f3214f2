"""A self-check answered from memory, then revealed: how it went, in the learner's words.

"Got it" ticks it (its first review, "knew it"); "Shaky" ticks it as a hard first review, so it
comes back sooner; "Not yet" ticks nothing: the failed attempt goes in the review log, with what
was typed, and the check comes back at the start of the learner's next day (progress.not_yet).
A failed attempt leaves no memory behind, so it can raise no recall figure.
"""

import datetime
from typing import Any

from django.db import models, transaction
from django.utils import timezone
from fsrs import Rating, State

from ..memory import Memory
from ..models import CheckOff, Confidence, NotYet, ReviewLog
from ..timezones import start_of_day
from . import review_log
from .study import set_done


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


def back_on(now: datetime.datetime) -> datetime.datetime:
    """When a "not yet" comes back: the start of the learner's next day (the active zone)."""
    return start_of_day(timezone.localdate(now) + datetime.timedelta(days=1))


@transaction.atomic
def settle(
    *, user: Any, self_check_id: int, outcome: Outcome, answer: str, now: datetime.datetime
) -> bool:
    """Record how an answer from memory went. False when nothing changed: the check was
    already ticked (a tick is undone only by unticking it)."""
    if outcome != Outcome.NOT_YET:
        ticked = set_done(
            user=user,
            self_check_id=self_check_id,
            done=True,
            confidence=CONFIDENCE[outcome],
            answer=answer,
            now=now,
        )
        NotYet.objects.filter(user=user, self_check_id=self_check_id).delete()
        return ticked
    if CheckOff.objects.for_user(user).filter(self_check_id=self_check_id).exists():
        return False
    due = back_on(now)
    NotYet.objects.update_or_create(
        user=user, self_check_id=self_check_id, defaults={"tried_at": now, "due": due}
    )
    attempt = review_log.entry(
        user=user,
        kind=ReviewLog.Kind.CHECK,
        key=self_check_id,
        after=Memory(int(State.Learning), None, None, due, now),
        rating=Rating.Again,
        when=now,
        answer=answer,
    )
    # A try at recall, not a card's first review (there is no card): the activity calendar
    # counts it as a review.
    attempt.first = False
    attempt.save()
    return True
