"""Practice: drills, the timed mock and the placement (an Attempt and its questions), and the
learners' reports on questions. Which answers count, and for what, are QuerySet methods here."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Coalesce, RowNumber
from django.utils import timezone

from phases.models import Domain, Question


class AttemptQuerySet(models.QuerySet):
    def for_user(self, user):
        return self.filter(user=user)

    def unsubmitted_mocks(self):
        """The live mock, or one whose time ran out unclosed: one at most (a constraint)."""
        return self.filter(kind=Attempt.Kind.MOCK, submitted_at__isnull=True)

    def open_mock(self, now: datetime.datetime):
        return self.unsubmitted_mocks().filter(deadline__gt=now)

    def closed(self, now: datetime.datetime):
        """Attempts whose answers count: drills, and mocks once submitted or past the deadline."""
        return self.filter(
            Q(kind=Attempt.Kind.DRILL) | Q(submitted_at__isnull=False) | Q(deadline__lte=now)
        )


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
    placement = models.BooleanField(
        default=False
    )  # a short timed mock: progress.planning.placement
    started_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    objects = AttemptQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["user", "kind", "-started_at"], name="attempt_recent")]
        constraints = [
            # The database's own guard: two simultaneous "start mock" posts make one mock.
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(kind="mock", submitted_at__isnull=True),
                name="one_open_mock_per_learner",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.get_kind_display()} {self.started_at:%Y-%m-%d %H:%M}"

    def is_over(self, now: datetime.datetime) -> bool:
        return self.submitted_at is not None or (self.deadline is not None and now >= self.deadline)

    def seconds_left(self, now: datetime.datetime) -> int | None:
        return int((self.deadline - now).total_seconds()) if self.deadline else None

    @property
    def timed_out(self) -> bool:
        """Handed in by the clock: a mock closes at its deadline exactly when time ran out."""
        return self.deadline is not None and self.submitted_at == self.deadline


class AttemptQuestionQuerySet(models.QuerySet):
    def counted(self, user, now: datetime.datetime):
        """The learner's answers that count towards accuracy: every answered question of a
        drill, and every question of a closed mock (an unanswered one counts as wrong). A live
        mock's answers count nowhere, so no page can give its key away."""
        return self.filter(attempt__user=user).counted_by_anyone(now)

    def counted_by_anyone(self, now: datetime.datetime):
        """Every learner's counted answers (``counted``'s rule): the question bank's statistics."""
        return self.filter(
            Q(attempt__kind=Attempt.Kind.DRILL, answered_at__isnull=False)
            | Q(attempt__kind=Attempt.Kind.MOCK, attempt__submitted_at__isnull=False)
            | Q(attempt__kind=Attempt.Kind.MOCK, attempt__deadline__lte=now)
        )

    def counted_by(self, moment: datetime.datetime):
        """Only the answers that had counted by ``moment``: a drill's when answered, a mock's
        when it was handed in or its time ran out."""
        return self.filter(
            Q(attempt__kind=Attempt.Kind.DRILL, answered_at__lt=moment)
            | Q(attempt__kind=Attempt.Kind.MOCK, attempt__submitted_at__lt=moment)
            | Q(
                attempt__kind=Attempt.Kind.MOCK,
                attempt__submitted_at__isnull=True,
                attempt__deadline__lt=moment,
            )
        )

    def for_accuracy(self):
        """The answers accuracy reads: a learner's first answer to each question (a repeat is
        practice: its key was seen), and no stretch question (beyond the exam)."""
        return self.filter(first_sight=True, question__stretch=False)

    def newest_per_domain(self, window: int):
        """At most ``window`` newest rows per question domain, newest first within each."""
        return (
            self.annotate(
                when=Coalesce("answered_at", "attempt__submitted_at", "attempt__deadline"),
            )
            .annotate(
                rank=models.Window(
                    RowNumber(),
                    partition_by=F("question__domain_id"),
                    order_by=[F("when").desc(), F("pk").desc()],
                )
            )
            .filter(rank__lte=window)
            .order_by()
        )


class AttemptQuestion(models.Model):
    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="questions")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    order = models.JSONField(help_text="The order the options are shown in, as indexes.")
    chosen = models.JSONField(null=True, blank=True)
    is_correct = models.BooleanField(null=True)
    flagged = models.BooleanField(default=False)
    answered_at = models.DateTimeField(null=True, blank=True)
    first_sight = models.BooleanField(
        null=True,
        blank=True,
        help_text="Set when the answer starts to count: true for the learner's first counted "
        "answer to the question, false for a repeat (practice, counted nowhere in accuracy).",
    )

    objects = AttemptQuestionQuerySet.as_manager()

    class Meta:
        ordering = ["attempt", "position"]
        constraints = [
            models.UniqueConstraint(fields=["attempt", "position"], name="unique_attempt_position")
        ]

    def __str__(self) -> str:
        return f"{self.attempt} #{self.position}"


class QuestionReport(models.Model):
    """A learner saying a practice question is wrong: read by whoever keeps the bank, in the
    admin, and marked fixed or rejected there."""

    class Kind(models.TextChoices):
        WRONG_KEY = "wrong-key", "The answer marked right is wrong"
        TWO_RIGHT = "two-right", "More than one option is right"
        UNCLEAR = "unclear", "The question is unclear"
        TYPO = "typo", "A typo or a mistake in the wording"
        OTHER = "other", "Something else"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        FIXED = "fixed", "Fixed"
        REJECTED = "rejected", "Rejected"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="question_reports"
    )
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="reports")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    note = models.TextField(blank=True, max_length=2000)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["question", "status"], name="report_question_status")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "question"],
                condition=Q(status="open"),
                name="one_open_report_per_learner_and_question",
            )
        ]

    def __str__(self) -> str:
        return f"{self.question.slug}: {self.get_kind_display()}"
