"""The learner's own rows. The rules that pick rows out (due for review, the open mock, answers
that count) are QuerySet methods here, each written once."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Coalesce, RowNumber
from django.utils import timezone
from fsrs import State

from phases.models import Domain, Intensity, Question, SelfCheck

from .exercise import Exercise  # noqa: F401  (its module's model, registered with these)
from .learner_rows import LearnerQuerySet
from .memory import Memory
from .not_yet import NotYet  # noqa: F401 (a model of this app, in a module of its own)
from .study_sessions import StudySession  # noqa: F401  (a module of its own, to keep this one short)


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    time_zone = models.CharField(
        max_length=64, blank=True, help_text="An IANA name; empty means the site's time zone."
    )
    weekly_reminder = models.BooleanField(default=False)
    reminders_on_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the weekly reminder was last turned on: its unsubscribe links name it, "
        "so turning reminders on again retires every older link.",
    )
    reminded_on = models.DateField(
        null=True, blank=True, help_text="The day the last weekly reminder was claimed."
    )
    # The learner's day for reviews, fixed by its first review (progress.review_days): a change
    # of time zone moves the day only once this one has ended.
    review_day = models.DateField(null=True, blank=True)
    review_day_starts = models.DateTimeField(null=True, blank=True)
    review_day_ends = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user_id"]

    def __str__(self) -> str:
        return f"{self.user}: {self.time_zone or 'site time zone'}"


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


class MemoryCard(models.Model):
    """A card's FSRS memory (progress.memory): what the scheduler knows of it, and when it comes
    back. Null stability and last review: never reviewed."""

    state = models.PositiveSmallIntegerField(
        default=int(State.Review),
        db_default=int(State.Review),
        help_text="FSRS: 1 learning, 2 review, 3 relearning.",
    )
    stability = models.FloatField(null=True, blank=True)
    difficulty = models.FloatField(null=True, blank=True)
    due = models.DateTimeField(help_text="When it next comes back to the review queue.")
    last_review = models.DateTimeField(null=True, blank=True)
    last_review_day = models.DateField(
        null=True,
        blank=True,
        help_text="The learner's day of the last review: FSRS counts time in such days.",
    )
    reviews = models.PositiveIntegerField(default=0, db_default=0)

    class Meta:
        abstract = True

    @property
    def memory(self) -> Memory:
        return Memory(
            self.state,
            self.stability,
            self.difficulty,
            self.due,
            self.last_review,
            self.last_review_day,
        )

    def remember(self, memory: Memory) -> None:
        for name, value in vars(memory).items():
            setattr(self, name, value)
        self.reviews += 1

    MEMORY_FIELDS = [
        "state",
        "stability",
        "difficulty",
        "due",
        "last_review",
        "last_review_day",
        "reviews",
    ]


class Confidence(models.TextChoices):
    UNRATED = "", "Not rated"
    SHAKY = "shaky", "Shaky"
    SOLID = "solid", "Solid"


class CheckOffQuerySet(LearnerQuerySet):
    def ticked(self):
        """The ticks standing now: an unticked check keeps its card, and counts nowhere."""
        return self.filter(unticked_at__isnull=True)


class CheckOff(MemoryCard):
    """A self-check the learner has answered without notes: a card in their review queue. The
    tick is its first review, rated by ``confidence`` (progress.memory.CONFIDENCE_RATING).
    Unticking keeps the card and its history (``unticked_at``); ticking again restores it, and
    is a review when the card is due."""

    # No index of its own: the unique (user, self-check) index starts with the user, and every
    # read of a learner's ticks takes all of them. An index less is one less written per tick.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="check_offs",
        db_index=False,
    )
    self_check = models.ForeignKey(SelfCheck, on_delete=models.CASCADE, related_name="check_offs")
    done_at = models.DateTimeField(default=timezone.now)
    confidence = models.CharField(
        max_length=5, choices=Confidence.choices, blank=True, default="", db_default=""
    )
    unticked_at = models.DateTimeField(
        null=True, blank=True, help_text="When the learner unticked it; empty while ticked."
    )

    objects = CheckOffQuerySet.as_manager()

    class Meta:
        ordering = ["done_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "self_check"], name="unique_check_off")
        ]

    def __str__(self) -> str:
        return f"{self.user} ✓ {self.self_check.slug}"


class Reveal(models.Model):
    """A self-check turned over: the learner asked for its reference answer, after typing their
    own (``answer``), and has not yet said how it went. A row per check, so reveals made at the
    same moment in several tabs all stand; older than REVEAL_LASTS, it counts as face down again,
    so a later sitting answers from memory before seeing the reference."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reveals"
    )
    self_check = models.ForeignKey(SelfCheck, on_delete=models.CASCADE, related_name="+")
    answer = models.TextField(blank=True, help_text="What the learner typed before the reveal.")
    revealed_at = models.DateTimeField()

    objects = LearnerQuerySet.as_manager()

    REVEAL_LASTS = datetime.timedelta(hours=6)

    class Meta:
        ordering = ["revealed_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "self_check"], name="one_reveal_per_check")
        ]

    def __str__(self) -> str:
        return f"{self.user} revealed {self.self_check_id}"


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
    placement = models.BooleanField(default=False)  # a short timed mock: progress.placement
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


class QuestionCardQuerySet(LearnerQuerySet):
    def in_queue(self):
        """Still to be learned: not yet answered right in enough reviews in a row."""
        return self.filter(left_at__isnull=True, question__retired=False)


class QuestionCard(MemoryCard):
    """A question the learner got wrong in a closed attempt, back as a review card. The miss is
    its first review (Again); it leaves the queue after progress.memory.RIGHT_IN_A_ROW_TO_LEAVE
    right reviews in a row, and comes back if missed again."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="question_cards"
    )
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="+")
    chosen = models.JSONField(help_text="The learner's wrong answer, as option indexes.")
    order = models.JSONField(default=list, help_text="The options' order when it next comes back.")
    missed_at = models.DateTimeField()
    right_in_a_row = models.PositiveSmallIntegerField(default=0)
    left_at = models.DateTimeField(
        null=True, blank=True, help_text="When it left the queue, answered right enough times."
    )

    objects = QuestionCardQuerySet.as_manager()

    class Meta:
        ordering = ["missed_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "question"], name="unique_question_card")
        ]
        indexes = [models.Index(fields=["user", "due"], name="question_card_due")]

    def __str__(self) -> str:
        return f"{self.user} ✗ {self.question.slug}"


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


class ReviewLog(models.Model):
    """One review of one card as it happened (after Anki's revlog): a tick is a self-check's first
    review, a miss a question's. The memory before and after and the recall FSRS predicted let
    the forecast be checked against what the learner remembered (progress.calibration). Never
    changed. A "not yet" on a self-check is a row too: rated "forgot", no tick, no memory."""

    class Kind(models.TextChoices):
        CHECK = "check", "Self-check"
        QUESTION = "question", "Missed question"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_logs"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    self_check = models.ForeignKey(
        SelfCheck, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    question = models.ForeignKey(
        Question, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    reviewed_at = models.DateTimeField()
    day = models.DateField(
        null=True, blank=True, help_text="The learner's day the review counts for."
    )
    first = models.BooleanField(help_text="The card's first review: a tick, or a miss.")
    rating = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="FSRS: 1 forgot, 2 hard, 3 knew it, 4 easy; empty: "
        "recovered from before the log, rating unknown.",
    )
    elapsed_days = models.FloatField(
        null=True, blank=True, help_text="Days since the card's previous review."
    )
    scheduled_days = models.FloatField(
        null=True, blank=True, help_text="Days until the review this one scheduled."
    )
    predicted_recall = models.FloatField(
        null=True, blank=True, help_text="FSRS's predicted recall at this moment, before it."
    )
    state_before = models.PositiveSmallIntegerField(null=True, blank=True)
    stability_before = models.FloatField(null=True, blank=True)
    difficulty_before = models.FloatField(null=True, blank=True)
    state_after = models.PositiveSmallIntegerField(null=True, blank=True)
    stability_after = models.FloatField(null=True, blank=True)
    difficulty_after = models.FloatField(null=True, blank=True)
    answer = models.TextField(
        blank=True, default="", help_text="What the learner typed before revealing the answer."
    )

    class Meta:
        ordering = ["reviewed_at", "pk"]
        indexes = [models.Index(fields=["user", "reviewed_at"], name="review_log_user_time")]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} review at {self.reviewed_at:%Y-%m-%d %H:%M}"

    @property
    def recalled(self) -> bool | None:
        """Whether the learner remembered (any rating but "forgot"); None if unknown."""
        return None if self.rating is None else self.rating > 1
