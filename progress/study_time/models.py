"""Study sessions: the time a learner spent on a phase, from the timer or typed in. The limits
on a session are written here once, for the forms, the timer and the pages alike."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q

from phases.models import Domain, Phase

MAX_MINUTES = 600  # what one typed-in session may hold: ten hours
DAY_MINUTES = 24 * 60  # what all of one day's sessions, timed and typed, may hold together
# A timer left running stops counting here (or at the midnight after its start, if sooner):
# past it, the learner most likely forgot to stop it.
TIMER_CAP = datetime.timedelta(hours=4)
TIMER_CAP_TEXT = "4 hours, or midnight if that comes first"


def duration(minutes: float) -> str:
    """Minutes in words: "23 min", "2 h", "1 h 05 min"."""
    hours, rest = divmod(round(minutes), 60)
    if not hours:
        return f"{rest} min"
    return f"{hours} h {rest:02d} min" if rest else f"{hours} h"


class StudySessionQuerySet(models.QuerySet):
    def for_user(self, user):
        return self.filter(user=user)

    def running(self):
        return self.filter(minutes__isnull=True)

    def recorded(self):
        return self.filter(minutes__isnull=False)


class StudySession(models.Model):
    """Time studied on one phase, for one of its domains. While ``minutes`` is empty it is the
    learner's running timer (at most one: a constraint); stopping it records the minutes."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="study_sessions"
    )
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="+")
    domain = models.ForeignKey(
        Domain,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="Chosen when the timer stops; empty while it runs.",
    )
    day = models.DateField(help_text="The learner's day the time counts for.")
    started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the timer started; empty for time typed in."
    )
    minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty while the timer runs."
    )
    capped = models.BooleanField(
        default=False, help_text="The timer ran past its cap and was stopped there."
    )

    objects = StudySessionQuerySet.as_manager()

    class Meta:
        ordering = ["-day", "-pk"]
        indexes = [models.Index(fields=["user", "day"], name="study_session_user_day")]
        constraints = [
            # Two "start" posts at once (two tabs, two devices) make one timer.
            models.UniqueConstraint(
                fields=["user"], condition=Q(minutes__isnull=True), name="one_timer_per_learner"
            ),
            models.CheckConstraint(
                condition=Q(minutes__isnull=False) | Q(started_at__isnull=False),
                name="a_running_timer_has_a_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: phase {self.phase_id} on {self.day:%Y-%m-%d}, {self.minutes} min"

    @property
    def text(self) -> str:
        return duration(self.minutes or 0)
