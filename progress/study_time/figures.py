"""Study time against the plan: minutes studied per phase and per domain beside the plan's
hours by today, and each domain's share of the hours beside its share of the exam (the guide's
rule of thumb: "study time should follow exam weight")."""

import datetime
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from phases.schedule import Schedule
from phases.snapshot import DomainInfo, PhaseInfo, Syllabus
from progress.learner_rows import one_or_none
from progress.study_time.models import TIMER_CAP, StudySession, duration
from progress.summary.keep import minutes_of, summary_of
from progress.timezones import end_of_day

RULE_OF_THUMB = "study time should follow exam weight"
# Under an hour in all, shares say more about chance than about the learner.
VERDICT_AFTER_MINUTES = 60


def heaviest(phase: PhaseInfo) -> DomainInfo:
    """The domain a phase's time counts for unless the learner says otherwise."""
    return max(phase.domains, key=lambda domain: (domain.weight, -domain.study_order))


def timer_minutes(
    started_at: datetime.datetime, now: datetime.datetime, midnight: datetime.datetime
) -> tuple[int, bool]:
    """Whole minutes a timer counts (rounded: under half a minute is none), and whether it ran
    past its cap: TIMER_CAP after its start, or ``midnight`` (the end of the day it started) if
    that comes first."""
    limit = min(started_at + TIMER_CAP, midnight)
    return round((min(now, limit) - started_at).total_seconds() / 60), now > limit


def planned_minutes(
    schedule: Schedule, content: Syllabus, today: datetime.date
) -> dict[tuple[int, str], float]:
    """The plan's minutes by today for each (phase, domain): a phase's hours as far as its days
    have gone (the dashboard's planned share), split among its domains by exam weight."""
    planned: defaultdict[tuple[int, str], float] = defaultdict(float)
    for slot in schedule.slots:
        phase = content.phase_numbered(slot.number)
        if phase is None or not phase.domains:
            continue
        weights = sum(domain.weight for domain in phase.domains) or len(phase.domains)
        for domain in phase.domains:
            share = (domain.weight or 1) / weights
            planned[(slot.number, domain.slug)] += 60 * slot.hours * slot.share_due(today) * share
    return planned


@dataclass(frozen=True)
class TimeStudied:
    minutes: int
    planned: float | None  # the plan's minutes by today; None without a plan

    @property
    def text(self) -> str:
        return duration(self.minutes)

    @property
    def planned_text(self) -> str:
        return duration(self.planned or 0)


@dataclass(frozen=True)
class PhaseTime(TimeStudied):
    plan_total: int | None  # the plan's hours for the phase
    by_domain: tuple[tuple[DomainInfo, str], ...]  # minutes in words, for several domains


@dataclass(frozen=True)
class DomainTime(TimeStudied):
    domain: DomainInfo
    share_percent: int  # of the learner's minutes, all domains

    @property
    def under(self) -> int:
        """Percentage points under its exam share (negative when over)."""
        return self.domain.weight - self.share_percent


@dataclass(frozen=True)
class StudyTime:
    """A learner's recorded minutes, by (phase number, domain slug), and the plan's."""

    content: Syllabus
    minutes: Counter[tuple[int, str]]
    planned: dict[tuple[int, str], float] | None  # None without a plan
    schedule: Schedule | None
    week_minutes: int = 0  # recorded on days of this week, Monday to today
    week_planned_minutes: int | None = None  # the plan's for this week, Monday to Sunday

    @property
    def week_text(self) -> str:
        """ "1 h 30 studied of the 6 h your plan asks this week" (empty without a plan)."""
        if self.week_planned_minutes is None:
            return ""
        return (
            f"{duration(self.week_minutes)} studied of the {duration(self.week_planned_minutes)} "
            "your plan asks this week"
        )

    rule = RULE_OF_THUMB

    @property
    def total(self) -> int:
        return sum(self.minutes.values())

    @property
    def total_text(self) -> str:
        return duration(self.total)

    def _planned(self, keys: Iterable[tuple[int, str]]) -> float | None:
        """The plan's minutes by today over (phase, domain) ``keys``; None without a plan."""
        return None if self.planned is None else sum(self.planned.get(key, 0.0) for key in keys)

    def phase(self, phase: PhaseInfo) -> PhaseTime:
        slots = self.schedule.slots if self.schedule else ()
        slot = next((slot for slot in slots if slot.number == phase.number), None)
        mine = [(domain, self.minutes[(phase.number, domain.slug)]) for domain in phase.domains]
        return PhaseTime(
            minutes=sum(minutes for _, minutes in mine),
            planned=self._planned((phase.number, domain.slug) for domain in phase.domains),
            plan_total=slot.hours if slot else None,
            by_domain=tuple((d, duration(m)) for d, m in mine) if len(mine) > 1 else (),
        )

    def domains(self) -> list[DomainTime]:
        """Heaviest first, as the dashboard lists domains."""
        total = self.total
        rows = []
        for domain in sorted(self.content.domains, key=lambda d: (-d.weight, d.study_order)):
            minutes = sum(m for (_, slug), m in self.minutes.items() if slug == domain.slug)
            planned = self._planned(key for key in self.planned or () if key[1] == domain.slug)
            share = round(100 * minutes / total) if total else 0
            rows.append(
                DomainTime(minutes=minutes, planned=planned, domain=domain, share_percent=share)
            )
        return rows

    def verdict(self) -> str | None:
        """One sentence naming the domain furthest under its exam share, from an hour logged."""
        if self.total < VERDICT_AFTER_MINUTES:
            return None
        rows = self.domains()
        most = max(rows, key=lambda row: row.under)  # heaviest first: ties go to the heavier
        if most.under <= 0:
            return "Your hours follow exam weight in every domain."
        return (
            f"{most.domain.name} has {most.share_percent}% of your hours against "
            f"{most.domain.weight}% of the exam: of all domains, it is the furthest under its "
            "share."
        )


def studied(user: Any, since: datetime.date | None = None) -> tuple[Counter[tuple[int, str]], int]:
    """The learner's recorded minutes by (phase number, domain slug), and the minutes recorded
    on days from ``since`` on (this week's): as the summary keeps them (progress.summary)."""
    minutes, by_day = minutes_of(summary_of(user, now=timezone.now()))
    since = since or datetime.date.max
    return minutes, sum(total for day, total in by_day.items() if day >= since)


def study_time(
    user: Any, content: Syllabus, schedule: Schedule | None, today: datetime.date
) -> StudyTime:
    monday = today - datetime.timedelta(days=today.weekday())
    minutes, this_week = studied(user, since=monday)
    return StudyTime(
        content=content,
        minutes=minutes,
        planned=planned_minutes(schedule, content, today) if schedule else None,
        schedule=schedule,
        week_minutes=this_week,
        week_planned_minutes=round(
            60 * schedule.hours_between(monday, monday + datetime.timedelta(days=6))
        )
        if schedule
        else None,
    )


@dataclass(frozen=True)
class RunningTimer:
    session: StudySession
    phase: PhaseInfo
    minutes: int
    over_cap: bool

    @property
    def text(self) -> str:
        return duration(self.minutes)

    @property
    def started_today(self) -> bool:
        return timezone.localdate(self.session.started_at) == timezone.localdate()


def running_timer(user: Any, content: Syllabus, now: datetime.datetime) -> RunningTimer | None:
    """The learner's running timer, if any: one query."""
    session = one_or_none(StudySession.objects.for_user(user).running().select_related("phase"))
    if session is None or session.started_at is None:
        return None
    phase = content.phase_numbered(session.phase.number)
    if phase is None:
        return None
    midnight = end_of_day(timezone.localdate(session.started_at))
    elapsed = max(0, int((now - session.started_at).total_seconds() // 60))
    over_cap = timer_minutes(session.started_at, now, midnight)[1]
    return RunningTimer(session, phase, elapsed, over_cap)
