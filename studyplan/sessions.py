"""Sessions in the database, each row naming the user it logs in.

The row is the session: logging out, changing the password or deleting the account deletes or
replaces it, so a cookie copied before stops working on every server and in every process at
once, with or without Redis. The user id on the row lets account deletion and the export find a
learner's sessions.
"""

from typing import Any, cast

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore

from .models import LearnerSession


class SessionStore(DatabaseSessionStore):
    """Django's database sessions, in LearnerSession (its documented extension points)."""

    @classmethod
    def get_model_class(cls) -> type[LearnerSession]:
        return LearnerSession

    def create_model_instance(self, data: dict[str, Any]) -> LearnerSession:
        instance = cast(LearnerSession, super().create_model_instance(data))
        user_id = str(data.get(SESSION_KEY, ""))
        instance.user_id = int(user_id) if user_id.isdecimal() else None
        return instance
