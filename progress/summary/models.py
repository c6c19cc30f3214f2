"""The learner's summary: the figures a page would otherwise read the whole history for, kept
in one row by the writes that change them (progress.summary.keep)."""

from django.conf import settings
from django.db import models


class LearnerSummary(models.Model):
    """Kept, never typed: everything here can be built again from the learner's rows
    (progress.summary.keep.build), and is, whenever it is missing or was made for another
    syllabus version, time zone or accuracy window.

    ``days``: ``{"2026-12-07": {"ticks": 2, "reviews": 5, "answers": 20}}``, the days of the
    activity calendar's weeks (in ``zone``) on which something was done.
    ``window``: for each domain slug, its newest counted first answers, newest first, at most
    the accuracy window: ``[right, moment]``, right being true, false or null (a closed mock's
    question left unanswered, ``moment`` then its mock's start, else null).
    ``due_count``: how many cards the review queue held on review day ``due_day``, after the
    last write or, on a day with no write yet, as its first page counted it.
    ``minutes``: the recorded study time, ``{"totals": [[phase number, domain slug, minutes],
    ...], "days": {"2026-12-07": minutes}}``, totals ever and the days of the calendar's weeks;
    null in a summary made before it was kept (built again when read)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="summary",
    )
    content_version = models.PositiveIntegerField()
    zone = models.CharField(max_length=64)
    window_size = models.PositiveSmallIntegerField()  # the accuracy window it was made for
    days = models.JSONField(default=dict)
    window = models.JSONField(default=dict)
    # The header's count: today's review queue as the last write left it, on that review day.
    due_day = models.DateField(null=True, blank=True)
    due_count = models.PositiveIntegerField(null=True, blank=True)
    minutes = models.JSONField(null=True, blank=True)

    def __str__(self) -> str:
        return f"summary of {self.user_id}"
