import datetime

from django.db import transaction

from phases.models import Intensity, SelfCheck

from .models import CheckOff, StudyPlan


@transaction.atomic
def save_plan(
    *,
    user,
    intensity: Intensity,
    start_date: datetime.date,
    exam_date: datetime.date | None,
    today: datetime.date,
) -> StudyPlan:
    """Create the learner's plan, or change it; ticks are never touched.

    A change of intensity with the start date left as it was re-lays the calendar from today.
    """
    plan = StudyPlan.objects.select_for_update().filter(user=user).first()
    if plan is None:
        return StudyPlan.objects.create(
            user=user, intensity=intensity, start_date=start_date, exam_date=exam_date
        )
    if intensity != plan.intensity and start_date == plan.start_date:
        start_date = today
    plan.intensity = intensity
    plan.start_date = start_date
    plan.exam_date = exam_date
    plan.save()
    return plan


def set_done(*, user, self_check: SelfCheck, done: bool) -> None:
    """Tick or untick; saying the same thing twice changes nothing."""
    if done:
        CheckOff.objects.bulk_create(
            [CheckOff(user=user, self_check=self_check)], ignore_conflicts=True
        )
    else:
        CheckOff.objects.filter(user=user, self_check=self_check).delete()
