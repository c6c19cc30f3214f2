"""The learner's own rows: a study plan and the self-checks they have ticked off."""

from django.conf import settings
from django.db import models

from phases.models import Domain, Intensity, Question, SelfCheck


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


class Confidence(models.TextChoices):
    UNRATED = "", "Not rated"
    SHAKY = "shaky", "Shaky"
    SOLID = "solid", "Solid"


class CheckOff(models.Model):
    """A self-check the learner has answered without notes, and when to see it again.

    ``box`` is the Leitner box (0 to 4: review after 1, 3, 7, 14, 30 days); ``due_on`` is the
    day it comes back to the review queue.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="check_offs"
    )
    self_check = models.ForeignKey(SelfCheck, on_delete=models.CASCADE, related_name="check_offs")
    done_at = models.DateTimeField(auto_now_add=True)
    confidence = models.CharField(
        max_length=5, choices=Confidence.choices, blank=True, default="", db_default=""
    )
    box = models.PositiveSmallIntegerField(default=1, db_default=1)
    due_on = models.DateField(null=True, blank=True)
    reviewed_on = models.DateField(null=True, blank=True)

    objects = CheckOffQuerySet.as_manager()

    class Meta:
        ordering = ["done_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "self_check"], name="unique_check_off")
        ]
        indexes = [models.Index(fields=["user", "due_on"], name="check_off_due")]

    def __str__(self) -> str:
        return f"{self.user} ✓ {self.self_check.slug}"


class AttemptQuerySet(models.QuerySet):
    def for_user(self, user):
        return self.filter(user=user)

    def mocks(self):
        return self.filter(kind=Attempt.Kind.MOCK)


class Attempt(models.Model):
    """A domain drill or a timed mock exam; it lives on the server, so a reload resumes it."""

    class Kind(models.TextChoices):
        DRILL = "drill", "Domain drill"
        MOCK = "mock", "Timed mock exam"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attempts"
    )
    kind = models.CharField(max_length=5, choices=Kind.choices)
    domain = models.ForeignKey(
        Domain, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    started_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    objects = AttemptQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["user", "kind", "-started_at"], name="attempt_recent")]

    def __str__(self) -> str:
        return f"{self.user}: {self.get_kind_display()} {self.started_at:%Y-%m-%d %H:%M}"

    def is_over(self, now) -> bool:
        return self.submitted_at is not None or (self.deadline is not None and now >= self.deadline)


class AttemptQuestion(models.Model):
    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="questions")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    order = models.JSONField(help_text="The order the options are shown in, as indexes.")
    chosen = models.JSONField(null=True, blank=True)
    is_correct = models.BooleanField(null=True)
    flagged = models.BooleanField(default=False)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["attempt", "position"]
        constraints = [
            models.UniqueConstraint(fields=["attempt", "position"], name="unique_attempt_position")
        ]

    def __str__(self) -> str:
        return f"{self.attempt} #{self.position}"
