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

from . import practice, readiness
from .models import AttemptQuestion, CheckOff, StudyPlan

# Enough newest answers to fill every domain's recent window in the usual case.
RECENT_ANSWER_WINDOW = 200


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
    ticked: dict[int, str]  # self-check id -> confidence, for the checks this learner has done
    phases: dict[int, PhaseProgress]

    def with_state(self, checks: list[CheckInfo]) -> list[CheckInfo]:
        return [
            dataclasses.replace(
                check, done=check.id in self.ticked, confidence=self.ticked.get(check.id, "")
            )
            for check in checks
        ]

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


def recent_answers(user) -> list[tuple[str, bool]]:
    """This learner's newest scored practice answers, (domain slug, right), newest first."""
    return list(
        AttemptQuestion.objects.filter(attempt__user=user, is_correct__isnull=False)
        .order_by("-answered_at", "-pk")
        .values_list("question__domain__slug", "is_correct")[:RECENT_ANSWER_WINDOW]
    )


def learner_state(user, *, today: datetime.date, with_practice: bool = False) -> LearnerState:
    """The learner's figures; practice accuracy (one more query) only where a page shows it."""
    content = syllabus()
    plan = plan_of(user)
    schedule = schedule_for(plan, content) if plan else None
    due = schedule.share_due(today) if schedule else {}
    ticks = CheckOff.objects.for_user(user).values_list("self_check_id", "due_on", "confidence")
    ticked = {check_id: confidence for check_id, _, confidence in ticks}
    accuracy = practice.recent_accuracy(recent_answers(user)) if with_practice else {}

    done_by_domain: Counter[str] = Counter()
    done_by_phase: Counter[int] = Counter()
    backlog: Counter[str] = Counter()
    for check_id, due_on, _ in ticks:
        # A tick on a retired check is kept as history but counts nowhere.
        if key := content.check_keys.get(check_id):
            done_by_domain[key[0]] += 1
            done_by_phase[key[1]] += 1
            if due_on is not None and due_on <= today:
                backlog[key[0]] += 1

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
                right=accuracy.get(domain.slug, (0, 0))[0],
                answered=accuracy.get(domain.slug, (0, 0))[1],
                backlog=backlog[domain.slug],
            )
            for domain in content.domains
        ),
        threshold=settings.READINESS_THRESHOLD,
        accuracy_threshold=practice.ACCURACY_THRESHOLD,
    )
    return LearnerState(
        content=content,
        plan=plan,
        schedule=schedule,
        report=report,
        ticked=ticked,
        phases={
            phase.number: PhaseProgress(
                done=done_by_phase[phase.number], total=content.phase_totals.get(phase.number, 0)
            )
            for phase in content.phases
        },
    )
