"""progress.memory.scheduling, pure: the glue must give what `fsrs` itself gives for the same
reviews when fsrs is handed each of the learner's days as that date's midnight UTC, time must be
counted in the learner's days (a review the evening before is a day before), and the review queue
must follow its rules (due first, the daily cap, early cards by weighted gain)."""

import datetime
import random
from zoneinfo import ZoneInfo

import fsrs
import pytest
from fsrs import Rating
from hypothesis import given
from hypothesis import strategies as st

from progress.memory import scheduling as memory
from progress.memory.scheduling import Candidate, Memory
from tests.conftest import days
from tests.fsrs_fuzz import fuzz_range

UTC = datetime.UTC
T0 = datetime.datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
PLAIN = memory.scheduler(0.9, fuzz=False)
FUZZED = memory.scheduler(0.9)

NEW_YORK = ZoneInfo("America/New_York")  # UTC-5 in early March 2026 (DST from 8 March)
AUCKLAND = ZoneInfo("Pacific/Auckland")  # UTC+13 in March 2026
ZONES = {
    "UTC": UTC,
    "New York": NEW_YORK,
    "Auckland": AUCKLAND,
    "Kolkata": ZoneInfo("Asia/Kolkata"),
}


def hours(n: float) -> datetime.timedelta:
    return datetime.timedelta(hours=n)


def midnight_utc(day: datetime.date) -> datetime.datetime:
    """A day as the reference fsrs replay is handed it (written here, not taken from the glue)."""
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=UTC)


def day_start_in(zone: datetime.tzinfo):
    """The learner's start of day in ``zone``: the ``day_start`` the glue is given."""
    return lambda day: datetime.datetime.combine(day, datetime.time.min, tzinfo=zone)


def learner_day(when: datetime.datetime, zone: datetime.tzinfo = UTC) -> datetime.date:
    return when.astimezone(zone).date()


def due_day(card: Memory, zone: datetime.tzinfo = UTC) -> datetime.date:
    """The day a memory is due, read from its due moment (the start of that day in ``zone``)."""
    assert card.due == day_start_in(zone)(card.due.astimezone(zone).date()), "due at a day start"
    return card.due.astimezone(zone).date()


def reference(*, fuzz: bool = False, desired_retention: float = 0.9) -> fsrs.Scheduler:
    """FSRS as the package's own documentation sets it up, with day-scale steps only."""
    return fsrs.Scheduler(
        desired_retention=desired_retention,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=fuzz,
    )


def replay(sequence, scheduler=PLAIN, zone: datetime.tzinfo = UTC) -> list[Memory]:
    """The memory after each review of ``sequence`` ((rating, when) pairs), by
    progress.memory.scheduling, for a learner in ``zone`` (each review's day: its date there)."""
    start = day_start_in(zone)
    memories: list[Memory] = []
    for rating, when in sequence:
        day = learner_day(when, zone)
        if not memories:
            memories.append(memory.first_review(rating, when, day, scheduler, start))
        else:
            memories.append(memory.review(memories[-1], rating, when, day, scheduler, start))
    return memories


def replay_fsrs(sequence, scheduler: fsrs.Scheduler, zone: datetime.tzinfo = UTC) -> list:
    """The card after each review of ``sequence``, by fsrs alone, each review at midnight UTC of
    the learner's day."""
    card = fsrs.Card(card_id=1, due=midnight_utc(learner_day(sequence[0][1], zone)))
    cards = []
    for rating, when in sequence:
        card, _ = scheduler.review_card(card, rating, midnight_utc(learner_day(when, zone)))
        cards.append(card)
    return cards


def mine(card: Memory, zone: datetime.tzinfo = UTC) -> tuple:
    """State, stability, difficulty, due day and day of the last review of a memory."""
    return (card.state, card.stability, card.difficulty, due_day(card, zone), card.last_review_day)


def theirs(card: fsrs.Card) -> tuple:
    """The same of an fsrs card reviewed at midnights UTC (its due is a midnight too)."""
    assert card.due.time() == datetime.time.min and card.last_review.time() == datetime.time.min
    return (
        int(card.state),
        card.stability,
        card.difficulty,
        card.due.date(),
        card.last_review.date(),
    )


def assert_as_fsrs(sequence, scheduler, reference_scheduler, zone=UTC) -> None:
    memories = replay(sequence, scheduler, zone)
    cards = replay_fsrs(sequence, reference_scheduler, zone)
    assert [mine(m, zone) for m in memories] == [theirs(card) for card in cards]
    # The real moment is kept as the last review, the learner's day beside it.
    assert [m.last_review for m in memories] == [when for _, when in sequence]
    assert [m.last_review_day for m in memories] == [learner_day(w, zone) for _, w in sequence]


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
    # Hours apart across midnight: a day apart, not "no time at all".
    "evening-then-morning": [
        (Rating.Good, T0.replace(hour=22)),
        (Rating.Good, T0.replace(hour=22) + hours(9)),
        (Rating.Hard, T0.replace(hour=23, minute=59) + days(3)),
        (Rating.Good, T0.replace(hour=0, minute=1) + days(4)),
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


# Scheduling: the same as fsrs, step by step, on the learner's days


@pytest.mark.parametrize("zone", ZONES.values(), ids=ZONES.keys())
@pytest.mark.parametrize("sequence", SEQUENCES.values(), ids=SEQUENCES.keys())
def test_a_review_sequence_gives_what_fsrs_gives_on_the_same_days_at_every_step(sequence, zone):
    memories = replay(sequence, zone=zone)
    cards = replay_fsrs(sequence, reference(), zone)

    for step, (memory_after, card_after) in enumerate(zip(memories, cards, strict=True)):
        assert mine(memory_after, zone) == theirs(card_after), f"review {step + 1}"
        assert memory_after.last_review == sequence[step][1]
    assert_as_fsrs(sequence, PLAIN, reference(), zone)


def test_each_review_moves_the_card_the_way_its_rating_says():
    sequence = SEQUENCES["good-good-forgot-hard-easy"]
    first, second, forgot, hard, easy = replay(sequence)

    assert first.stability == pytest.approx(2.3065)  # FSRS's initial stability for Good
    assert first.due == midnight_utc(T0.date() + days(2))  # the start of the day 2 days on
    assert second.stability > first.stability
    assert forgot.stability < second.stability
    assert forgot.difficulty > second.difficulty
    assert easy.stability > hard.stability
    assert [m.last_review for m in (first, second, forgot, hard, easy)] == [w for _, w in sequence]
    assert [m.last_review_day for m in (first, second, forgot, hard, easy)] == [
        w.date() for _, w in sequence
    ]


def test_the_due_moment_is_the_start_of_the_due_day_where_the_learner_is():
    day = learner_day(T0, AUCKLAND)  # 22:30 on 2 March in Auckland

    card = memory.first_review(Rating.Good, T0, day, PLAIN, day_start_in(AUCKLAND))

    assert day == datetime.date(2026, 3, 2)
    assert card.due == datetime.datetime(2026, 3, 4, tzinfo=AUCKLAND)
    assert card.due.astimezone(UTC) == datetime.datetime(2026, 3, 3, 11, tzinfo=UTC)
    assert card.last_review == T0 and card.last_review_day == day


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


@given(review_sequences(), st.sampled_from(list(ZONES.values())))
def test_any_review_sequence_gives_what_fsrs_gives_on_the_same_days(sequence, zone):
    assert_as_fsrs(sequence, PLAIN, reference(), zone)


@given(review_sequences(), st.sampled_from([0.8, 0.85, 0.9, 0.95]))
def test_the_desired_retention_is_the_one_fsrs_schedules_with(sequence, retention):
    scheduler = memory.scheduler(retention, fuzz=False)

    assert_as_fsrs(sequence, scheduler, reference(desired_retention=retention))


# Time in the learner's days: the evening before is a day before

EVENING = datetime.datetime(2026, 3, 2, 22, 0, tzinfo=UTC)
D = EVENING.date()


def test_a_review_the_evening_before_leaves_recall_below_full_the_next_day():
    card = memory.first_review(Rating.Good, EVENING, D, PLAIN, day_start_in(UTC))
    fsrs_card, _ = reference().review_card(fsrs.Card(card_id=1), Rating.Good, midnight_utc(D))

    same_day = memory.recall(card, D, PLAIN)
    next_day = memory.recall(card, D + days(1), PLAIN)

    assert same_day == 1.0
    assert next_day < 1.0
    # FSRS's retrievability one day after the review, however few hours remained of day D.
    assert next_day == reference().get_card_retrievability(fsrs_card, midnight_utc(D) + days(1))
    just_after_midnight = memory.first_review(
        Rating.Good, midnight_utc(D) + hours(0.02), D, PLAIN, day_start_in(UTC)
    )
    assert memory.recall(just_after_midnight, D + days(1), PLAIN) == next_day
    # Counted in 24-hour periods, as fsrs would count the real moments, it would be no time.
    real, _ = reference().review_card(fsrs.Card(card_id=1), Rating.Good, EVENING)
    assert reference().get_card_retrievability(real, EVENING + hours(4)) == 1.0


def test_a_review_the_evening_before_the_exam_still_gains_for_exam_day():
    card = memory.first_review(Rating.Good, T0 - days(3), D - days(3), PLAIN, day_start_in(UTC))

    assert memory.gain(card, D, D + days(1), PLAIN) > 0


@pytest.mark.parametrize("elapsed", [0, 1, 2, 7, 30])
def test_recall_counts_the_days_between_the_dates_not_the_hours(elapsed):
    card = memory.first_review(Rating.Good, EVENING, D, PLAIN, day_start_in(UTC))
    fsrs_card, _ = reference().review_card(fsrs.Card(card_id=1), Rating.Good, midnight_utc(D))

    figure = memory.recall(card, D + days(elapsed), PLAIN)

    assert figure == reference().get_card_retrievability(fsrs_card, midnight_utc(D) + days(elapsed))
    assert (figure == 1.0) == (elapsed == 0)


@pytest.mark.parametrize("rating", list(Rating))
def test_two_reviews_on_one_day_take_fsrs_same_day_path_however_many_hours_apart(rating):
    """Reviews at 00:01 and 23:59 of one day are 0 days apart: fsrs's short-term stability."""
    start = day_start_in(UTC)
    morning = memory.first_review(Rating.Good, midnight_utc(D) + hours(0.02), D, PLAIN, start)
    again = memory.review(morning, rating, midnight_utc(D) + hours(23.98), D, PLAIN, start)

    first, _ = reference().review_card(fsrs.Card(card_id=1), Rating.Good, midnight_utc(D))
    same_day, _ = reference().review_card(first, rating, midnight_utc(D))  # a 0-day gap
    next_day, _ = reference().review_card(first, rating, midnight_utc(D) + days(1))

    assert mine(again) == theirs(same_day)
    assert (again.stability, again.difficulty) != (next_day.stability, next_day.difficulty)


@pytest.mark.parametrize("rating", list(Rating))
def test_two_reviews_hours_apart_across_midnight_are_a_day_apart(rating):
    start = day_start_in(UTC)
    evening = memory.first_review(Rating.Good, EVENING, D, PLAIN, start)
    morning = memory.review(evening, rating, EVENING + hours(4), D + days(1), PLAIN, start)

    first, _ = reference().review_card(fsrs.Card(card_id=1), Rating.Good, midnight_utc(D))
    next_day, _ = reference().review_card(first, rating, midnight_utc(D) + days(1))

    assert mine(morning) == theirs(next_day)


# Days follow the learner's calendar

# The same two moments, three hours apart: 2 and 3 March in UTC, both 2 March in New York.
LATE = datetime.datetime(2026, 3, 2, 22, 30, tzinfo=UTC)
LATER = LATE + hours(3)


def test_the_same_two_moments_are_a_day_apart_for_one_learner_and_none_for_another():
    assert (learner_day(LATE), learner_day(LATER)) == (D, D + days(1))
    assert learner_day(LATE, NEW_YORK) == learner_day(LATER, NEW_YORK) == D

    by_utc = memory.first_review(Rating.Good, LATE, learner_day(LATE), PLAIN, day_start_in(UTC))
    by_ny = memory.first_review(
        Rating.Good, LATE, learner_day(LATE, NEW_YORK), PLAIN, day_start_in(NEW_YORK)
    )

    # Recall on the day of the later moment: one day on for the one, the same day for the other.
    assert memory.recall(by_utc, learner_day(LATER), PLAIN) < 1.0
    assert memory.recall(by_ny, learner_day(LATER, NEW_YORK), PLAIN) == 1.0

    # A second review at the later moment: elapsed 1 day for the one, 0 for the other.
    utc_after = memory.review(
        by_utc, Rating.Good, LATER, learner_day(LATER), PLAIN, day_start_in(UTC)
    )
    ny_after = memory.review(
        by_ny, Rating.Good, LATER, learner_day(LATER, NEW_YORK), PLAIN, day_start_in(NEW_YORK)
    )
    first, _ = reference().review_card(fsrs.Card(card_id=1), Rating.Good, midnight_utc(D))
    one_day, _ = reference().review_card(first, Rating.Good, midnight_utc(D) + days(1))
    no_day, _ = reference().review_card(first, Rating.Good, midnight_utc(D))
    assert mine(utc_after) == theirs(one_day)
    assert mine(ny_after, NEW_YORK) == theirs(no_day)
    assert utc_after.stability != ny_after.stability


def test_the_day_given_decides_not_the_moment():
    """Same moments, different days: the days count; the moments are only kept."""
    start = day_start_in(UTC)
    a = memory.first_review(Rating.Good, LATE, D, PLAIN, start)
    one = memory.review(a, Rating.Hard, LATE, D + days(1), PLAIN, start)
    none = memory.review(a, Rating.Hard, LATE, D, PLAIN, start)

    assert one.stability != none.stability
    assert one.last_review == none.last_review == LATE
    assert (one.last_review_day, none.last_review_day) == (D + days(1), D)


def test_reviewed_on_is_the_learner_day_kept_or_for_an_old_card_its_utc_date():
    # 23:30 on 2 March in New York is 04:30 on 3 March in UTC.
    moment = datetime.datetime(2026, 3, 2, 23, 30, tzinfo=NEW_YORK)
    kept = Memory(2, 2.3065, 2.1, moment + days(2), moment, D)
    old = Memory(2, 2.3065, 2.1, moment + days(2), moment)
    never = Memory(1, None, None, moment, None)

    assert memory.reviewed_on(kept) == D
    assert memory.reviewed_on(old) == D + days(1)
    assert memory.reviewed_on(never) is None
    assert memory.to_card(kept).last_review == midnight_utc(D)
    assert memory.to_card(old).last_review == midnight_utc(D + days(1))
    assert memory.to_card(never).last_review is None
    # An old card's days count from its UTC date.
    assert memory.recall(old, D + days(1), PLAIN) == 1.0
    assert memory.recall(kept, D + days(1), PLAIN) < 1.0


# Whole days, and fuzz within fsrs's range


@pytest.mark.parametrize("zone", [UTC, AUCKLAND], ids=["UTC", "Auckland"])
@pytest.mark.parametrize("rating", list(Rating))
def test_scheduling_is_in_whole_days_even_after_forgetting(rating, zone):
    """No minute learning steps: every rating, on a new card or a known one, schedules days,
    due at the start of the learner's due day."""
    start = day_start_in(zone)
    later = T0 + days(200)
    new = memory.first_review(rating, T0, learner_day(T0, zone), PLAIN, start)
    known = memory.review(
        replay(SEQUENCES["easy-then-late"], zone=zone)[1],
        rating,
        later,
        learner_day(later, zone),
        PLAIN,
        start,
    )

    for card, when in ((new, T0), (known, later)):
        day = learner_day(when, zone)
        assert (due_day(card, zone) - day).days >= 1
        assert card.due == start(due_day(card, zone))
        assert card.state == fsrs.State.Review


@pytest.mark.parametrize("rating", list(Rating))
def test_days_until_due_is_the_interval_a_review_would_schedule(rating):
    known = replay(SEQUENCES["easy-then-late"])[1]
    day = D + days(200)

    interval = memory.days_until_due(known, rating, day, PLAIN)
    reviewed = memory.review(known, rating, EVENING, day, PLAIN, day_start_in(UTC))

    assert interval >= 1
    assert interval == (due_day(reviewed) - day).days
    assert memory.days_until_due(Memory(1, None, None, T0, None), Rating.Good, D, PLAIN) == 2


@pytest.mark.parametrize("sequence", SEQUENCES.values(), ids=SEQUENCES.keys())
def test_with_fuzz_the_due_day_lies_in_fsrs_range_and_the_memory_is_unchanged(sequence):
    plain = replay(sequence)
    random.seed(20260302)
    start = day_start_in(UTC)
    for step, (rating, when) in enumerate(sequence):
        before = plain[step - 1] if step else None
        day = learner_day(when)
        fuzzed = (
            memory.first_review(rating, when, day, FUZZED, start)
            if before is None
            else memory.review(before, rating, when, day, FUZZED, start)
        )
        exact = plain[step]
        assert (
            fuzzed.state,
            fuzzed.stability,
            fuzzed.difficulty,
            fuzzed.last_review,
            fuzzed.last_review_day,
        ) == (exact.state, exact.stability, exact.difficulty, exact.last_review, day)
        low, high = fuzz_range((due_day(exact) - day).days)
        assert low <= (due_day(fuzzed) - day).days <= high, f"review {step + 1}"


@given(
    review_sequences(max_reviews=5),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.sampled_from(list(ZONES.values())),
)
def test_with_fuzz_the_due_day_is_fsrs_own_for_the_same_random_draw(sequence, seed, zone):
    random.seed(seed)
    memories = replay(sequence, FUZZED, zone)
    random.seed(seed)
    cards = replay_fsrs(sequence, reference(fuzz=True), zone)

    assert [mine(m, zone) for m in memories] == [theirs(card) for card in cards]


def test_fuzz_really_spreads_long_intervals():
    known = replay(SEQUENCES["easy-then-late"])[1]  # a stability of months
    day = D + days(200)
    random.seed(7)

    due_days = {
        due_day(memory.review(known, Rating.Good, EVENING, day, FUZZED, day_start_in(UTC)))
        for _ in range(50)
    }
    intervals = {memory.days_until_due(known, Rating.Good, day, FUZZED) for _ in range(50)}

    assert len(due_days) > 1
    assert len(intervals) > 1


# Aware datetimes only

NAIVE = datetime.datetime(2026, 3, 2, 9, 30)


def test_a_first_review_refuses_a_naive_datetime():
    with pytest.raises(ValueError):
        memory.first_review(Rating.Good, NAIVE, NAIVE.date(), PLAIN, day_start_in(UTC))


def test_a_review_refuses_a_naive_datetime():
    card = memory.first_review(Rating.Good, T0, T0.date(), PLAIN, day_start_in(UTC))
    later = NAIVE + days(3)

    with pytest.raises(ValueError):
        memory.review(card, Rating.Good, later, later.date(), PLAIN, day_start_in(UTC))


def test_an_old_card_with_a_naive_last_review_is_refused():
    old = Memory(2, 2.3065, 2.1, T0 + days(2), NAIVE)

    with pytest.raises(ValueError):
        memory.reviewed_on(old)
    with pytest.raises(ValueError):
        memory.recall(old, D + days(3), PLAIN)
    with pytest.raises(ValueError):
        memory.review(old, Rating.Good, T0 + days(3), D + days(3), PLAIN, day_start_in(UTC))


def test_a_card_with_a_naive_due_moment_is_refused():
    card = Memory(2, 2.3065, 2.1, NAIVE + days(2), T0, D)

    with pytest.raises(ValueError):
        memory.review(card, Rating.Good, T0 + days(3), D + days(3), PLAIN, day_start_in(UTC))


def test_the_zone_a_moment_is_written_in_changes_nothing_for_the_same_days():
    paris = T0.astimezone(ZoneInfo("Europe/Paris"))
    auckland = (T0 + days(4)).astimezone(AUCKLAND)
    start = day_start_in(UTC)

    in_zones = memory.review(
        memory.first_review(Rating.Good, paris, T0.date(), PLAIN, start),
        Rating.Hard,
        auckland,
        T0.date() + days(4),
        PLAIN,
        start,
    )
    in_utc = memory.review(
        memory.first_review(Rating.Good, T0, T0.date(), PLAIN, start),
        Rating.Hard,
        T0 + days(4),
        T0.date() + days(4),
        PLAIN,
        start,
    )

    assert in_zones == in_utc
    assert in_zones.last_review == T0 + days(4)
    assert in_zones.due.utcoffset() == datetime.timedelta(0)


# Recall


@pytest.mark.parametrize("sequence", SEQUENCES.values(), ids=SEQUENCES.keys())
@pytest.mark.parametrize("later", [0, 1, 2, 7, 30, 365])
def test_recall_is_fsrs_retrievability_the_same_days_on(sequence, later):
    card = replay(sequence)[-1]
    fsrs_card = replay_fsrs(sequence, reference())[-1]
    day = card.last_review_day + days(later)

    assert memory.recall(card, day, PLAIN) == reference().get_card_retrievability(
        fsrs_card, midnight_utc(day)
    )


def test_a_card_never_reviewed_has_no_recall():
    never = Memory(state=1, stability=None, difficulty=None, due=T0, last_review=None)

    assert memory.recall(None, D, PLAIN) == 0.0
    assert memory.recall(never, D + days(1), PLAIN) == 0.0


def test_recall_is_full_on_the_day_of_a_review_and_falls_as_days_pass():
    card = memory.first_review(Rating.Good, T0, D, PLAIN, day_start_in(UTC))

    figures = [memory.recall(card, D + days(n), PLAIN) for n in (0, 1, 2, 30)]

    assert figures[0] == 1.0
    assert figures == sorted(figures, reverse=True)
    assert len(set(figures)) == len(figures)
    assert figures[-1] < 0.8  # a month without a review: under the ready bar


@given(
    review_sequences(max_reviews=5),
    st.integers(min_value=0, max_value=400),
    st.integers(min_value=0, max_value=400),
)
def test_recall_never_rises_as_days_pass_without_a_review(sequence, first, second):
    card = replay(sequence)[-1]
    earlier, later = sorted((first, second))

    before = memory.recall(card, card.last_review_day + days(earlier), PLAIN)
    after = memory.recall(card, card.last_review_day + days(later), PLAIN)

    assert 0.0 <= after <= before <= 1.0


def test_gain_is_what_a_good_review_today_adds_to_recall_on_exam_day():
    start = day_start_in(UTC)
    card = memory.first_review(Rating.Good, T0, D, PLAIN, start)
    today, exam = D + days(3), D + days(30)
    reviewed = memory.review(card, Rating.Good, EVENING + days(3), today, PLAIN, start)

    gained = memory.gain(card, today, exam, PLAIN)

    assert gained > 0
    assert gained == memory.recall(reviewed, exam, PLAIN) - memory.recall(card, exam, PLAIN)


@pytest.mark.parametrize("exam_in", [0, -1, -30])
def test_nothing_is_gained_for_an_exam_today_or_past(exam_in):
    card = memory.first_review(Rating.Good, T0, D, PLAIN, day_start_in(UTC))
    today = D + days(3)

    assert memory.gain(card, today, today + days(exam_in), PLAIN) == 0.0


# The review queue

TODAY = datetime.date(2026, 3, 10)
START = midnight_utc(TODAY)
NOW = START + hours(14)
END = START + days(1)
EXAM_DAY = TODAY + days(30)


def candidate(
    key: str,
    *,
    due: datetime.datetime,
    day: datetime.date | None,
    at: datetime.datetime | None = None,
    stability: float = 2.3065,
    weight: float = 10,
    reviews: int = 2,
) -> Candidate:
    """A card last reviewed on the learner's ``day`` (None: an old card, its UTC date counts),
    at the moment ``at`` (midday UTC of ``day`` unless given)."""
    if at is None:
        assert day is not None
        at = midnight_utc(day) + hours(12)
    return Candidate(
        key=key,
        reviews=reviews,
        memory=Memory(
            state=int(fsrs.State.Review),
            stability=stability,
            difficulty=5.0,
            due=due,
            last_review=at,
            last_review_day=day,
        ),
        weight=weight,
    )


def todays_queue(cards, *, cap: int = 40, exam_day=EXAM_DAY) -> list:
    return memory.queue(
        cards, today=TODAY, end_of_today=END, exam_day=exam_day, cap=cap, fsrs=PLAIN
    )


def due_card(key: str, due: datetime.datetime) -> Candidate:
    return candidate(key, due=due, day=due.date() - days(2))


def test_due_cards_come_first_the_longest_overdue_first():
    cards = [
        due_card("later-today", NOW + hours(5)),
        due_card("three-days-over", START - days(3)),
        due_card("tomorrow", END),  # due the moment today ends: not today
        due_card("yesterday", START - days(1)),
    ]

    assert todays_queue(cards, exam_day=None) == ["three-days-over", "yesterday", "later-today"]


def test_is_due_reads_the_end_of_today():
    assert memory.is_due(due_card("a", END - datetime.timedelta(microseconds=1)).memory, END)
    assert not memory.is_due(due_card("b", END).memory, END)


@pytest.mark.parametrize(
    ("at", "day", "shown"),
    [
        (START + hours(1), TODAY, 2),  # two reviews this morning leave room for two of four
        (START - datetime.timedelta(seconds=1), TODAY - days(1), 4),  # last night's: yesterday
        # The learner's day decides, not the UTC moment: east of UTC, 23:00 UTC is today...
        (START - hours(1), TODAY, 2),
        # ...and west of UTC, 01:00 UTC today is still yesterday.
        (START + hours(1), TODAY - days(1), 4),
        # An old card without its day: its UTC date.
        (START + hours(1), None, 2),
        (START - datetime.timedelta(seconds=1), None, 4),
    ],
    ids=[
        "this-morning",
        "last-night",
        "today-east-of-utc",
        "yesterday-west-of-utc",
        "old-card-today-in-utc",
        "old-card-yesterday-in-utc",
    ],
)
def test_the_daily_cap_counts_the_cards_reviewed_on_the_learner_today(at, day, shown):
    overdue = [due_card(f"due-{n}", START - days(5 - n)) for n in range(4)]
    reviewed = [candidate(f"reviewed-{n}", due=NOW + days(3), day=day, at=at) for n in range(2)]

    queue = todays_queue(overdue + reviewed, cap=4, exam_day=None)

    assert queue == [card.key for card in overdue[:shown]]


def test_ticks_and_misses_made_today_use_none_of_the_daily_cap():
    overdue = [due_card(f"due-{n}", START - days(5 - n)) for n in range(4)]
    # Ticked (or missed) this morning: a first review, no review from the queue.
    ticked = [candidate(f"ticked-{n}", due=END + days(1), day=TODAY, reviews=1) for n in range(4)]

    assert todays_queue(overdue + ticked, cap=4, exam_day=None) == [card.key for card in overdue]


def test_a_day_with_the_cap_reached_offers_nothing_even_when_due():
    overdue = [due_card("due", START - days(1))]
    reviewed = [candidate(f"r{n}", due=NOW + days(3), day=TODAY) for n in range(3)]

    assert todays_queue(overdue + reviewed, cap=3) == []


def early_cards() -> list[Candidate]:
    return [
        # Reviewed three days ago, low stability: gains most from a review today.
        candidate("steep", due=END + days(1), day=TODAY - days(3), weight=10),
        # The same memory in a domain with a larger share of the exam.
        candidate("steep-heavy", due=END + days(1), day=TODAY - days(3), weight=25),
        # Steadier: gains less, but its domain weighs 25.
        candidate("steady-heavy", due=END + days(5), day=TODAY - days(5), stability=10, weight=25),
        # Known for a year: a review today adds next to nothing by exam day.
        candidate("known", due=END + days(200), day=TODAY - days(1), stability=365),
    ]


def test_early_cards_come_by_exam_day_gain_times_exam_weight():
    cards = early_cards()
    gains = {card.key: memory.gain(card.memory, TODAY, EXAM_DAY, PLAIN) for card in cards}
    assert gains["steep"] == gains["steep-heavy"]
    assert gains["steep"] > gains["steady-heavy"] > memory.MIN_EARLY_GAIN > gains["known"]
    assert 25 * gains["steady-heavy"] > 10 * gains["steep"]

    assert todays_queue(cards) == ["steep-heavy", "steady-heavy", "steep"]


def test_due_cards_come_before_early_ones_and_early_ones_fill_only_the_room_left():
    overdue = [due_card("due-a", START - days(2)), due_card("due-b", START - days(1))]

    assert todays_queue(early_cards() + overdue, cap=3) == ["due-a", "due-b", "steep-heavy"]
    assert todays_queue(early_cards() + overdue, cap=2) == ["due-a", "due-b"]


@pytest.mark.parametrize("exam_day", [None, TODAY, TODAY - days(1)], ids=["none", "today", "past"])
def test_no_early_cards_without_an_exam_ahead(exam_day):
    overdue = [due_card("due", START - days(1))]

    assert todays_queue(early_cards() + overdue, exam_day=exam_day) == ["due"]


def test_a_card_reviewed_on_the_learner_today_is_not_offered_early():
    exam = TODAY + days(2)
    cards = [
        candidate("this-morning", due=END + days(1), day=TODAY, stability=0.05),
        candidate("last-night", due=END + days(1), day=TODAY - days(1), stability=0.05),
        # East of UTC: 23:00 UTC yesterday, today for the learner.
        candidate("today-east", due=END + days(1), day=TODAY, at=START - hours(1), stability=0.05),
        # West of UTC: 01:00 UTC today, yesterday for the learner.
        candidate(
            "yesterday-west",
            due=END + days(1),
            day=TODAY - days(1),
            at=START + hours(1),
            stability=0.05,
        ),
    ]
    for card in cards:
        assert memory.gain(card.memory, TODAY, exam, PLAIN) >= memory.MIN_EARLY_GAIN

    assert todays_queue(cards, exam_day=exam) == ["last-night", "yesterday-west"]


@st.composite
def candidates(draw):
    size = draw(st.integers(min_value=0, max_value=12))
    cards = []
    for n in range(size):
        day = TODAY - days(draw(st.integers(0, 60)))
        # The moment: any time from 14 hours before the day's UTC midnight to 14 after its end,
        # as a learner in any zone may have reviewed on that day.
        at = midnight_utc(day) + datetime.timedelta(minutes=draw(st.integers(-14 * 60, 38 * 60)))
        old = draw(st.booleans())  # an old card keeps no day: its UTC date counts
        counted_day = at.date() if old else day
        due = midnight_utc(counted_day + days(draw(st.integers(1, 90)))) + datetime.timedelta(
            minutes=draw(st.integers(-14 * 60, 14 * 60))
        )
        cards.append(
            candidate(
                f"card-{n}",
                due=due,
                day=None if old else day,
                at=at,
                stability=draw(st.floats(min_value=0.05, max_value=400)),
                weight=draw(st.sampled_from([5, 10, 15, 20, 25])),
                reviews=draw(st.integers(min_value=1, max_value=3)),
            )
        )
    return cards


@given(
    candidates(),
    st.integers(min_value=0, max_value=10),
    st.none() | st.integers(min_value=-5, max_value=90),
)
def test_the_queue_keeps_its_rules_for_any_cards(cards, cap, exam_in):
    exam_day = None if exam_in is None else TODAY + days(exam_in)
    by_key = {card.key: card for card in cards}

    def seen_today(card: Candidate) -> bool:
        day = card.memory.last_review_day
        return (day if day is not None else card.memory.last_review.astimezone(UTC).date()) == TODAY

    reviewed_today = sum(1 for card in cards if card.reviews > 1 and seen_today(card))
    room = max(0, cap - reviewed_today)
    due = sorted(
        (card for card in cards if card.memory.due < END),
        key=lambda card: (card.memory.due, card.key),
    )

    queue = todays_queue(cards, cap=cap, exam_day=exam_day)

    assert len(queue) <= room <= cap
    assert len(set(queue)) == len(queue)
    n_due = min(room, len(due))
    assert queue[:n_due] == [card.key for card in due[:room]]
    early = queue[n_due:]
    eligible = [
        card
        for card in cards
        if exam_day is not None
        and exam_day > TODAY
        and card.memory.due >= END
        and not seen_today(card)
        and memory.gain(card.memory, TODAY, exam_day, PLAIN) >= memory.MIN_EARLY_GAIN
    ]
    for key in early:
        card = by_key[key]
        assert exam_day is not None and exam_day > TODAY
        assert not memory.is_due(card.memory, END)
        assert not seen_today(card)
        assert memory.gain(card.memory, TODAY, exam_day, PLAIN) >= memory.MIN_EARLY_GAIN
    # The early ones are the eligible cards of most exam-day gain times weight, as many as fit.
    best = sorted(
        eligible,
        key=lambda card: (
            -memory.gain(card.memory, TODAY, exam_day, PLAIN) * card.weight,
            card.key,
        ),
    )
    assert early == [card.key for card in best[: room - n_due]]
