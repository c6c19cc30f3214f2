"""What the learner pages read: the cached syllabus, plus this learner's plan and ticks.

The plan comes with request.user (see studyplan.auth.LearnerBackend); the ticks are one small
query that starts from the learner, so nothing here can reach another learner's rows.
"""

import dataclasses
import datetime
from collections import Counter
from dataclasses import dataclass

from django.conf import settings

from phases.content import CheckInfo, Syllabus, syllabus
from phases.schedule import IntensityOption, Schedule, lay_out

from . import readiness
from .models import CheckOff, StudyPlan


@dataclass(frozen=True)
class PhaseProgress:
    done: int
    total: int

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


@dataclass
class LearnerState:
    content: Syllabus
    plan: StudyPlan | None
    schedule: Schedule | None
    report: readiness.Report
    ticked: frozenset[int]  # ids of the self-checks this learner has done
    phases: dict[int, PhaseProgress]

    def with_state(self, checks: list[CheckInfo]) -> list[CheckInfo]:
        return [dataclasses.replace(check, done=check.id in self.ticked) for check in checks]

    def first_open_check(self, domain_slug: str | None = None) -> CheckInfo | None:
        return next(
            (
                check
                for check in self.content.checks
                if check.id not in self.ticked
                and (domain_slug is None or check.domain.slug == domain_slug)
            ),
            None,
        )


def plan_of(user) -> StudyPlan | None:
    # A reverse one-to-one raises an AttributeError subclass when there is no plan.
    return getattr(user, "study_plan", None)


def schedule_for(plan: StudyPlan, content: Syllabus) -> Schedule:
    return lay_out(
        content.phase_hours[plan.intensity.slug], plan.intensity.hours_per_week, plan.start_date
    )


def intensity_options(intensities, content: Syllabus) -> list[IntensityOption]:
    return [
        IntensityOption(
            slug=intensity.slug,
            hours_per_week=intensity.hours_per_week,
            phase_hours=content.phase_hours[intensity.slug],
            order=intensity.order,
        )
        for intensity in intensities
    ]


def learner_state(user, *, today: datetime.date) -> LearnerState:
    content = syllabus()
    plan = plan_of(user)
    schedule = schedule_for(plan, content) if plan else None
    due = schedule.share_due(today) if schedule else {}
    ticked = frozenset(CheckOff.objects.for_user(user).values_list("self_check_id", flat=True))

    totals: Counter[tuple[str, int]] = Counter()
    done: Counter[tuple[str, int]] = Counter()
    for check in content.checks:
        key = (check.domain.slug, check.phase.number)
        totals[key] += 1
        done[key] += check.id in ticked

    def domain_count(domain) -> readiness.DomainCount:
        by_phase = {number: n for (slug, number), n in totals.items() if slug == domain.slug}
        return readiness.DomainCount(
            slug=domain.slug,
            name=domain.name,
            short_name=domain.short_name,
            weight=domain.weight,
            study_order=domain.study_order,
            done=sum(n for (slug, _), n in done.items() if slug == domain.slug),
            total=sum(by_phase.values()),
            planned=readiness.planned_share(by_phase, due),
        )

    phases = {
        phase.number: PhaseProgress(
            done=sum(n for (_, number), n in done.items() if number == phase.number),
            total=sum(n for (_, number), n in totals.items() if number == phase.number),
        )
        for phase in content.phases
    }
    return LearnerState(
        content=content,
        plan=plan,
        schedule=schedule,
        report=readiness.assess(
            (domain_count(domain) for domain in content.domains),
            threshold=settings.READINESS_THRESHOLD,
        ),
        ticked=ticked,
        phases=phases,
    )
