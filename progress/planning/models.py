"""The learner's plan: the intensity, the dates, and the placement that shaped it."""

from django.conf import settings
from django.db import models

from phases.models import Intensity


class StudyPlan(models.Model):
    class Kind(models.TextChoices):
        PACED = "paced", "At the schedule's own pace"
        FITTED = "fitted", "Compressed to finish by the exam date when no schedule does"
        SHORT_NOTICE = "short_notice", "Day by day for the days left (phases.short_notice)"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="study_plan"
    )
    intensity = models.ForeignKey(Intensity, on_delete=models.PROTECT, related_name="plans")
    start_date = models.DateField()
    exam_date = models.DateField(null=True, blank=True)
    kind = models.CharField(max_length=12, choices=Kind, default=Kind.PACED)
    placement = models.JSONField(default=dict, blank=True)  # newest: {domain: [right, asked]}
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["user_id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=["paced", "fitted", "short_notice"]),
                name="study_plan_kind_is_known",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.intensity} from {self.start_date:%Y-%m-%d}"

    @property
    def fitted(self) -> bool:
        return self.kind == self.Kind.FITTED

    @property
    def short_notice(self) -> bool:
        return self.kind == self.Kind.SHORT_NOTICE
