"""A learner's own data: everything we hold, as JSON, and deleting it all."""

import datetime
from typing import Any

from django.db import transaction

from ..models import CheckOff, StudyPlan


def export_learner(user: Any, *, now: datetime.datetime) -> dict[str, Any]:
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
def delete_learner(*, user: Any) -> None:
    """The account and everything attached to it: plan, ticks, attempts go with it (CASCADE)."""
    user.delete()
