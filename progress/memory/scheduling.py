"""Memory, pure: FSRS review scheduling and predicted recall (plain values in, plain values out).

Every ticked self-check, and every question missed in a closed drill or mock, is a card: its
memory is FSRS's state, stored on its row. The `fsrs` package does the scheduling and the recall
figures; this module is the glue: the ratings in the learner's words, a tick as the card's first
review, day-scale scheduling, recall on a day, and today's review queue. docs/memory.md explains
the figures with a worked example.

Time is counted as FSRS defines it: in days, the number of the learner's days from the last
review to the one asked about (as Anki counts them, across its day boundary), not whole 24-hour
periods. A review on the evening before the exam is a day before it, not "no time at all". The
`fsrs` package takes datetimes and counts whole 24-hour periods between them, so each day is
handed to it as midnight UTC of that date: the difference is then exactly the days between the
two dates.
"""

import datetime
import functools
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, fields
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
    last_review_day: datetime.date | None = None  # the learner's day of the last review


MEMORY_COLUMNS = tuple(column.name for column in fields(Memory))  # a card's columns, in order

# Where a day's start falls, for a due day: the caller's (the learner's) time zone.
DayStart = Callable[[datetime.date], datetime.datetime]


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


def _day(day: datetime.date) -> datetime.datetime:
    """A learner's day as FSRS is handed it: midnight UTC of that date, so whole days between
    two of them are exactly the days between the dates."""
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=datetime.UTC)


def reviewed_on(memory: Memory) -> datetime.date | None:
    """The day of the card's last review (a card from before days were kept: its UTC date)."""
    if memory.last_review_day is not None:
        return memory.last_review_day
    return _utc(memory.last_review).date() if memory.last_review is not None else None


def to_card(memory: Memory) -> Card:
    # A card with no stability was never reviewed: FSRS's new card, whatever its stored state.
    state = State(memory.state) if memory.stability is not None else State.Learning
    day = reviewed_on(memory)
    return Card(
        card_id=0,  # fsrs sleeps a millisecond to make up an id when none is given
        state=state,
        step=None if state == State.Review else 0,
        stability=memory.stability,
        difficulty=memory.difficulty,
        due=_utc(memory.due),
        last_review=None if day is None else _day(day),
    )


def _reviewed(memory: Memory, rating: Rating, day: datetime.date, fsrs: Scheduler) -> Card:
    card, _ = fsrs.review_card(to_card(memory), rating, _day(day))
    return card


def days_until_due(memory: Memory, rating: Rating, day: datetime.date, fsrs: Scheduler) -> int:
    """The days a review on ``day`` with ``rating`` would schedule the card's next one for."""
    return (_reviewed(memory, rating, day, fsrs).due - _day(day)).days


def review(
    memory: Memory,
    rating: Rating,
    when: datetime.datetime,
    day: datetime.date,
    fsrs: Scheduler,
    day_start: DayStart,
) -> Memory:
    """The card after a review at ``when``, on the learner's ``day``; due at the start of the
    day FSRS schedules (``day_start``: where a day starts for the learner). Early reviews are
    FSRS's to handle, like any other."""
    _utc(when)  # stored as the last review: refused unless aware, as every other moment
    card = _reviewed(memory, rating, day, fsrs)
    due = day + datetime.timedelta(days=(card.due - _day(day)).days)
    return Memory(int(card.state), card.stability, card.difficulty, day_start(due), when, day)


def first_review(
    rating: Rating,
    when: datetime.datetime,
    day: datetime.date,
    fsrs: Scheduler,
    day_start: DayStart,
) -> Memory:
    """A new card's first review (a tick, or a missed question rated Again)."""
    return review(
        Memory(State.Learning, None, None, when, None), rating, when, day, fsrs, day_start
    )


def _recall(card: Card, day: datetime.date, fsrs: Scheduler) -> float:
    return float(fsrs.get_card_retrievability(card, _day(day)))


def recall(memory: Memory | None, day: datetime.date, fsrs: Scheduler) -> float:
    """Predicted recall of a card on the learner's ``day``: FSRS's retrievability after the days
    since its last review; 0 if never reviewed."""
    if memory is None or reviewed_on(memory) is None or memory.stability is None:
        return 0.0
    return _recall(to_card(memory), day, fsrs)


def gain(memory: Memory, today: datetime.date, exam_day: datetime.date, fsrs: Scheduler) -> float:
    """How much reviewing the card today (and knowing it) raises its recall on exam day."""
    if exam_day <= today:
        return 0.0
    return _recall(_reviewed(memory, Rating.Good, today, fsrs), exam_day, fsrs) - recall(
        memory, exam_day, fsrs
    )


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
    today: datetime.date,
    end_of_today: datetime.datetime,
    exam_day: datetime.date | None,
    cap: int,
    fsrs: Scheduler,
) -> list[Key]:
    """Today's review queue, as card keys (``today``: the learner's review day, ending at
    ``end_of_today``).

    Due cards first, the longest overdue first. If that leaves room under ``cap`` (the daily cap,
    less the cards already reviewed today; a tick or a miss is no review here), the cards not due
    whose exam-day recall would gain most from a review today, gain times exam weight, those
    gaining under ``MIN_EARLY_GAIN`` left out. A card reviewed today waits until tomorrow unless
    due.
    """
    cards = list(cards)

    def seen_today(card: Candidate[Key]) -> bool:
        return reviewed_on(card.memory) == today

    # The cap counts reviews: a tick or a miss made today (a card's first review) uses none of it.
    room = max(0, cap - sum(1 for card in cards if card.reviews > 1 and seen_today(card)))
    due = sorted(
        (card for card in cards if is_due(card.memory, end_of_today)),
        key=lambda card: (card.memory.due, str(card.key)),
    )
    chosen = [card.key for card in due[:room]]
    room -= len(chosen)
    if room <= 0 or exam_day is None or exam_day <= today:
        return chosen
    early = sorted(
        (-card_gain * card.weight, str(card.key), card.key)
        for card in cards
        if not (is_due(card.memory, end_of_today) or seen_today(card))
        and (card_gain := gain(card.memory, today, exam_day, fsrs)) >= MIN_EARLY_GAIN
    )
    return chosen + [key for _, _, key in early[:room]]
