"""A learner's figures: the cached syllabus plus this learner's plan, ticks and practice answers.

The plan and the content version come with request.user (see studyplan.auth); the ticks and the
answers are one small query each that starts from the learner, so nothing here can reach another
learner's rows.
"""

import datetime
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from phases.schedule import IntensityOption, PhaseSlot, Schedule, lay_out
from phases.snapshot import CheckInfo, PhaseInfo, Syllabus
from studyplan.caching import learner_syllabus

from . import readiness
from .models import AttemptQuestion, CheckOff, Confidence, StudyPlan


def rules() -> readiness.Rules:
    return readiness.Rules(
        covered=settings.READINESS_THRESHOLD,
        accurate=settings.ACCURACY_THRESHOLD,
        window=settings.ACCURACY_WINDOW,
        practised=settings.PRACTISED_ANSWERS,
    )


@dataclass(frozen=True)
class PhaseProgress:
    done: int
    total: int

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


@cache
def _check_urls(slug: str) -> tuple[str, str]:
    # Reversed once per process: a phase page shows two forms per check.
    return (
        reverse("progress:selfcheck-toggle", args=[slug]),
        reverse("progress:selfcheck-confidence", args=[slug]),
    )


@dataclass(frozen=True)
class CheckRow:
    """A self-check as one learner sees it."""

    check: CheckInfo
    done: bool
    confidence: str

    @property
    def toggle_url(self) -> str:
        return _check_urls(self.check.slug)[0]

    @property
    def confidence_url(self) -> str:
        return _check_urls(self.check.slug)[1]

    @property
    def confidence_choices(self) -> list[tuple[str, str, bool]]:
        return [
            (choice.value, choice.label, self.confidence == choice.value)
            for choice in (Confidence.SHAKY, Confidence.SOLID)
        ]


@dataclass
class LearnerState:
    content: Syllabus
    plan: StudyPlan | None
    schedule: Schedule | None
    today: datetime.date
    report: readiness.Report
    ticked: dict[int, str]  # self-check id -> confidence, for the checks this learner has done
    phases: dict[int, PhaseProgress]

    def row(self, check: CheckInfo) -> CheckRow:
        return CheckRow(
            check=check, done=check.id in self.ticked, confidence=self.ticked.get(check.id, "")
        )

    def rows(self, checks: list[CheckInfo]) -> list[CheckRow]:
        return [self.row(check) for check in checks]

    @property
    def current_slot(self) -> PhaseSlot | None:
        return self.schedule.current(self.today) if self.schedule else None

    @property
    def current_phase(self) -> PhaseInfo | None:
        slot = self.current_slot
        return self.content.phase_numbered(slot.number) if slot else None

    def next_check(self) -> CheckInfo | None:
        """What to study next: the lagging domain's first open self-check; on plan, the first
        open one of today's phase, then of the phases after it."""
        open_checks = [check for check in self.content.checks if check.id not in self.ticked]
        lagging = self.report.lagging
        if lagging is not None:
            return next((c for c in open_checks if c.domain.slug == lagging.slug), None)
        slot = self.current_slot
        today_number = slot.number if slot else 0
        return next(
            (check for check in open_checks if check.phase.number >= today_number),
            next(iter(open_checks), None),
        )


def plan_of(user: Any) -> StudyPlan | None:
    # A reverse one-to-one raises an AttributeError subclass when there is no plan.
    return getattr(user, "study_plan", None)


def schedule_for(plan: StudyPlan, content: Syllabus) -> Schedule:
    return lay_out(
        content.phase_hours[plan.intensity.slug], plan.intensity.hours_per_week, plan.start_date
    )


def intensity_options(intensities: Any, content: Syllabus) -> list[IntensityOption]:
    return [
        IntensityOption(
            slug=intensity.slug,
            hours_per_week=intensity.hours_per_week,
            phase_hours=content.phase_hours[intensity.slug],
            order=intensity.order,
        )
        for intensity in intensities
    ]


def counted_answers(user: Any, now: datetime.datetime) -> list[tuple[str, bool | None]]:
    """(domain slug, right) for each domain's newest counted answers."""
    return list(
        AttemptQuestion.objects.counted(user, now)
        .newest_per_domain(rules().window)
        .values_list("question__domain__slug", "is_correct")
    )


def learner_state(user: Any, *, today: datetime.date, with_practice: bool = False) -> LearnerState:
    """The learner's figures; practice accuracy (one more query) only where a page shows it."""
    content = learner_syllabus(user)
    plan = plan_of(user)
    schedule = schedule_for(plan, content) if plan else None
    due_by_phase = schedule.share_due(today) if schedule else {}
    ticks = (
        CheckOff.objects.for_user(user)
        .with_due(today)
        .values_list("self_check_id", "is_due", "confidence")
    )
    ticked = {check_id: confidence for check_id, _, confidence in ticks}
    accuracy = (
        readiness.accuracy_counts(counted_answers(user, timezone.now()), rules().window)
        if with_practice
        else {}
    )

    done_by_domain: Counter[str] = Counter()
    done_by_phase: Counter[int] = Counter()
    due_reviews: Counter[str] = Counter()
    for check_id, is_due, _ in ticks:
        # A tick on a retired check is kept as history but counts nowhere.
        if key := content.check_keys.get(check_id):
            done_by_domain[key[0]] += 1
            done_by_phase[key[1]] += 1
            due_reviews[key[0]] += bool(is_due)

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
                planned=readiness.planned_share(content.totals[domain.slug], due_by_phase),
                right=accuracy.get(domain.slug, (0, 0))[0],
                answered=accuracy.get(domain.slug, (0, 0))[1],
                due_reviews=due_reviews[domain.slug],
            )
            for domain in content.domains
        ),
        rules(),
    )
    return LearnerState(
        content=content,
        plan=plan,
        schedule=schedule,
        today=today,
        report=report,
        ticked=ticked,
        phases={
            phase.number: PhaseProgress(
                done=done_by_phase[phase.number], total=content.phase_totals.get(phase.number, 0)
            )
            for phase in content.phases
        },
    )
