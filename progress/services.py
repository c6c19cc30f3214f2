import datetime

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from phases.models import Intensity

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
    plan.progress_version = F("progress_version") + 1
    plan.save()
    return plan


def set_done(*, user, self_check_id: int, done: bool) -> None:
    """Tick or untick; saying the same thing twice changes nothing.

    Each is one statement that reports whether it changed a row: the unique constraint on
    (user, self-check) makes a repeated tick insert nothing, with no read first and no
    transaction around it. Only a real change moves the plan's progress version, which is what
    retires the learner's cached dashboard.
    """
    table = CheckOff._meta.db_table
    with connection.cursor() as cursor:
        if done:
            cursor.execute(
                f"INSERT INTO {table} (user_id, self_check_id, done_at) VALUES (%s, %s, %s) "
                "ON CONFLICT (user_id, self_check_id) DO NOTHING",
                [user.pk, self_check_id, timezone.now()],
            )
        else:
            cursor.execute(
                f"DELETE FROM {table} WHERE user_id = %s AND self_check_id = %s",
                [user.pk, self_check_id],
            )
        changed = cursor.rowcount > 0
    if changed:
        StudyPlan.objects.filter(user=user).update(progress_version=F("progress_version") + 1)
