"""A self-check the learner answered from memory and said "Not yet" to: not ticked, not covered,
and back tomorrow (the Review page's queue, progress.queue). A model of its own module, loaded
with progress.models."""

from django.conf import settings
from django.db import models

from phases.models import SelfCheck

from .learner_rows import LearnerQuerySet


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
        app_label = "progress"
        ordering = ["due"]
        constraints = [
            models.UniqueConstraint(fields=["user", "self_check"], name="unique_not_yet")
        ]

    def __str__(self) -> str:
        return f"{self.user} not yet {self.self_check_id}"
