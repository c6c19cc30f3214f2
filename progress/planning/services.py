import datetime
from typing import Any

from django.db import transaction

from phases.models import Intensity
from phases.own_pace import Pace
from progress.lock import lock_learner
from progress.models import StudyPlan
from progress.practice.services import placed


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
        return StudyPlan.objects.create(user=user, start_date=start_date, **values)
    kept_dates = kind != StudyPlan.Kind.PACED
    if intensity != plan.intensity and start_date == plan.start_date and not kept_dates:
        start_date = today
    for field, value in (values | {"start_date": start_date}).items():
        setattr(plan, field, value)
    plan.save()
    return plan
