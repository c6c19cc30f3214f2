"""The learner's profile: their time zone, their reminders, and the review day their reviews
are fixed to (progress.memory.review_days)."""

from django.conf import settings
from django.db import models


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
    study_day_hour = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The hour (0 to 23, in the learner's time zone) of the reminder on each study "
        "day of their plan; empty: none.",
    )
    outcome_asked_on = models.DateField(
        null=True,
        blank=True,
        help_text="The day the one mail asking how the exam went was claimed.",
    )
    study_reminded_on = models.DateField(
        null=True,
        blank=True,
        help_text="The learner's day the last study-day reminder was claimed for.",
    )
    # The learner's day for reviews, fixed by its first review (progress.memory.review_days): a
    # change of time zone moves the day only once this one has ended.
    review_day = models.DateField(null=True, blank=True)
    review_day_starts = models.DateTimeField(null=True, blank=True)
    review_day_ends = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user_id"]

    def __str__(self) -> str:
        return f"{self.user}: {self.time_zone or 'site time zone'}"
