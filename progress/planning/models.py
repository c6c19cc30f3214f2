"""The learner's plan: the intensity, the dates, and the placement that shaped it."""

from typing import Any

from django.conf import settings
from django.db import models

from phases.models import Intensity
from phases.own_pace import Pace


class StudyPlan(models.Model):
    class Kind(models.TextChoices):
        PACED = "paced", "At the schedule's own pace"
        FITTED = "fitted", "Compressed to finish by the exam date when no schedule does"
        SHORT_NOTICE = "short_notice", "Day by day for the days left (phases.short_notice)"
        OWN_PACE = "own_pace", "The learner's hours a week on their weekdays (phases.own_pace)"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="study_plan"
    )
    intensity = models.ForeignKey(Intensity, on_delete=models.PROTECT, related_name="plans")
    start_date = models.DateField()
    exam_date = models.DateField(null=True, blank=True)
    kind = models.CharField(max_length=12, choices=Kind, default=Kind.PACED)
    placement = models.JSONField(default=dict, blank=True)  # newest: {domain: [right, asked]}
    # A plan at the learner's own pace: their hours a week and the weekdays they study, as
    # digits, 0 for Monday ("025": Monday, Wednesday, Saturday). Empty for the other kinds.
    hours_per_week = models.PositiveSmallIntegerField(null=True, blank=True)
    study_weekdays = models.CharField(max_length=7, blank=True, default="")
    # Phases whose self-checks were all done when the learner last re-planned from today ("catch
    # up"), as digits ("13"): the new calendar lays only the others.
    done_phases = models.CharField(max_length=9, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["user_id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=["paced", "fitted", "short_notice", "own_pace"]),
                name="study_plan_kind_is_known",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="own_pace")
                | models.Q(hours_per_week__gte=1, hours_per_week__lte=40)
                & ~models.Q(study_weekdays=""),
                name="own_pace_has_hours_and_days",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.intensity} from {self.start_date:%Y-%m-%d}"

    @property
    def fitted(self) -> bool:
        return self.kind == self.Kind.FITTED

    @property
    def short_notice(self) -> bool:
        return self.kind == self.Kind.SHORT_NOTICE

    @property
    def skipped(self) -> frozenset[int]:
        return frozenset(int(number) for number in self.done_phases)

    @property
    def pace(self) -> Pace | None:
        """The learner's own pace, for a plan of that kind."""
        if self.kind != self.Kind.OWN_PACE or not self.hours_per_week or not self.study_weekdays:
            return None
        return Pace(self.hours_per_week, frozenset(int(day) for day in self.study_weekdays))


class EarlierPlan(models.Model):
    """A plan as it stood before the learner changed it or caught up: theirs to look back on and
    in their export; gone with the account."""

    class Reason(models.TextChoices):
        CHANGED = "changed", "Changed on the plan form"
        CAUGHT_UP = "caught_up", "Re-planned from the day the learner caught up"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="earlier_plans"
    )
    replaced_at = models.DateTimeField()
    reason = models.CharField(max_length=9, choices=Reason)
    intensity = models.ForeignKey(Intensity, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=12, choices=StudyPlan.Kind)
    start_date = models.DateField()
    exam_date = models.DateField(null=True, blank=True)
    hours_per_week = models.PositiveSmallIntegerField(null=True, blank=True)
    study_weekdays = models.CharField(max_length=7, blank=True, default="")
    done_phases = models.CharField(max_length=9, blank=True, default="")
    finish = models.DateField(help_text="The day its calendar ended: the full mock's.")

    class Meta:
        ordering = ["-replaced_at", "-pk"]
        indexes = [models.Index(fields=["user", "replaced_at"], name="earlier_plan_user_time")]

    def __str__(self) -> str:
        return (
            f"{self.user}: {self.kind} from {self.start_date:%Y-%m-%d}, "
            f"replaced {self.replaced_at:%Y-%m-%d}"
        )


# The plan page lists the newest few; the export holds every one.
EARLIER_PLANS_SHOWN = 10


def earlier_plans(user: Any) -> list[EarlierPlan]:
    """The learner's plans before this one, newest first, as the plan page lists them."""
    rows = EarlierPlan.objects.filter(user_id=user.pk).select_related("intensity")
    return list(rows[:EARLIER_PLANS_SHOWN])
