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

    done_by_domain: Counter[str] = Counter()
    done_by_phase: Counter[int] = Counter()
    for check_id in ticked:
        # A tick on a retired check is kept as history but counts nowhere.
        if key := content.check_keys.get(check_id):
            done_by_domain[key[0]] += 1
            done_by_phase[key[1]] += 1

    totals_by_phase: Counter[int] = Counter()
    for by_phase in content.totals.values():
        totals_by_phase.update(by_phase)

    report = readiness.assess(
        (
            readiness.DomainCount(
                slug=domain.slug,
                name=domain.name,
                short_name=domain.short_name,
                weight=domain.weight,
                study_order=domain.study_order,
                done=done_by_domain[domain.slug],
                total=sum(content.totals[domain.slug].values()),
                planned=readiness.planned_share(content.totals[domain.slug], due),
            )
            for domain in content.domains
        ),
        threshold=settings.READINESS_THRESHOLD,
    )
    return LearnerState(
        content=content,
        plan=plan,
        schedule=schedule,
        report=report,
        ticked=ticked,
        phases={
            phase.number: PhaseProgress(
                done=done_by_phase[phase.number], total=totals_by_phase[phase.number]
            )
            for phase in content.phases
        },
    )
