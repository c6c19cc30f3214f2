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


def export_learner(user, *, now: datetime.datetime) -> dict:
    """Everything the tracker holds about one learner, as plain JSON-ready values."""
    plan = StudyPlan.objects.select_related("intensity").filter(user=user).first()
    ticks = (
        CheckOff.objects.for_user(user)
        .select_related("self_check__phase", "self_check__domain")
        .order_by("done_at", "pk")
    )
    return {
        "exported_at": now.isoformat(),
        "account": {
            "username": user.username,
            "email": user.email,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
        },
        "plan": {
            "intensity": plan.intensity.slug,
            "start_date": plan.start_date.isoformat(),
            "exam_date": plan.exam_date.isoformat() if plan.exam_date else None,
            "created_at": plan.created_at.isoformat(),
            "updated_at": plan.updated_at.isoformat(),
        }
        if plan
        else None,
        "ticks": [
            {
                "self_check": tick.self_check.slug,
                "phase": tick.self_check.phase.number,
                "domain": tick.self_check.domain.slug,
                "prompt": tick.self_check.prompt,
                "done_at": tick.done_at.isoformat(),
                "retired": tick.self_check.retired,
            }
            for tick in ticks
        ],
    }


@transaction.atomic
def delete_learner(user) -> None:
    """The account and everything attached to it: plan and ticks go with it (CASCADE)."""
    user.delete()
