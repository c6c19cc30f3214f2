"""The learner's own rows: a study plan and the self-checks they have ticked off."""

from django.conf import settings
from django.db import models

from phases.models import Intensity, SelfCheck


class StudyPlan(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="study_plan"
    )
    intensity = models.ForeignKey(Intensity, on_delete=models.PROTECT, related_name="plans")
    start_date = models.DateField()
    exam_date = models.DateField(null=True, blank=True)
    progress_version = models.PositiveIntegerField(
        default=0, help_text="Moves on every tick or plan change; keys the cached dashboard."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["user_id"]

    def __str__(self) -> str:
        return f"{self.user}: {self.intensity} from {self.start_date:%Y-%m-%d}"


class CheckOffQuerySet(models.QuerySet):
    def for_user(self, user):
        # Unordered: callers that want an order say so, and the hot paths want none.
        return self.filter(user=user).order_by()


class CheckOff(models.Model):
    """A self-check the learner has answered without notes."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="check_offs"
    )
    self_check = models.ForeignKey(SelfCheck, on_delete=models.CASCADE, related_name="check_offs")
    done_at = models.DateTimeField(auto_now_add=True)

    objects = CheckOffQuerySet.as_manager()

    class Meta:
        ordering = ["done_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "self_check"], name="unique_check_off")
        ]

    def __str__(self) -> str:
        return f"{self.user} ✓ {self.self_check.slug}"
