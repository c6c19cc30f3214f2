"""What the learner pages read: one plan, one aggregate over self-checks, per request.

Every query here starts from the learner, so nothing can reach another learner's rows.
"""

import datetime
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, FilteredRelation, Q

from phases.models import Intensity, PhaseHours, SelfCheck
from phases.schedule import IntensityOption, Schedule, lay_out

from . import readiness
from .models import StudyPlan


@dataclass(frozen=True)
class PhaseProgress:
    done: int
    total: int

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


@dataclass
class LearnerState:
    plan: StudyPlan | None
    schedule: Schedule | None
    report: readiness.Report
    phases: dict[int, PhaseProgress] = field(default_factory=dict)


def schedule_for(plan: StudyPlan) -> Schedule:
    phase_hours = PhaseHours.objects.filter(intensity_id=plan.intensity_id).values_list(
        "phase__number", "hours"
    )
    return lay_out(list(phase_hours), plan.intensity.hours_per_week, plan.start_date)


def intensity_options() -> list[tuple[Intensity, IntensityOption]]:
    intensities = list(Intensity.objects.prefetch_related("phase_hours__phase"))
    return [
        (
            intensity,
            IntensityOption(
                slug=intensity.slug,
                hours_per_week=intensity.hours_per_week,
                phase_hours=tuple(
                    sorted((row.phase.number, row.hours) for row in intensity.phase_hours.all())
                ),
                order=intensity.order,
            ),
        )
        for intensity in intensities
    ]


def check_counts(user):
    """Self-checks per (domain, phase), with how many of them this learner has done.

    The join to check-offs is filtered to this learner in its ON clause, so other learners'
    ticks never multiply the totals.
    """
    return (
        SelfCheck.objects.current()
        .annotate(mine=FilteredRelation("check_offs", condition=Q(check_offs__user=user)))
        .values(
            "domain__slug",
            "domain__name",
            "domain__short_name",
            "domain__exam_weight",
            "domain__study_order",
            "phase__number",
        )
        .annotate(total=Count("id"), done=Count("mine"))
        .order_by()
    )


def learner_state(user, *, today: datetime.date, with_plan: bool = True) -> LearnerState:
    plan = None
    schedule = None
    if with_plan:
        plan = StudyPlan.objects.select_related("intensity").filter(user=user).first()
        schedule = schedule_for(plan) if plan else None
    due = schedule.share_due(today) if schedule else {}

    domains: dict[str, dict] = {}
    phases: dict[int, list[int]] = {}
    for row in check_counts(user):
        domain = domains.setdefault(
            row["domain__slug"],
            {
                "name": row["domain__name"],
                "short_name": row["domain__short_name"],
                "weight": row["domain__exam_weight"],
                "study_order": row["domain__study_order"],
                "done": 0,
                "total": 0,
                "by_phase": {},
            },
        )
        domain["done"] += row["done"]
        domain["total"] += row["total"]
        domain["by_phase"][row["phase__number"]] = row["total"]
        phase = phases.setdefault(row["phase__number"], [0, 0])
        phase[0] += row["done"]
        phase[1] += row["total"]

    report = readiness.assess(
        (
            readiness.DomainCount(
                slug=slug,
                name=domain["name"],
                short_name=domain["short_name"],
                weight=domain["weight"],
                study_order=domain["study_order"],
                done=domain["done"],
                total=domain["total"],
                planned=readiness.planned_share(domain["by_phase"], due),
            )
            for slug, domain in domains.items()
        ),
        threshold=settings.READINESS_THRESHOLD,
    )
    return LearnerState(
        plan=plan,
        schedule=schedule,
        report=report,
        phases={number: PhaseProgress(*counts) for number, counts in phases.items()},
    )


def first_open_check(user, *, domain_slug: str | None = None) -> SelfCheck | None:
    checks = SelfCheck.objects.current().exclude(check_offs__user=user).select_related("phase")
    if domain_slug:
        checks = checks.filter(domain__slug=domain_slug)
    return checks.order_by("phase__number", "order").first()
