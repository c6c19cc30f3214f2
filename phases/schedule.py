"""The study calendar, as a pure function of an intensity's hours and a start date.

Phases run back to back, then the revision stretch: some days of revision and a full mock exam
on a day of its own. A phase lasts as many days as its hours take at the intensity's weekly
pace; boundaries come from cumulative hours, so rounding never adds up across six phases.
A calendar fits an exam when all of it, revision and mock included, ends at least a day before.
"""

import datetime
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PhaseSlot:
    number: int
    hours: int
    start: datetime.date
    end: datetime.date  # inclusive: the last day of the phase

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def share_due(self, today: datetime.date) -> float:
        """How much of this phase the calendar expects done as today begins (0 to 1)."""
        if today <= self.start:
            return 0.0
        if today > self.end:
            return 1.0
        return (today - self.start).days / self.days


def quarter_hours(hours: float) -> float:
    """Hours to the nearest quarter hour, at least one quarter: a study day's time as pages say
    it (phases.own_pace.hours_text)."""
    return max(1, round(hours * 4)) / 4


# The study guide's mock: "60 questions in 60 minutes", sat once at exam pace at the end.
MOCK_HOURS = 1


@dataclass(frozen=True)
class Revision:
    """After phase 6: revision days (the review queue and the weakest domain's drills), then the
    full mock on a day of its own, the stretch's last day."""

    start: datetime.date
    mock_day: datetime.date
    hours: int  # the revision days' hours; the mock adds MOCK_HOURS

    @property
    def last_revision_day(self) -> datetime.date:
        return self.mock_day - datetime.timedelta(days=1)

    @property
    def revision_days(self) -> int:
        return (self.mock_day - self.start).days


@dataclass(frozen=True)
class Schedule:
    slots: tuple[PhaseSlot, ...]
    hours_per_week: int
    fitted: bool = False  # compressed to the exam date (fit_to), not an intensity's pace
    revision: Revision | None = None
    shortened: tuple[tuple[int, int], ...] = ()  # (phase, hours saved) by a strong placement
    day_by_day: bool = False  # a short-notice plan: phases by priority, several to a day
    # A plan at the learner's own pace (phases.own_pace): the weekdays studied (0 is Monday) and
    # the hours each study day asks; empty for the guide's schedules, studied any day.
    study_weekdays: tuple[int, ...] = ()
    day_hours: float = 0.0
    # Phases done before the learner re-planned from today (caught up): not laid again, and
    # due in full, as they were done.
    done_before: tuple[int, ...] = ()

    @property
    def own_pace(self) -> bool:
        return bool(self.study_weekdays)

    def hours_between(self, first: datetime.date, last: datetime.date) -> float:
        """The hours the plan asks from ``first`` to ``last`` (inclusive): each study day's
        hours on a plan at the learner's own pace, to the quarter hour as the pages state them
        (three days of "2 h 45" ask 8 h 15, not the 8 h 20 of the unrounded figure), the week's
        hours spread over its seven days on the guide's."""
        days = [
            first + datetime.timedelta(days=offset)
            for offset in range((last - first).days + 1)
            if self.is_study_day(first + datetime.timedelta(days=offset))
        ]
        per_day = quarter_hours(self.day_hours) if self.study_weekdays else self.hours_per_week / 7
        return per_day * len(days)

    def is_study_day(self, day: datetime.date) -> bool:
        """A day the plan has work on: any day from start to finish, or for a plan at the
        learner's own pace, one of their weekdays."""
        if not self.start <= day <= self.finish:
            return False
        return not self.study_weekdays or day.weekday() in self.study_weekdays

    @property
    def start(self) -> datetime.date:
        return min(slot.start for slot in self.slots)

    @property
    def finish(self) -> datetime.date:
        if self.revision is not None:
            return self.revision.mock_day
        return max(slot.end for slot in self.slots)

    @property
    def total_hours(self) -> int:
        revision = self.revision.hours + MOCK_HOURS if self.revision else 0
        return sum(slot.hours for slot in self.slots) + revision

    def saved(self, number: int) -> int:
        """Hours a strong placement took off phase ``number``."""
        return dict(self.shortened).get(number, 0)

    @property
    def days(self) -> int:
        return (self.finish - self.start).days + 1

    @property
    def weeks(self) -> float:
        return round(self.days / 7, 1)

    def current(self, today: datetime.date) -> PhaseSlot | None:
        """The phase the calendar has the learner in today (None before the start or after it)."""
        for slot in self.slots:
            if slot.start <= today <= slot.end:
                return slot
        return None

    def share_due(self, today: datetime.date) -> dict[int, float]:
        return dict.fromkeys(self.done_before, 1.0) | {
            slot.number: slot.share_due(today) for slot in self.slots
        }

    def fits(self, exam_date: datetime.date | None) -> bool:
        """Whether all of it ends at least one day before the exam (always, without one)."""
        return exam_date is None or self.finish < exam_date

    def days_late(self, exam_date: datetime.date | None) -> int:
        """Days the calendar must lose to end the day before the exam; 0 when it fits."""
        if exam_date is None:
            return 0
        return max(0, (self.finish - exam_date).days + 1)


def _slots(
    phase_hours: Sequence[tuple[int, int]],
    start: datetime.date,
    days_after: Callable[[int, int, int], int],
) -> tuple[PhaseSlot, ...]:
    """Phases back to back from ``start``; ``days_after(index, cumulative hours, days used)``
    says on which day (counted from ``start``) each phase ends."""
    slots = []
    cumulative_hours = 0
    days_used = 0
    for index, (number, hours) in enumerate(phase_hours):
        cumulative_hours += hours
        end_day = days_after(index, cumulative_hours, days_used)
        slots.append(
            PhaseSlot(
                number=number,
                hours=hours,
                start=start + datetime.timedelta(days=days_used),
                end=start + datetime.timedelta(days=end_day - 1),
            )
        )
        days_used = end_day
    return tuple(slots)


def _with_revision(
    phase_hours: Sequence[tuple[int, int]],
    revision_hours: int,
    lay: Callable[[Sequence[tuple[int, int]]], tuple[PhaseSlot, ...]],
    hours_per_week: int,
    fitted: bool,
) -> Schedule:
    """Lay the phases, then (with ``revision_hours``) the revision days and the mock's day, as
    two more stretches of the same calendar."""
    if not revision_hours:
        return Schedule(slots=lay(phase_hours), hours_per_week=hours_per_week, fitted=fitted)
    *slots, revising, mock = lay([*phase_hours, (0, revision_hours), (0, MOCK_HOURS)])
    return Schedule(
        slots=tuple(slots),
        hours_per_week=hours_per_week,
        fitted=fitted,
        revision=Revision(start=revising.start, mock_day=mock.end, hours=revision_hours),
    )


def lay_out(
    phase_hours: Sequence[tuple[int, int]],
    hours_per_week: int,
    start: datetime.date,
    *,
    revision_hours: int = 0,
) -> Schedule:
    """Lay phases ``(number, hours)`` end to end from ``start`` at ``hours_per_week``, then
    ``revision_hours`` of revision and the mock."""
    if hours_per_week <= 0:
        raise ValueError("hours_per_week must be positive")
    if not phase_hours:
        raise ValueError("a schedule needs at least one phase")
    return _with_revision(
        phase_hours,
        revision_hours,
        lambda entries: _slots(
            entries,
            start,
            # Every phase gets at least one day, even a one-hour one at a fast pace.
            lambda index, cumulative, days_used: max(
                days_used + 1, math.ceil(cumulative * 7 / hours_per_week)
            ),
        ),
        hours_per_week,
        fitted=False,
    )


@dataclass(frozen=True)
class IntensityOption:
    slug: str
    hours_per_week: int
    phase_hours: tuple[tuple[int, int], ...]
    order: int  # lower is faster: fast track first
    revision_hours: int = 0


def fitting_intensity(
    options: Sequence[IntensityOption], start: datetime.date, exam_date: datetime.date
) -> str | None:
    """The gentlest intensity whose calendar, revision included, ends at least a day before the
    exam, or None if none does.

    The study guide: total hours matter less than leaving the material time to settle, so the
    slowest calendar that still fits is the one to suggest.
    """
    fitting = [
        option
        for option in options
        if lay_out(
            option.phase_hours, option.hours_per_week, start, revision_hours=option.revision_hours
        ).fits(exam_date)
    ]
    if not fitting:
        return None
    return max(fitting, key=lambda option: option.order).slug


# The study guide's hours for most candidates: every schedule plans within them, revision and the
# full mock included (phases.validation), and the home page quotes them.
GUIDE_HOURS = (25, 40)
# A placement that shows the learner strong in a domain halves that domain's share of its phase's
# hours, never taking the plan under the study guide's least.
STRONG_CUT = 0.5
MIN_TOTAL_HOURS = GUIDE_HOURS[0]


def shorten(
    phase_hours: Sequence[tuple[int, int]],
    strong_share: Mapping[int, float],
    *,
    other_hours: int = 0,
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """Phase hours with each phase cut by STRONG_CUT of its strong share (the part of its exam
    weight from domains the learner is strong in), in whole hours, every phase keeping at least
    one; cuts stop where the plan (phases plus ``other_hours``) would fall under
    MIN_TOTAL_HOURS. Returns the new hours and the ``(phase, hours saved)``."""
    room = sum(hours for _, hours in phase_hours) + other_hours - MIN_TOTAL_HOURS
    kept, saved = [], []
    for number, hours in phase_hours:
        cut = min(math.floor(hours * strong_share.get(number, 0.0) * STRONG_CUT), hours - 1)
        cut = max(0, min(cut, room))
        room -= cut
        kept.append((number, hours - cut))
        if cut:
            saved.append((number, cut))
    return tuple(kept), tuple(saved)


# Fitting a plan to the exam date, when no intensity finishes before it.

# The weekly hours past which a fitted plan carries a warning.
HEAVY_WEEK_HOURS = 25
HEAVY_WEEK_TEXT = f"more than {HEAVY_WEEK_HOURS} hours a week is a lot alongside a job"


def phase_weights(
    phase_domains: Sequence[tuple[int, Sequence[tuple[str, float]]]],
) -> tuple[tuple[int, float], ...]:
    """Each phase's share of the exam from its domains ``(slug, exam weight)``; a domain that
    two phases list gives each half its weight, so no domain counts twice."""
    listed: dict[str, int] = {}
    for _, domains in phase_domains:
        for slug, _weight in domains:
            listed[slug] = listed.get(slug, 0) + 1
    return tuple(
        (number, sum(weight / listed[slug] for slug, weight in domains))
        for number, domains in phase_domains
    )


def hours_by_weight(
    total_hours: int, weights: Sequence[tuple[int, float]]
) -> tuple[tuple[int, int], ...]:
    """Split ``total_hours`` across phases ``(number, weight)`` in proportion to weight, in
    whole hours that add up to the total, every phase at least one hour.

    A phase whose share is under an hour gets its one hour and the rest is shared again among
    the others; whole hours then go by the largest remainder, so every phase is less than an
    hour away from its share.
    """
    if not weights:
        raise ValueError("a schedule needs at least one phase")
    if total_hours < len(weights):
        raise ValueError("fewer hours than phases: every phase needs at least one hour")
    if any(weight < 0 for _, weight in weights) or sum(weight for _, weight in weights) <= 0:
        raise ValueError("phase weights must not be negative, nor all zero")
    one_hour: set[int] = set()
    while True:
        shared = [i for i in range(len(weights)) if i not in one_hour]
        hours_left = total_hours - len(one_hour)
        shared_weight = sum(weights[i][1] for i in shared)
        exact = {i: hours_left * weights[i][1] / shared_weight for i in shared}
        under = {i for i, share in exact.items() if share < 1}
        if not under:
            break
        one_hour |= under
    hours = dict.fromkeys(one_hour, 1) | {i: math.floor(share) for i, share in exact.items()}
    by_remainder = sorted(shared, key=lambda i: (hours[i] - exact[i], i))
    for i in by_remainder[: hours_left - sum(hours[i] for i in shared)]:
        hours[i] += 1
    return tuple((number, hours[i]) for i, (number, _) in enumerate(weights))


def fit_to(
    phase_hours: Sequence[tuple[int, int]],
    start: datetime.date,
    exam: datetime.date,
    *,
    revision_hours: int = 0,
) -> Schedule:
    """Phases ``(number, hours)``, then the revision days and the mock, compressed into the days
    from ``start`` to the day before ``exam``: each stretch's days follow its hours, every one
    gets at least one day, and the mock is the day before the exam. The weekly hours it asks
    for are the total hours over the weeks available, rounded up to a whole hour."""
    if not phase_hours:
        raise ValueError("a schedule needs at least one phase")
    available = (exam - start).days
    if available <= 0:
        raise ValueError("the exam must come after the start date")
    stretches = len(phase_hours) + (2 if revision_hours else 0)
    if available < stretches:
        raise ValueError("fewer days before the exam than phases: every phase needs a day")
    total = sum(hours for _, hours in phase_hours) + (
        revision_hours + MOCK_HOURS if revision_hours else 0
    )
    if total <= 0:
        raise ValueError("a schedule needs some hours")

    def lay(entries: Sequence[tuple[int, int]]) -> tuple[PhaseSlot, ...]:
        return _slots(
            entries,
            start,
            # Boundaries come from cumulative hours, held between one day for this stretch and
            # one day for each stretch still to come.
            lambda index, cumulative, days_used: min(
                max(days_used + 1, math.ceil(cumulative * available / total)),
                available - (len(entries) - index - 1),
            ),
        )

    return _with_revision(
        phase_hours, revision_hours, lay, math.ceil(total * 7 / available), fitted=True
    )


# Study sessions a week, for the dashboard's "study days this week".

SESSION_HOURS = 2
MIN_SESSIONS = 3
MAX_SESSIONS = 6
SESSIONS_TEXT = (
    f"your plan's weekly hours in sessions of about {SESSION_HOURS} hours, at least "
    f"{MIN_SESSIONS} a week so the material has time to settle between them and at most "
    f"{MAX_SESSIONS} so one day a week stays free (a long week's sessions run longer)"
)


def sessions_per_week(hours_per_week: int) -> int:
    """Planned study sessions a week: fast track's 20 h make 6 (weekdays and a weekend day),
    standard's 8 h make 4, extended's 4 h make 3."""
    return min(MAX_SESSIONS, max(MIN_SESSIONS, math.ceil(hours_per_week / SESSION_HOURS)))


def session_length(hours_per_week: int) -> str:
    """How long each planned session is, to the half hour: fast track's 20 h in 6 sessions are
    "3½ hours" each, standard's 8 h in 4 are "2 hours", extended's 4 h in 3 are "1½ hours"."""
    halves = max(1, round(hours_per_week * 2 / sessions_per_week(hours_per_week)))
    whole, half = divmod(halves, 2)
    figure = f"{whole or ''}{'½' if half else ''}"
    return f"{figure} hour" if halves <= 2 else f"{figure} hours"
