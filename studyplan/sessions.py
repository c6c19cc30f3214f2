"""Sessions in the database, read together with the learner in one query.

Every learner request reads its session (who is logged in) and then the user with their plan,
profile and content version (studyplan.auth). Django's ``cached_db`` engine read the session
from the cache: with Redis, a round trip to Redis on every request on top of the query for the
user, and without it a copy in each process's memory, where a session ended in one process lived
on in the others. Here the session row carries the id of the user it logs in, so one query
compiled once per process loads the session and, joined to it, everything the user query loads.

The row is the session: logging out, changing the password or deleting the account deletes or
replaces it, so a cookie copied before stops working on every server and in every process at
once, with or without Redis. ``manage.py clearsessions`` removes expired rows.
"""

import contextlib
import functools
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any, cast

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import router
from django.utils import timezone

from .caching import content_version_subquery
from .compiled import TEXT_PLACEHOLDER, CompiledInstanceQuery
from .models import LearnerSession


@functools.cache
def _session_query(alias: str) -> CompiledInstanceQuery:
    """A session with its user and everything the user query loads (studyplan.auth)."""
    from .auth import LEARNER_RELATIONS  # studyplan.auth imports this module

    return CompiledInstanceQuery(
        LearnerSession.objects.using(alias)
        .select_related(*(f"user__{relation}" for relation in LEARNER_RELATIONS))
        .annotate(content_version=content_version_subquery())
        .filter(session_key=TEXT_PLACEHOLDER)
    )


def _user_id(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class SessionStore(DatabaseSessionStore):
    """Django's database sessions, in LearnerSession: the load brings the user along."""

    loaded_user: Any = None

    @classmethod
    def get_model_class(cls) -> type[LearnerSession]:
        return LearnerSession

    def create_model_instance(self, data: dict[str, Any]) -> LearnerSession:
        instance: Any = super().create_model_instance(data)
        instance.user_id = _user_id(data.get(SESSION_KEY))
        return cast(LearnerSession, instance)

    def _get_session_from_db(self) -> LearnerSession | None:
        self.loaded_user = None
        row = _session_query(router.db_for_read(LearnerSession)).get(self.session_key)
        if row is None or row.expire_date <= timezone.now():
            self._session_key = None
            return None
        if row.user is not None:
            row.user.content_version = row.content_version
            self.loaded_user = row.user
        return row


_loading: ContextVar[SessionStore | None] = ContextVar("loading", default=None)


@contextlib.contextmanager
def loading_user_of(session: Any) -> Iterator[None]:
    """While request.user is loaded: the user that ``session`` was loaded with may stand in for
    the user query (studyplan.auth.LearnerBackend)."""
    token = _loading.set(session if isinstance(session, SessionStore) else None)
    try:
        yield
    finally:
        _loading.reset(token)


def user_loaded_with_session(user_id: Any) -> Any:
    """The user with ``user_id`` if the session being read loaded them, else None."""
    session = _loading.get()
    user = session.loaded_user if session is not None else None
    return user if user is not None and user.pk == user_id else None
