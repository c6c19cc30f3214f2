"""Memory, pure: FSRS review scheduling and predicted recall (plain values in, plain values out).

Every ticked self-check, and every question missed in a closed drill or mock, is a card: its
memory is FSRS's state, stored on its row. The `fsrs` package does the scheduling and the recall
figures; this module is the glue: the ratings in the learner's words, a tick as the card's first
review, day-scale scheduling, recall at a moment, and today's review queue. docs/memory.md
explains the figures with a worked example.
"""

import datetime
import functools
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from fsrs import Card, Rating, Scheduler, State

RATING_WORDS: dict[Rating, str] = {
    Rating.Again: "Forgot",
    Rating.Hard: "Hard",
    Rating.Good: "Knew it",
    Rating.Easy: "Easy",
}

# The phase page's confidence (progress.models.Confidence values) as the tick's rating.
CONFIDENCE_RATING: dict[str, Rating] = {"shaky": Rating.Hard, "": Rating.Good, "solid": Rating.Easy}

# A missed question leaves the queue after this many right reviews in a row (any rating but Again).
RIGHT_IN_A_ROW_TO_LEAVE = 2

# An early review joins the queue only if it raises the card's exam-day recall by at least this.
MIN_EARLY_GAIN = 0.02


@dataclass(frozen=True)
class Memory:
    """One card's FSRS state, as stored on its row."""

    state: int
    stability: float | None
    difficulty: float | None
    due: datetime.datetime
    last_review: datetime.datetime | None


@functools.cache
def scheduler(desired_retention: float = 0.9, *, fuzz: bool = True) -> Scheduler:
    """FSRS with day-scale steps only: no minute learning or relearning steps."""
    return Scheduler(
        desired_retention=desired_retention,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=fuzz,
    )


def _utc(moment: datetime.datetime) -> datetime.datetime:
    if moment.tzinfo is None:
        raise ValueError("FSRS needs aware datetimes")
    return moment.astimezone(datetime.UTC)


def to_card(memory: Memory) -> Card:
    # A card with no stability was never reviewed: FSRS's new card, whatever its stored state.
    state = State(memory.state) if memory.stability is not None else State.Learning
    return Card(
        card_id=0,  # fsrs sleeps a millisecond to make up an id when none is given
        state=state,
        step=None if state == State.Review else 0,
        stability=memory.stability,
        difficulty=memory.difficulty,
        due=_utc(memory.due),
        last_review=None if memory.last_review is None else _utc(memory.last_review),
    )


def first_review(rating: Rating, when: datetime.datetime, fsrs: Scheduler) -> Memory:
    """A new card's first review (a tick, or a missed question rated Again)."""
    return review(Memory(State.Learning, None, None, when, None), rating, when, fsrs)


def review(memory: Memory, rating: Rating, when: datetime.datetime, fsrs: Scheduler) -> Memory:
    """The card after a review at ``when``; early reviews are FSRS's to handle, like any other."""
    card, _ = fsrs.review_card(to_card(memory), rating, _utc(when))
    return Memory(int(card.state), card.stability, card.difficulty, card.due, card.last_review)


def recall(memory: Memory | None, at: datetime.datetime, fsrs: Scheduler) -> float:
    """Predicted recall of a card at ``at``: FSRS's retrievability; 0 if never reviewed."""
    if memory is None or memory.last_review is None or memory.stability is None:
        return 0.0
    return float(fsrs.get_card_retrievability(to_card(memory), _utc(at)))


def gain(
    memory: Memory, now: datetime.datetime, exam_at: datetime.datetime, fsrs: Scheduler
) -> float:
    """How much reviewing the card now (and knowing it) raises its recall on exam day."""
    if exam_at <= now:
        return 0.0
    reviewed = review(memory, Rating.Good, now, fsrs)
    return recall(reviewed, exam_at, fsrs) - recall(memory, exam_at, fsrs)


Key = TypeVar("Key", bound=Hashable)


@dataclass(frozen=True)
class Candidate(Generic[Key]):
    """A card that may be reviewed; its key is anything the caller can find it by."""

    key: Key
    memory: Memory
    weight: float  # its domain's share of the exam
    reviews: int  # reviews so far, its first (the tick, or the miss) included


def is_due(memory: Memory, end_of_today: datetime.datetime) -> bool:
    """Due today: its due moment comes before today ends (in the learner's time zone)."""
    return memory.due < end_of_today


def queue(
    cards: Iterable[Candidate[Key]],
    *,
    now: datetime.datetime,
    end_of_today: datetime.datetime,
    start_of_today: datetime.datetime,
    exam_at: datetime.datetime | None,
    cap: int,
    fsrs: Scheduler,
) -> list[Key]:
    """Today's review queue, as card keys.

    Due cards first, the longest overdue first. If that leaves room under ``cap`` (the daily cap,
    less the cards already reviewed today; a tick or a miss is no review here), the cards not due
    whose exam-day recall would gain most from a review today, gain times exam weight, those
    gaining under ``MIN_EARLY_GAIN`` left out. A card reviewed today waits until tomorrow unless
    due.
    """
    cards = list(cards)

    def seen_today(card: Candidate[Key]) -> bool:
        return card.memory.last_review is not None and card.memory.last_review >= start_of_today

    # The cap counts reviews: a tick or a miss made today (a card's first review) uses none of it.
    room = max(0, cap - sum(1 for card in cards if card.reviews > 1 and seen_today(card)))
    due = sorted(
        (card for card in cards if is_due(card.memory, end_of_today)),
        key=lambda card: (card.memory.due, str(card.key)),
    )
    chosen = [card.key for card in due[:room]]
    room -= len(chosen)
    if room <= 0 or exam_at is None or exam_at <= now:
        return chosen
    early = sorted(
        (-card_gain * card.weight, str(card.key), card.key)
        for card in cards
        if not (is_due(card.memory, end_of_today) or seen_today(card))
        and (card_gain := gain(card.memory, now, exam_at, fsrs)) >= MIN_EARLY_GAIN
    )
    return chosen + [key for _, _, key in early[:room]]
