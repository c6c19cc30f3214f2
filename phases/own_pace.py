"""A plan at the learner's own pace, pure: their hours a week on the weekdays they study.

The phases get their hours by exam weight (phases.schedule.hours_by_weight), then the revision
hours and the one-hour mock on a study day of its own. Without an exam date the work is laid at
the learner's hours, a study day at a time. With one, it is spread over every study day up to
the day before the exam, so the plan ends there and no study day asks more than the learner gives
unless the guide's least hours cannot fit (then every study day asks the same, more, and the
page says so).
"""

import datetime
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from phases.schedule import (
    GUIDE_HOURS,
    MOCK_HOURS,
    PhaseSlot,
    Revision,
    Schedule,
    quarter_hours,
)

WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
# Hours a week the form accepts: one to a full working week's worth of study.
MIN_WEEK_HOURS, MAX_WEEK_HOURS = 1, 40
# Far enough for an hour a week on one weekday to reach the guide's most.
LONGEST_PLAN_DAYS = 7 * GUIDE_HOURS[1] * 2


@dataclass(frozen=True)
class Pace:
    hours_per_week: int
    weekdays: frozenset[int]  # 0 is Monday, as datetime.date.weekday

    def __post_init__(self) -> None:
        if not MIN_WEEK_HOURS <= self.hours_per_week <= MAX_WEEK_HOURS:
            raise ValueError(f"hours a week must be {MIN_WEEK_HOURS} to {MAX_WEEK_HOURS}")
        if not self.weekdays or not set(self.weekdays) <= set(range(7)):
            raise ValueError("choose at least one weekday, 0 (Monday) to 6 (Sunday)")

    @property
    def day_hours(self) -> float:
        """What the learner gives each study day."""
        return self.hours_per_week / len(self.weekdays)

    @property
    def weekday_names(self) -> str:
        return ", ".join(WEEKDAY_NAMES[day] for day in sorted(self.weekdays))


def study_days(
    weekdays: Collection[int], start: datetime.date, before: datetime.date
) -> list[datetime.date]:
    """The study days from ``start`` up to the day before ``before``."""
    return [
        start + datetime.timedelta(days=offset)
        for offset in range((before - start).days)
        if (start + datetime.timedelta(days=offset)).weekday() in weekdays
    ]


def total_hours(
    pace: Pace,
    start: datetime.date,
    exam: datetime.date | None,
    *,
    most: int,
) -> int:
    """The plan's hours, revision and mock included: ``most`` (the default schedule's) without
    an exam date; with one, what the learner's study days before it hold, kept within the
    guide's least and ``most``."""
    if exam is None:
        return most
    available = len(study_days(pace.weekdays, start, exam)) * pace.day_hours
    return max(GUIDE_HOURS[0], min(most, math.floor(available)))


def lay_on_study_days(
    phase_hours: Sequence[tuple[int, int]],
    pace: Pace,
    start: datetime.date,
    exam: datetime.date | None = None,
    *,
    revision_hours: int,
) -> Schedule:
    """Phases ``(number, hours)``, the revision hours and the mock laid on the learner's study
    days from ``start``: at the learner's hours a day without ``exam``, spread evenly over the
    study days before it with one (a ValueError when they are fewer than the stretches). A
    stretch runs from its first study day to the day before the next one starts, so every day
    of the calendar belongs to one stretch."""
    entries = [*phase_hours, (0, revision_hours), (0, MOCK_HOURS)]
    total = sum(hours for _, hours in entries)
    if exam is None:
        days = study_days(pace.weekdays, start, start + datetime.timedelta(days=LONGEST_PLAN_DAYS))
        per_day = pace.day_hours
    else:
        days = study_days(pace.weekdays, start, exam)
        if len(days) < len(entries):
            raise ValueError("fewer study days before the exam than stretches to lay on them")
        per_day = total / len(days)
    # Each stretch ends on the study day its cumulative hours reach, at least one day each; the
    # mock has the last day to itself, and with an exam every stretch leaves one for the rest.
    bounds, used, cumulative = [], 0, 0
    for index, (_, hours) in enumerate(entries):
        cumulative += hours
        end = max(used + 1, math.ceil(cumulative / per_day - 1e-9))
        if index == len(entries) - 1:
            end = used + 1
        elif exam is not None:
            end = min(end, len(days) - (len(entries) - index - 1))
        bounds.append((used, end))
        used = end
    if exam is not None:
        # Spread to the exam: the mock on the last study day before it.
        last = len(days) - 1
        bounds[-1] = (last, last + 1)
        bounds[-2] = (bounds[-2][0], last)
    firsts = [days[first] for first, _ in bounds]
    slots = []
    for index, ((number, hours), (first, end)) in enumerate(zip(entries, bounds, strict=True)):
        last_day = (
            firsts[index + 1] - datetime.timedelta(days=1)
            if index + 1 < len(entries)
            else days[end - 1]
        )
        slots.append(PhaseSlot(number=number, hours=hours, start=days[first], end=last_day))
    *phases, revising, mock = slots
    return Schedule(
        slots=tuple(phases),
        hours_per_week=math.ceil(per_day * len(pace.weekdays)),
        revision=Revision(start=revising.start, mock_day=mock.start, hours=revision_hours),
        study_weekdays=tuple(sorted(pace.weekdays)),
        day_hours=per_day,
    )


def hours_text(hours: float) -> str:
    """Hours to the nearest quarter hour, as a page says them: "2 h", "1 h 30", "45 min"."""
    whole, rest = divmod(round(quarter_hours(hours) * 60), 60)
    if not whole:
        return f"{rest} min"
    return f"{whole} h {rest:02d}" if rest else f"{whole} h"
