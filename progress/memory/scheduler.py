"""FSRS as this site runs it: the pure glue (progress.memory.scheduling) with the desired
retention from settings."""

from django.conf import settings
from fsrs import Scheduler

from progress.memory import scheduling


def fsrs() -> Scheduler:
    return scheduling.scheduler(settings.DESIRED_RETENTION)
