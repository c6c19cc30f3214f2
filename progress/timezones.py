"""The learner's own time zone: which names we accept, and the middleware that makes every
"today", due date, deadline and time on a page the learner's.

Views and templates never pass a zone around: they call ``timezone.localdate()`` /
``localtime()`` and use ``|date`` / ``|time``, and this middleware has activated the learner's
zone (``Profile.time_zone``, loaded with request.user by progress.auth) for the request; a
learner with none sees the site's zone (settings.TIME_ZONE).
"""

import datetime
import functools
import zoneinfo
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

# In the IANA list on a Debian machine but no place a learner lives: "localtime" is the server's
# own setting, "Factory" a placeholder zone with no offset of its own.
NOT_PLACES = frozenset({"localtime", "Factory", "posixrules"})


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Every time zone a learner may choose, sorted: the IANA names, old aliases included
    (some browsers still report Asia/Calcutta)."""
    return tuple(sorted(zoneinfo.available_timezones() - NOT_PLACES))


@functools.cache
def _known() -> frozenset[str]:
    return frozenset(zone_names())


def is_zone(name: str) -> bool:
    return name in _known()


def chosen_zone_name(user: Any) -> str:
    """The name the learner chose, "" for none; no query (the profile came with request.user).
    A missing profile raises AttributeError, so getattr's default covers it and AnonymousUser."""
    profile = getattr(user, "profile", None)
    return "" if profile is None else str(profile.time_zone)


def learner_zone(user: Any) -> zoneinfo.ZoneInfo | None:
    """The learner's zone, or None for the site's; a name the server no longer knows falls back
    to the site's zone."""
    name = chosen_zone_name(user)
    return zoneinfo.ZoneInfo(name) if is_zone(name) else None


class LearnerTimeZoneMiddleware:
    """Activates the learner's zone for their request. After AuthenticationMiddleware.

    Lazily: the zone is activated when the request first reads request.user (every learner view
    does, through login_required, before it reads a date), so a request that never needs the
    user, /healthz or a static file, loads no session and makes no query.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # A thread serves many requests: never let the last learner's zone leak into this one.
        timezone.deactivate()
        if hasattr(request, "user"):

            def load() -> Any:
                # The user itself, not AuthenticationMiddleware's lazy wrapper: a wrapper in a
                # wrapper would make every read of request.user go through both.
                user = get_user(request)
                zone = learner_zone(user)
                if zone is not None:
                    timezone.activate(zone)
                return user

            request.user = SimpleLazyObject(load)  # type: ignore[assignment]
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def start_of_day(today: datetime.date) -> datetime.datetime:
    """The moment ``today`` starts in the active time zone (the learner's)."""
    return timezone.make_aware(datetime.datetime.combine(today, datetime.time.min))


def end_of_day(today: datetime.date) -> datetime.datetime:
    return start_of_day(today + datetime.timedelta(days=1))
