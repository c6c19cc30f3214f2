"""The written exercise that ends each phase: the learner's text and the parts they have ticked
(an Exercise row), read against the phase's parts in the snapshot (phases.snapshot.PartInfo).
Done means every current part is ticked; a part retired from the syllabus counts nowhere."""

import datetime
from dataclasses import dataclass
from typing import Any, ClassVar

from django.conf import settings
from django.db import models

from phases.models import Phase
from phases.snapshot import PartInfo, PhaseInfo
from progress.learner_rows import LearnerQuerySet, one_or_none

# Long enough for a one-page report many times over; a cap so one post cannot fill the disk.
MAX_CHARS = 50_000


class Exercise(models.Model):
    """One learner's written exercise for one phase."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="exercises"
    )
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="exercises")
    text = models.TextField(blank=True)
    saved_at = models.DateTimeField(null=True, blank=True, help_text="When the text last changed.")
    ticked = models.JSONField(
        default=list, blank=True, help_text="The slugs of the parts the learner says it covers."
    )
    done_at = models.DateTimeField(
        null=True, blank=True, help_text="When the last part was ticked; empty until then."
    )
    # Each save names the version it was read at: a save from a stale tab is refused, not
    # written over what another tab saved since.
    text_version = models.PositiveIntegerField(default=0)
    parts_version = models.PositiveIntegerField(default=0)

    objects = LearnerQuerySet.as_manager()

    class Meta:
        ordering = ["user_id", "phase__number"]
        constraints = [
            models.UniqueConstraint(fields=["user", "phase"], name="one_exercise_per_phase")
        ]

    def __str__(self) -> str:
        return f"{self.user}: phase {self.phase_id} exercise"


@dataclass(frozen=True)
class ExerciseStatus:
    """What the phase page, the plan and the dashboard say about one phase's exercise."""

    phase: PhaseInfo
    text: str = ""
    saved_at: datetime.datetime | None = None
    ticked: frozenset[str] = frozenset()
    done_at: datetime.datetime | None = None
    text_version: int = 0
    parts_version: int = 0
    max_chars: ClassVar[int] = MAX_CHARS
    max_chars_text: ClassVar[str] = f"{MAX_CHARS:,}"

    @property
    def parts(self) -> list[tuple[PartInfo, bool]]:
        return [(part, part.slug in self.ticked) for part in self.phase.exercise_parts]

    @property
    def ticked_count(self) -> int:
        return sum(1 for _, ticked in self.parts if ticked)

    @property
    def done(self) -> bool:
        return bool(self.phase.exercise_parts) and all(ticked for _, ticked in self.parts)

    @property
    def started(self) -> bool:
        return self.saved_at is not None or bool(self.ticked)


def status(row: Exercise | None, phase: PhaseInfo) -> ExerciseStatus:
    if row is None:
        return ExerciseStatus(phase=phase)
    ticked = frozenset(str(slug) for slug in row.ticked or [])
    return ExerciseStatus(
        phase, row.text, row.saved_at, ticked, row.done_at, row.text_version, row.parts_version
    )


def exercise_status(user: Any, phase: PhaseInfo) -> ExerciseStatus:
    """One query."""
    return status(one_or_none(Exercise.objects.for_user(user).filter(phase_id=phase.id)), phase)


def exercise_statuses(user: Any, phases: tuple[PhaseInfo, ...]) -> dict[int, ExerciseStatus]:
    """Every phase's exercise, by phase number, in one query: the texts are left unread (each
    row read stands in with an empty one)."""
    fields = ("phase_id", "saved_at", "ticked", "done_at", "text_version", "parts_version")
    rows = {
        row["phase_id"]: Exercise(**row) for row in Exercise.objects.for_user(user).values(*fields)
    }
    return {phase.number: status(rows.get(phase.id), phase) for phase in phases}


def markdown(exercise: ExerciseStatus) -> str:
    """The exercise as a Markdown file: the phase, the parts as a checklist, the learner's text."""
    phase = exercise.phase
    lines = [
        f"# Phase {phase.number}: {phase.title}: written exercise",
        "",
        phase.practice_exercise,
        "",
        "## Parts",
        "",
        *(f"- [{'x' if ticked else ' '}] {part.text}" for part, ticked in exercise.parts),
        "",
        "## My answer",
        "",
        exercise.text.replace("\r\n", "\n").strip() or "(Nothing written yet.)",
    ]
    return "\n".join(lines) + "\n"
