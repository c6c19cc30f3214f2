"""progress.memory, pure: the glue must give what `fsrs` itself gives for the same reviews, and
the review queue must follow its rules (due first, the daily cap, early cards by weighted gain)."""

import datetime
import random
from zoneinfo import ZoneInfo

import fsrs
import pytest
from fsrs import Rating
from hypothesis import given
from hypothesis import strategies as st

from progress import memory
from progress.memory import Candidate, Memory
from tests.fsrs_fuzz import fuzz_range

UTC = datetime.UTC
T0 = datetime.datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
PLAIN = memory.scheduler(0.9, fuzz=False)
FUZZED = memory.scheduler(0.9)


def days(n: float) -> datetime.timedelta:
    return datetime.timedelta(days=n)


def hours(n: float) -> datetime.timedelta:
    return datetime.timedelta(hours=n)


def reference(*, fuzz: bool = False, desired_retention: float = 0.9) -> fsrs.Scheduler:
    """FSRS as the package's own documentation sets it up, with day-scale steps only."""
    return fsrs.Scheduler(
        desired_retention=desired_retention,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=fuzz,
    )


def replay(sequence, scheduler=PLAIN) -> list[Memory]:
    """The memory after each review of ``sequence`` ((rating, when) pairs), by progress.memory."""
    memories: list[Memory] = []
    for rating, when in sequence:
        if not memories:
            memories.append(memory.first_review(rating, when, scheduler))
        else:
            memories.append(memory.review(memories[-1], rating, when, scheduler))
    return memories


def replay_fsrs(sequence, scheduler: fsrs.Scheduler) -> list[fsrs.Card]:
    """The card after each review of ``sequence``, by fsrs alone."""
    card = fsrs.Card(card_id=1, due=sequence[0][1])
    cards = []
    for rating, when in sequence:
        card, _ = scheduler.review_card(card, rating, when)
        cards.append(card)
    return cards


def as_tuple(card: Memory | fsrs.Card) -> tuple:
    return (int(card.state), card.stability, card.difficulty, card.due, card.last_review)


SEQUENCES = {
    "good-good-forgot-hard-easy": [
        (Rating.Good, T0),
        (Rating.Good, T0 + days(2)),
        (Rating.Again, T0 + days(13)),
        (Rating.Hard, T0 + days(14)),
        (Rating.Easy, T0 + days(20)),
    ],
    # A review later the same day (FSRS's short-term stability) and one well before it is due.
    "same-day-and-early": [
        (Rating.Hard, T0),
        (Rating.Good, T0 + hours(5)),
        (Rating.Easy, T0 + days(1) + hours(1)),
        (Rating.Good, T0 + days(3)),
        (Rating.Again, T0 + days(3) + hours(2)),
        (Rating.Good, T0 + days(4)),
    ],
    # Long overdue: reviewed months after it came due.
    "easy-then-late": [
        (Rating.Easy, T0),
        (Rating.Good, T0 + days(120)),
        (Rating.Again, T0 + days(400)),
        (Rating.Good, T0 + days(401)),
    ],
    "forgot-first": [
        (Rating.Again, T0),
        (Rating.Again, T0 + days(1)),
        (Rating.Good, T0 + days(2)),
        (Rating.Good, T0 + days(5)),
    ],
}


# Scheduling: the same as fsrs, step by step


@pytest.mark.parametrize("sequence", SEQUENCES.values(), ids=SEQUENCES.keys())
def test_a_review_sequence_gives_what_fsrs_gives_at_every_step(sequence):
    mine = replay(sequence)
    theirs = replay_fsrs(sequence, reference())

    for step, (memory_after, card_after) in enumerate(zip(mine, theirs, strict=True)):
        assert as_tuple(memory_after) == as_tuple(card_after), f"review {step + 1}"


def test_each_review_moves_the_card_the_way_its_rating_says():
    first, second, forgot, hard, easy = replay(SEQUENCES["good-good-forgot-hard-easy"])

    assert first.stability == pytest.approx(2.3065)  # FSRS's initial stability for Good
    assert (first.due - first.last_review) == days(2)
    assert second.stability > first.stability
    assert forgot.stability < second.stability
    assert forgot.difficulty > second.difficulty
    assert easy.stability > hard.stability
    assert [m.last_review for m in (first, second, forgot, hard, easy)] == [
        when for _, when in SEQUENCES["good-good-forgot-hard-easy"]
    ]


@st.composite
def review_sequences(draw, max_reviews: int = 8):
    """A first review at T0, then reviews from minutes to months apart, any rating."""
    ratings = draw(st.lists(st.sampled_from(list(Rating)), min_size=1, max_size=max_reviews))
    gaps = draw(
        st.lists(
            st.integers(min_value=0, max_value=90 * 24 * 60),
            min_size=len(ratings) - 1,
            max_size=len(ratings) - 1,
        )
    )
    when = T0
    sequence = [(ratings[0], when)]
    for rating, minutes in zip(ratings[1:], gaps, strict=True):
        when += datetime.timedelta(minutes=minutes)
        sequence.append((rating, when))
    return sequence


@given(review_sequences())
def test_any_review_sequence_gives_what_fsrs_gives(sequence):
    assert [as_tuple(m) for m in replay(sequence)] == [
        as_tuple(card) for card in replay_fsrs(sequence, reference())
    ]


@given(review_sequences(), st.sampled_from([0.8, 0.85, 0.9, 0.95]))
def test_the_desired_retention_is_the_one_fsrs_schedules_with(sequence, retention):
    scheduler = memory.scheduler(retention, fuzz=False)

    assert [as_tuple(m) for m in replay(sequence, scheduler)] == [
        as_tuple(card) for card in replay_fsrs(sequence, reference(desired_retention=retention))
    ]


@pytest.mark.parametrize("rating", list(Rating))
def test_scheduling_is_in_whole_days_even_after_forgetting(rating):
    """No minute learning steps: every rating, on a new card or a known one, schedules days."""
    new = memory.first_review(rating, T0, PLAIN)
    known = memory.review(replay(SEQUENCES["easy-then-late"])[1], rating, T0 + days(200), PLAIN)

    for card, when in ((new, T0), (known, T0 + days(200))):
        interval = card.due - when
        assert interval >= days(1)
        assert interval % days(1) == datetime.timedelta(0)
        assert card.state == fsrs.State.Review


@pytest.mark.parametrize("sequence", SEQUENCES.values(), ids=SEQUENCES.keys())
def test_with_fuzz_the_due_day_lies_in_fsrs_range_and_the_memory_is_unchanged(sequence):
    plain = replay(sequence)
    random.seed(20260302)
    for step, (rating, when) in enumerate(sequence):
        before = plain[step - 1] if step else None
        fuzzed = (
            memory.first_review(rating, when, FUZZED)
            if before is None
            else memory.review(before, rating, when, FUZZED)
        )
        exact = plain[step]
        assert (fuzzed.state, fuzzed.stability, fuzzed.difficulty, fuzzed.last_review) == (
            exact.state,
            exact.stability,
            exact.difficulty,
            exact.last_review,
        )
        low, high = fuzz_range((exact.due - when).days)
        assert low <= (fuzzed.due - when).days <= high, f"review {step + 1}"


@given(review_sequences(max_reviews=5), st.integers(min_value=0, max_value=2**32 - 1))
def test_with_fuzz_the_due_moment_is_fsrs_own_for_the_same_random_draw(sequence, seed):
    random.seed(seed)
    mine = replay(sequence, FUZZED)
    random.seed(seed)
    theirs = replay_fsrs(sequence, reference(fuzz=True))

    assert [as_tuple(m) for m in mine] == [as_tuple(card) for card in theirs]


def test_fuzz_really_spreads_long_intervals():
    known = replay(SEQUENCES["easy-then-late"])[1]  # a stability of months
    random.seed(7)

    due_days = {
        (memory.review(known, Rating.Good, T0 + days(200), FUZZED).due - T0).days for _ in range(50)
    }

    assert len(due_days) > 1


# Aware datetimes only


NAIVE = datetime.datetime(2026, 3, 2, 9, 30)


def test_a_first_review_refuses_a_naive_datetime():
    with pytest.raises(ValueError):
        memory.first_review(Rating.Good, NAIVE, PLAIN)


def test_a_review_refuses_a_naive_datetime():
    card = memory.first_review(Rating.Good, T0, PLAIN)

    with pytest.raises(ValueError):
        memory.review(card, Rating.Good, NAIVE + days(3), PLAIN)


def test_recall_refuses_a_naive_datetime():
    card = memory.first_review(Rating.Good, T0, PLAIN)

    with pytest.raises(ValueError):
        memory.recall(card, NAIVE + days(3), PLAIN)


def test_an_aware_datetime_in_any_zone_is_the_same_moment_in_utc():
    paris = T0.astimezone(ZoneInfo("Europe/Paris"))
    auckland = (T0 + days(4)).astimezone(ZoneInfo("Pacific/Auckland"))

    in_zones = memory.review(
        memory.first_review(Rating.Good, paris, PLAIN), Rating.Hard, auckland, PLAIN
    )
    in_utc = memory.review(
        memory.first_review(Rating.Good, T0, PLAIN), Rating.Hard, T0 + days(4), PLAIN
    )

    assert in_zones == in_utc
    assert in_zones.due.utcoffset() == datetime.timedelta(0)


# Recall


@pytest.mark.parametrize("sequence", SEQUENCES.values(), ids=SEQUENCES.keys())
@pytest.mark.parametrize("later", [0, 0.5, 1, 2, 7, 30, 365])
def test_recall_is_fsrs_retrievability(sequence, later):
    card = replay(sequence)[-1]
    theirs = replay_fsrs(sequence, reference())[-1]
    at = card.last_review + days(later)

    assert memory.recall(card, at, PLAIN) == reference().get_card_retrievability(theirs, at)


def test_a_card_never_reviewed_has_no_recall():
    never = Memory(state=1, stability=None, difficulty=None, due=T0, last_review=None)

    assert memory.recall(None, T0, PLAIN) == 0.0
    assert memory.recall(never, T0 + days(1), PLAIN) == 0.0


def test_recall_is_full_right_after_a_review_and_falls_as_days_pass():
    card = memory.first_review(Rating.Good, T0, PLAIN)

    figures = [memory.recall(card, T0 + days(n), PLAIN) for n in (0, 1, 2, 30)]

    assert figures[0] == 1.0
    assert figures == sorted(figures, reverse=True)
    assert figures[-1] < 0.8  # a month without a review: under the ready bar


@given(
    review_sequences(max_reviews=5),
    st.integers(min_value=0, max_value=400 * 24),
    st.integers(min_value=0, max_value=400 * 24),
)
def test_recall_never_rises_as_time_passes_without_a_review(sequence, first, second):
    card = replay(sequence)[-1]
    earlier, later = sorted((first, second))

    before = memory.recall(card, card.last_review + hours(earlier), PLAIN)
    after = memory.recall(card, card.last_review + hours(later), PLAIN)

    assert 0.0 <= after <= before <= 1.0


def test_gain_is_what_a_good_review_now_adds_to_recall_on_exam_day():
    card = memory.first_review(Rating.Good, T0, PLAIN)
    now, exam = T0 + days(3), T0 + days(30)
    reviewed = memory.review(card, Rating.Good, now, PLAIN)

    gained = memory.gain(card, now, exam, PLAIN)

    assert gained > 0
    assert gained == pytest.approx(
        memory.recall(reviewed, exam, PLAIN) - memory.recall(card, exam, PLAIN)
    )


@pytest.mark.parametrize("exam_in", [0, -1, -30])
def test_nothing_is_gained_for_an_exam_already_here_or_past(exam_in):
    card = memory.first_review(Rating.Good, T0, PLAIN)
    now = T0 + days(3)

    assert memory.gain(card, now, now + days(exam_in), PLAIN) == 0.0


# The review queue

NOW = datetime.datetime(2026, 3, 10, 14, 0, tzinfo=UTC)
START = datetime.datetime(2026, 3, 10, tzinfo=UTC)
END = START + days(1)
EXAM = START + days(30)


def candidate(
    key: str,
    *,
    due: datetime.datetime,
    last_review: datetime.datetime,
    stability: float = 2.3065,
    weight: float = 10,
    reviews: int = 2,
) -> Candidate:
    return Candidate(
        key=key,
        reviews=reviews,
        memory=Memory(
            state=int(fsrs.State.Review),
            stability=stability,
            difficulty=5.0,
            due=due,
            last_review=last_review,
        ),
        weight=weight,
    )


def todays_queue(cards, *, cap: int = 40, exam_at=EXAM, now=NOW) -> list:
    return memory.queue(
        cards,
        now=now,
        end_of_today=END,
        start_of_today=START,
        exam_at=exam_at,
        cap=cap,
        fsrs=PLAIN,
    )


def due_card(key: str, due: datetime.datetime) -> Candidate:
    return candidate(key, due=due, last_review=due - days(2))


def test_due_cards_come_first_the_longest_overdue_first():
    cards = [
        due_card("later-today", NOW + hours(5)),
        due_card("three-days-over", START - days(3)),
        due_card("tomorrow", END),  # due the moment today ends: not today
        due_card("yesterday", START - days(1)),
    ]

    assert todays_queue(cards, exam_at=None) == ["three-days-over", "yesterday", "later-today"]


def test_is_due_reads_the_end_of_today():
    assert memory.is_due(due_card("a", END - datetime.timedelta(microseconds=1)).memory, END)
    assert not memory.is_due(due_card("b", END).memory, END)


@pytest.mark.parametrize(
    ("reviewed_at", "shown"),
    [
        (START + hours(1), 2),  # two reviews this morning leave room for two of four
        (START - datetime.timedelta(seconds=1), 4),  # last night's reviews count for yesterday
    ],
)
def test_the_daily_cap_counts_the_cards_reviewed_today(reviewed_at, shown):
    overdue = [due_card(f"due-{n}", START - days(5 - n)) for n in range(4)]
    reviewed = [
        candidate(f"reviewed-{n}", due=NOW + days(3), last_review=reviewed_at) for n in range(2)
    ]

    queue = todays_queue(overdue + reviewed, cap=4, exam_at=None)

    assert queue == [card.key for card in overdue[:shown]]


def test_ticks_and_misses_made_today_use_none_of_the_daily_cap():
    overdue = [due_card(f"due-{n}", START - days(5 - n)) for n in range(4)]
    # Ticked (or missed) this morning: a first review, no review from the queue.
    ticked = [
        candidate(f"ticked-{n}", due=NOW + days(2), last_review=START + hours(1), reviews=1)
        for n in range(4)
    ]

    assert todays_queue(overdue + ticked, cap=4, exam_at=None) == [card.key for card in overdue]


def test_a_day_with_the_cap_reached_offers_nothing_even_when_due():
    overdue = [due_card("due", START - days(1))]
    reviewed = [candidate(f"r{n}", due=NOW + days(3), last_review=NOW - hours(1)) for n in range(3)]

    assert todays_queue(overdue + reviewed, cap=3) == []


def early_cards() -> list[Candidate]:
    return [
        # Reviewed three days ago, low stability: gains most from a review today.
        candidate("steep", due=END + days(1), last_review=NOW - days(3), weight=10),
        # The same memory in a domain with a larger share of the exam.
        candidate("steep-heavy", due=END + days(1), last_review=NOW - days(3), weight=25),
        # Steadier: gains less, but its domain weighs 25.
        candidate(
            "steady-heavy", due=END + days(5), last_review=NOW - days(5), stability=10, weight=25
        ),
        # Known for a year: a review today adds next to nothing by exam day.
        candidate("known", due=END + days(200), last_review=NOW - days(1), stability=365),
    ]


def test_early_cards_come_by_exam_day_gain_times_exam_weight():
    cards = early_cards()
    gains = {card.key: memory.gain(card.memory, NOW, EXAM, PLAIN) for card in cards}
    assert gains["steep"] > gains["steady-heavy"] > memory.MIN_EARLY_GAIN > gains["known"]

    assert todays_queue(cards) == ["steep-heavy", "steady-heavy", "steep"]


def test_due_cards_come_before_early_ones_and_early_ones_fill_only_the_room_left():
    overdue = [due_card("due-a", START - days(2)), due_card("due-b", START - days(1))]

    assert todays_queue(early_cards() + overdue, cap=3) == ["due-a", "due-b", "steep-heavy"]
    assert todays_queue(early_cards() + overdue, cap=2) == ["due-a", "due-b"]


@pytest.mark.parametrize("exam_at", [None, NOW, NOW - days(1)], ids=["none", "now", "past"])
def test_no_early_cards_without_an_exam_ahead(exam_at):
    overdue = [due_card("due", START - days(1))]

    assert todays_queue(early_cards() + overdue, exam_at=exam_at) == ["due"]


def test_a_card_reviewed_today_is_not_offered_early():
    late = NOW.replace(hour=23)
    exam = START + days(2)
    this_morning = candidate(
        "this-morning", due=END + days(1), last_review=START + hours(1), stability=0.05
    )
    last_night = candidate(
        "last-night", due=END + days(1), last_review=START - hours(1), stability=0.05
    )
    for card in (this_morning, last_night):
        assert memory.gain(card.memory, late, exam, PLAIN) >= memory.MIN_EARLY_GAIN

    assert todays_queue([this_morning, last_night], exam_at=exam, now=late) == ["last-night"]


@st.composite
def candidates(draw):
    size = draw(st.integers(min_value=0, max_value=12))
    cards = []
    for n in range(size):
        last_review = NOW - datetime.timedelta(minutes=draw(st.integers(0, 60 * 24 * 60)))
        due = last_review + datetime.timedelta(minutes=draw(st.integers(60 * 24, 60 * 24 * 90)))
        cards.append(
            candidate(
                f"card-{n}",
                due=due,
                last_review=last_review,
                stability=draw(st.floats(min_value=0.05, max_value=400)),
                weight=draw(st.sampled_from([5, 10, 15, 20, 25])),
            )
        )
    return cards


@given(
    candidates(),
    st.integers(min_value=0, max_value=10),
    st.none() | st.integers(min_value=-5, max_value=90),
)
def test_the_queue_keeps_its_rules_for_any_cards(cards, cap, exam_in):
    exam_at = None if exam_in is None else START + days(exam_in)
    by_key = {card.key: card for card in cards}
    reviewed_today = sum(1 for card in cards if card.memory.last_review >= START)
    due = sorted(
        (card for card in cards if memory.is_due(card.memory, END)),
        key=lambda card: (card.memory.due, card.key),
    )

    queue = todays_queue(cards, cap=cap, exam_at=exam_at)

    assert len(queue) <= cap
    assert len(queue) <= max(0, cap - reviewed_today)
    assert len(set(queue)) == len(queue)
    room = max(0, cap - reviewed_today)
    assert queue[: min(room, len(due))] == [card.key for card in due[:room]]
    for key in queue[len(due) :]:
        card = by_key[key]
        assert exam_at is not None and exam_at > NOW
        assert not memory.is_due(card.memory, END)
        assert card.memory.last_review < START
        assert memory.gain(card.memory, NOW, exam_at, PLAIN) >= memory.MIN_EARLY_GAIN
