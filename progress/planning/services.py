import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from phases.content import syllabus
from phases.models import Intensity
from phases.own_pace import Pace
from progress.lock import lock_learner
from progress.models import CheckOff, EarlierPlan, StudyPlan
from progress.planning.schedules import fitted_schedule, schedule_for
from progress.practice.services import placed
from progress.summary.keep import kept


@transaction.atomic
def save_plan(
    *,
    user: Any,
    intensity: Intensity,
    start_date: datetime.date,
    exam_date: datetime.date | None,
    today: datetime.date,
    kind: StudyPlan.Kind = StudyPlan.Kind.PACED,
    pace: Pace | None = None,
    now: datetime.datetime | None = None,
) -> StudyPlan:
    """Create the learner's plan, or change it; ticks are never touched.

    A change of intensity with the start date left as it was re-lays the calendar from today,
    except for a fitted or short-notice plan, which keeps the dates its preview was made for.
    ``kind``: at the intensity's pace; fitted, its hours compressed to end the day before the
    exam; short notice, the days left, day by day; or at the learner's own ``pace``, their hours
    a week on their weekdays (progress.planning.schedules). Every kind is shaped by the learner's
    newest placement.
    """
    if (kind == StudyPlan.Kind.OWN_PACE) != (pace is not None):
        raise ValueError("a plan at the learner's own pace, and only one, has a pace")
    lock_learner(user)
    plan = StudyPlan.objects.select_for_update().filter(user=user).first()
    values = {
        "intensity": intensity,
        "exam_date": exam_date,
        "kind": kind,
        "placement": placed(user),
        "hours_per_week": pace.hours_per_week if pace else None,
        "study_weekdays": "".join(str(day) for day in sorted(pace.weekdays)) if pace else "",
    }
    if plan is None:
        plan = StudyPlan.objects.create(user=user, start_date=start_date, **values)
        _planned(user, plan, now)
        return plan
    values["done_phases"] = ""  # a plan chosen anew lays every phase again
    kept_dates = kind != StudyPlan.Kind.PACED
    if intensity != plan.intensity and start_date == plan.start_date and not kept_dates:
        start_date = today
    values["start_date"] = start_date
    if any(getattr(plan, field) != value for field, value in values.items()):
        # Only a change is kept: the same plan saved again leaves no earlier plan behind.
        _keep(plan, EarlierPlan.Reason.CHANGED, now=now)
    for field, value in values.items():
        setattr(plan, field, value)
    plan.save()
    _planned(user, plan, now)
    return plan


def _planned(user: Any, plan: StudyPlan, now: datetime.datetime | None) -> None:
    """The request's copy of the plan (request.user.study_plan) is this one from now on, and
    the summary counts the review queue against its exam day."""
    user.study_plan = plan
    kept(user, now=now or timezone.now())


def _keep(plan: StudyPlan, reason: str, *, now: datetime.datetime | None) -> None:
    """The plan as it stands, kept in the learner's earlier plans before it changes."""
    EarlierPlan.objects.create(
        user_id=plan.user_id,
        replaced_at=now or timezone.now(),
        reason=reason,
        intensity_id=plan.intensity_id,
        kind=plan.kind,
        start_date=plan.start_date,
        exam_date=plan.exam_date,
        hours_per_week=plan.hours_per_week,
        study_weekdays=plan.study_weekdays,
        done_phases=plan.done_phases,
        finish=schedule_for(plan, syllabus()).finish,
    )
    # The newest EARLIER_PLANS_KEPT are kept: a learner's history, not an unbounded log.
    older = EarlierPlan.objects.filter(user_id=plan.user_id).order_by("-replaced_at", "-pk")
    stale = list(older.values_list("pk", flat=True)[EARLIER_PLANS_KEPT:])
    if stale:
        EarlierPlan.objects.filter(pk__in=stale).delete()


EARLIER_PLANS_KEPT = 50


class CannotCatchUp(Exception):
    """Why the plan cannot be laid again from today; the message says it to the learner."""


@transaction.atomic
def catch_up(*, user: Any, today: datetime.date, now: datetime.datetime) -> StudyPlan:
    """Lay the learner's plan again from ``today``: the phases not yet done (every self-check
    ticked), at the plan's own pace, its revision and mock, to the exam where there is one. Every
    tick, review and answer is kept; the plan as it was goes to the learner's earlier plans. A
    fitted plan that no longer fits the days left becomes a short-notice one."""
    lock_learner(user)
    plan = StudyPlan.objects.select_for_update().filter(user=user).first()
    if plan is None:
        raise CannotCatchUp("Choose your schedule first.")
    if plan.exam_date is not None and plan.exam_date <= today:
        raise CannotCatchUp(
            "Your exam date is today or has passed: choose a new one to plan the days to it."
        )
    content = syllabus()
    ticked = set(CheckOff.objects.for_user(user).ticked().values_list("self_check_id", flat=True))
    done = {
        phase.number
        for phase in content.phases
        if (checks := content.checks_in_phase(phase.number))
        and all(check.id in ticked for check in checks)
    }
    if len(done) == len(content.phases):
        raise CannotCatchUp("Every phase is done: nothing to lay again. Revise and sit a mock.")
    _keep(plan, EarlierPlan.Reason.CAUGHT_UP, now=now)
    plan.start_date = today
    plan.done_phases = "".join(str(number) for number in sorted(done))
    if plan.fitted and plan.exam_date is not None:
        try:
            fitted_schedule(
                content, plan.intensity, today, plan.exam_date, plan.placement, frozenset(done)
            )
        except ValueError:
            plan.kind = StudyPlan.Kind.SHORT_NOTICE
    plan.save()
    _planned(user, plan, now)
    return plan
