"""The learner's plan: the intensity, the dates, and the placement that shaped it."""

from django.conf import settings
from django.db import models

from phases.models import Intensity


class StudyPlan(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="study_plan"
    )
    intensity = models.ForeignKey(Intensity, on_delete=models.PROTECT, related_name="plans")
    start_date = models.DateField()
    exam_date = models.DateField(null=True, blank=True)
    fitted = models.BooleanField(
        default=False,
        help_text="Compressed to finish by the exam date when no intensity does.",
    )
    short_notice = models.BooleanField(default=False)  # day by day: phases.short_notice
    placement = models.JSONField(default=dict, blank=True)  # newest: {domain: [right, asked]}
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["user_id"]

    def __str__(self) -> str:
        return f"{self.user}: {self.intensity} from {self.start_date:%Y-%m-%d}"
