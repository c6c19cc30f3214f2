"""The study calendar, as a pure function of an intensity's hours and a start date.

Phases run back to back. A phase lasts as many days as its hours take at the intensity's weekly
pace; boundaries come from cumulative hours, so rounding never adds up across six phases.
"""

import datetime
import math
from collections.abc import Sequence
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


@dataclass(frozen=True)
class Schedule:
    slots: tuple[PhaseSlot, ...]
    hours_per_week: int

    @property
    def start(self) -> datetime.date:
        return self.slots[0].start

    @property
    def finish(self) -> datetime.date:
        return self.slots[-1].end

    @property
    def total_hours(self) -> int:
        return sum(slot.hours for slot in self.slots)

    def current(self, today: datetime.date) -> PhaseSlot | None:
        """The phase the calendar has the learner in today (None before the start or after it)."""
        for slot in self.slots:
            if slot.start <= today <= slot.end:
                return slot
        return None

    def share_due(self, today: datetime.date) -> dict[int, float]:
        return {slot.number: slot.share_due(today) for slot in self.slots}

    def days_late(self, exam_date: datetime.date | None) -> int:
        """Days the calendar runs past the exam; 0 when it finishes on time or there is no exam."""
        if exam_date is None:
            return 0
        return max(0, (self.finish - exam_date).days)


def lay_out(
    phase_hours: Sequence[tuple[int, int]], hours_per_week: int, start: datetime.date
) -> Schedule:
    """Lay phases ``(number, hours)`` end to end from ``start`` at ``hours_per_week``."""
    if hours_per_week <= 0:
        raise ValueError("hours_per_week must be positive")
    if not phase_hours:
        raise ValueError("a schedule needs at least one phase")
    slots = []
    cumulative_hours = 0
    days_used = 0
    for number, hours in phase_hours:
        cumulative_hours += hours
        # Every phase gets at least one day, even a one-hour one at a fast pace.
        days_after = max(days_used + 1, math.ceil(cumulative_hours * 7 / hours_per_week))
        slots.append(
            PhaseSlot(
                number=number,
                hours=hours,
                start=start + datetime.timedelta(days=days_used),
                end=start + datetime.timedelta(days=days_after - 1),
            )
        )
        days_used = days_after
    return Schedule(slots=tuple(slots), hours_per_week=hours_per_week)


@dataclass(frozen=True)
class IntensityOption:
    slug: str
    hours_per_week: int
    phase_hours: tuple[tuple[int, int], ...]
    order: int  # lower is faster: fast track first


def fitting_intensity(
    options: Sequence[IntensityOption], start: datetime.date, exam_date: datetime.date
) -> str | None:
    """The gentlest intensity whose calendar finishes by the exam, or None if none does.

    The study guide: total hours matter less than leaving the material time to settle, so the
    slowest calendar that still fits is the one to suggest.
    """
    fitting = [
        option
        for option in options
        if lay_out(option.phase_hours, option.hours_per_week, start).finish <= exam_date
    ]
    if not fitting:
        return None
    return max(fitting, key=lambda option: option.order).slug
