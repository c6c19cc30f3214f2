"""A short-notice plan, pure: when too few days are left before the exam for every phase and
the revision stretch, the days left, day by day, with the most marks at stake first (the exam
weight of what a placement showed the learner does not yet know)."""

import datetime
import math
from collections.abc import Mapping, Sequence

from phases.schedule import PhaseSlot, Schedule, hours_by_weight, phase_weights

# The study guide: "two to three hours a day".
SHORT_NOTICE_HOURS_PER_DAY = 3


def day_by_day(
    priorities: Sequence[tuple[int, float]],
    start: datetime.date,
    exam: datetime.date,
    hours_per_day: int = SHORT_NOTICE_HOURS_PER_DAY,
) -> Schedule:
    """The days from ``start`` to the day before ``exam``, ``hours_per_day`` each, shared among
    phases ``(number, priority)`` in the order given (the most marks at stake first), by
    priority, several phases to a day. When the hours are fewer than the phases, the last
    phases get none and are left out."""
    days = (exam - start).days
    if days <= 0:
        raise ValueError("the exam must come after the start date")
    total = days * hours_per_day
    taken = list(priorities[:total])
    if not taken:
        raise ValueError("a schedule needs at least one phase")
    if sum(priority for _, priority in taken) <= 0:
        taken = [(number, 1.0) for number, _ in taken]
    slots = []
    used = 0
    for number, hours in hours_by_weight(total, taken):
        first_day = used // hours_per_day
        used += hours
        last_day = math.ceil(used / hours_per_day) - 1
        slots.append(
            PhaseSlot(
                number=number,
                hours=hours,
                start=start + datetime.timedelta(days=first_day),
                end=start + datetime.timedelta(days=last_day),
            )
        )
    return Schedule(slots=tuple(slots), hours_per_week=hours_per_day * 7, day_by_day=True)


def phase_priorities(
    phase_domains: Sequence[tuple[int, Sequence[tuple[str, int]]]],
    missed_share: Mapping[str, float],
) -> tuple[tuple[int, float], ...]:
    """Phases by the marks at stake in them, most first: each domain's exam weight times the
    share of its placement questions missed (1 where it was not placed), split across the
    phases that list it (phase_weights); ties go to study order."""
    weighted = phase_weights(
        [
            (number, [(slug, weight * missed_share.get(slug, 1.0)) for slug, weight in domains])
            for number, domains in phase_domains
        ]
    )
    return tuple(sorted(weighted, key=lambda item: (-item[1], item[0])))
