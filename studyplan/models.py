"""The one model of the site's own app: sessions (studyplan.sessions reads and writes them)."""

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models


class LearnerSession(AbstractBaseSession):
    # No constraint in the database: a session may be saved as its user is deleted (deleting the
    # account); Django's delete still takes a user's sessions with them.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        db_constraint=False,
        related_name="+",
    )

    @classmethod
    def get_session_store_class(cls) -> type[Any]:
        return import_module(settings.SESSION_ENGINE).SessionStore

    class Meta:
        db_table = "studyplan_session"
        verbose_name = "session"
