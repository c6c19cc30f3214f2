"""Writing a phase's exercise, and ticking the parts it covers."""

import datetime
from typing import Any

from django.db import transaction

from phases.snapshot import PhaseInfo

from ..exercise import Exercise


def save_text(*, user: Any, phase: PhaseInfo, text: str, now: datetime.datetime) -> Exercise:
    # update_or_create is its own transaction, its read locking the row.
    exercise, _ = Exercise.objects.update_or_create(
        user=user, phase_id=phase.id, defaults={"text": text, "saved_at": now}
    )
    return exercise


@transaction.atomic
def tick_parts(
    *, user: Any, phase: PhaseInfo, ticked: set[str], now: datetime.datetime
) -> Exercise:
    """The phase's current parts ticked are exactly ``ticked`` (a part left out is unticked, as
    an unticked checkbox is not sent); ticks on retired parts are kept, as ticks on retired
    self-checks are. Done, with its moment, once every current part is ticked."""
    exercise, _ = Exercise.objects.select_for_update().get_or_create(user=user, phase_id=phase.id)
    current = [part.slug for part in phase.exercise_parts]
    retired = [slug for slug in exercise.ticked if slug not in current]
    exercise.ticked = retired + [slug for slug in current if slug in ticked]
    if not current or not set(current) <= ticked:
        exercise.done_at = None
    elif exercise.done_at is None:
        exercise.done_at = now
    exercise.save(update_fields=["ticked", "done_at"])
    return exercise
