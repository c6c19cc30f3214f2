"""The learner's exam outcome: the day they sat it, whether they passed, the score report's
per-domain figures where they have them, and what the app said as of that day. Theirs to edit and
delete; counted in the public figures only once they opt in."""

from typing import Any

from django.conf import settings
from django.db import models

from progress.outcomes.figures import PublicFigures, public_figures


class ExamOutcome(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="exam_outcome"
    )
    sat_on = models.DateField(help_text="The day the learner sat the exam.")
    passed = models.BooleanField()
    domain_scores = models.JSONField(
        default=dict,
        blank=True,
        help_text="The score report's per-domain figures, {domain slug: percent}, where given.",
    )
    counted = models.BooleanField(
        default=False, help_text="Opted in to the public figures; off until given."
    )
    said = models.JSONField(
        default=dict,
        help_text="What the app said as the exam day ended (progress.outcomes.services.said).",
    )
    recorded_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["user_id"]
        indexes = [models.Index(fields=["counted"], name="exam_outcome_counted")]

    def __str__(self) -> str:
        return f"{self.user}: {'passed' if self.passed else 'not passed'} on {self.sat_on}"


def outcome_of(user: Any) -> ExamOutcome | None:
    return ExamOutcome.objects.filter(user_id=user.pk).first()


def counted_outcomes() -> list[tuple[dict[str, Any], bool, dict[str, int]]]:
    """Every opted-in outcome as (what the app said, passed, reported scores): one query."""
    return [
        (said, passed, scores)
        for said, passed, scores in ExamOutcome.objects.filter(counted=True)
        .order_by("pk")
        .values_list("said", "passed", "domain_scores")
    ]


def published_figures(content: Any) -> PublicFigures:
    """The public page's figures (progress.outcomes.figures) from every opted-in outcome, for
    the domains of ``content`` (a syllabus snapshot): the page and the admin read the same."""
    return public_figures(
        counted_outcomes(), [(domain.slug, domain.name) for domain in content.domains]
    )
