"""Writing a phase's exercise, and ticking the parts it covers. Each save names the version of
the text (or of the ticks) it was read at; one read before another tab's save is refused
(Stale), so no tab writes over what another saved since."""

import datetime
from typing import Any

from django.db import transaction

from phases.snapshot import PhaseInfo
from progress.exercises.models import Exercise
from progress.lock import lock_learner


class Stale(Exception):
    """The exercise changed since the page sending this save was read: nothing was saved."""

    def __init__(self, current: Exercise | None):
        self.current = current
        super().__init__("the exercise changed in another tab")


def _current(user: Any, phase: PhaseInfo) -> Exercise | None:
    lock_learner(user)
    return Exercise.objects.for_user(user).select_for_update().filter(phase_id=phase.id).first()


@transaction.atomic
def save_text(
    *, user: Any, phase: PhaseInfo, text: str, version: int, now: datetime.datetime
) -> Exercise:
    """The text, if ``version`` is the one saved now (0 before the first save); Stale if not."""
    exercise = _current(user, phase)
    if (exercise.text_version if exercise else 0) != version:
        raise Stale(exercise)
    if exercise is None:
        return Exercise.objects.create(
            user=user, phase_id=phase.id, text=text, saved_at=now, text_version=1
        )
    exercise.text, exercise.saved_at = text, now
    exercise.text_version += 1
    exercise.save(update_fields=["text", "saved_at", "text_version"])
    return exercise


@transaction.atomic
def tick_parts(
    *, user: Any, phase: PhaseInfo, ticked: set[str], version: int, now: datetime.datetime
) -> Exercise:
    """The phase's current parts ticked are exactly ``ticked`` (a part left out is unticked, as
    an unticked checkbox is not sent), if ``version`` is the ticks' version now; Stale if not.
    Ticks on retired parts are kept, as ticks on retired self-checks are. Done, with its moment,
    once every current part is ticked."""
    exercise = _current(user, phase)
    if (exercise.parts_version if exercise else 0) != version:
        raise Stale(exercise)
    if exercise is None:
        exercise = Exercise.objects.create(user=user, phase_id=phase.id)
    current = [part.slug for part in phase.exercise_parts]
    retired = [slug for slug in exercise.ticked if slug not in current]
    exercise.ticked = retired + [slug for slug in current if slug in ticked]
    if not current or not set(current) <= ticked:
        exercise.done_at = None
    elif exercise.done_at is None:
        exercise.done_at = now
    exercise.parts_version += 1
    exercise.save(update_fields=["ticked", "done_at", "parts_version"])
    return exercise
