"""The cards a learner's memory is kept on (FSRS, progress.memory.scheduling): ticked
self-checks and missed practice questions; the self-checks "not yet" known and the ones turned
over; and the review log, every review as it happened. The rules that pick rows out (the ticks
standing, the cards still in the queue) are QuerySet methods here."""

import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from fsrs import State

from phases.models import Question, SelfCheck
from progress.learner_rows import LearnerQuerySet
from progress.memory.scheduling import Memory


class MemoryCard(models.Model):
    """A card's FSRS memory (progress.memory.scheduling): what the scheduler knows of it, and when
    it comes back. Null stability and last review: never reviewed."""

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
    tick is its first review, rated by ``confidence``
    (progress.memory.scheduling.CONFIDENCE_RATING). Unticking keeps the card and its history
    (``unticked_at``); ticking again restores it, and is a review when the card is due."""

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


class QuestionCardQuerySet(LearnerQuerySet):
    def in_queue(self):
        """Still to be learned: not yet answered right in enough reviews in a row."""
        return self.filter(left_at__isnull=True, question__retired=False)


class QuestionCard(MemoryCard):
    """A question the learner got wrong in a closed attempt, back as a review card. The miss is
    its first review (Again); it leaves the queue after
    progress.memory.scheduling.RIGHT_IN_A_ROW_TO_LEAVE right reviews in a row, and comes back if
    missed again."""

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


class NotYet(models.Model):
    """The check's newest failed attempt; its row in the review log says what was typed."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="not_yets"
    )
    self_check = models.ForeignKey(SelfCheck, on_delete=models.CASCADE, related_name="+")
    tried_at = models.DateTimeField()
    due = models.DateTimeField(help_text="The start of the learner's next day after the try.")

    objects = LearnerQuerySet.as_manager()

    class Meta:
        ordering = ["due"]
        constraints = [
            models.UniqueConstraint(fields=["user", "self_check"], name="unique_not_yet")
        ]

    def __str__(self) -> str:
        return f"{self.user} not yet {self.self_check_id}"


class ReviewLog(models.Model):
    """One review of one card as it happened (after Anki's revlog): a tick is a self-check's first
    review, a miss a question's. The memory before and after and the recall FSRS predicted let
    the forecast be checked against what the learner remembered (progress.memory.calibration). Never
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
        indexes = [
            models.Index(fields=["user", "reviewed_at"], name="review_log_user_time"),
            # Each check's latest review before a moment (the recall line's weeks), one seek each.
            models.Index(
                fields=["user", "self_check", "reviewed_at"], name="review_log_user_check_time"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} review at {self.reviewed_at:%Y-%m-%d %H:%M}"

    @property
    def recalled(self) -> bool | None:
        """Whether the learner remembered (any rating but "forgot"); None if unknown."""
        return None if self.rating is None else self.rating > 1
