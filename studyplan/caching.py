"""Every cache in the app, its keys, its versions and what invalidates it, in one place.

What is cached:
- The syllabus snapshot (phases.snapshot), in each process's memory, tagged with the content
  version it was built at. The content version is a counter in the database (ContentVersion):
  load_syllabus and every admin save or delete move it (``content_changed``), and each learner
  request reads it in the query that loads the user (studyplan.auth), so every server rebuilds
  its snapshot on the first request after a change, with no timed expiry.
- Each learner's dashboard and phase pages, in Django's cache (per process by default, shared
  through Redis when REDIS_URL is set). Its key holds only database values: the learner's
  progress version, the day and the content version, so every server computes the same key for
  the same state. Every write
  to a learner's rows goes through a service decorated with ``@moves_learner``, which moves the
  progress version after a change, in the same transaction.

- Nothing is shared between learners: the pieces of an htmx answer (a self-check's row, a
  phase's count, the header's figure) are rendered for each request.

A cached page is the same for every request of one learner on one day. The one way a
per-request value reaches it is ``PER_REQUEST``: the page is rendered with a placeholder for each
and the placeholder is replaced on the way out. The CSRF token is the only such value today; a
page carrying one-off messages is not cached at all.
"""

import datetime
import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache, caches
from django.db import transaction
from django.db.models import F, Subquery
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils import timezone

from phases import snapshot
from phases.models import ContentVersion, Domain, Intensity, Phase, PhaseHours, SelfCheck, Topic

DASHBOARD_TTL = 24 * 60 * 60  # a day: the key changes with the day anyway

# Per-request values allowed into a cached page: context name -> (placeholder, how to fill it).
PER_REQUEST: dict[str, tuple[str, Callable[[HttpRequest], str]]] = {
    "csrf_token": ("__csrf-token-of-this-request__", get_token),
}

CONTENT_MODELS = (Domain, Phase, Topic, SelfCheck, Intensity, PhaseHours)


# Content


def content_version_subquery() -> Subquery:
    """The content version as a subquery, to read it inside a query a request makes anyway."""
    return Subquery(ContentVersion.objects.filter(pk=1).values("number")[:1])


def content_version() -> int:
    return ContentVersion.objects.filter(pk=1).values_list("number", flat=True).first() or 0


_snapshot: snapshot.Syllabus | None = None


def syllabus(version: int | None = None) -> snapshot.Syllabus:
    """The syllabus at ``version`` (read from the database when not given), built at most once
    per version in this process."""
    global _snapshot
    if version is None:
        version = content_version()
    if _snapshot is None or _snapshot.version != version:
        _snapshot = snapshot.build(version)
    return _snapshot


def learner_syllabus(user: Any) -> snapshot.Syllabus:
    """The syllabus for a learner's request: the version came with request.user."""
    return syllabus(getattr(user, "content_version", None) or 0)


def content_changed() -> None:
    """Syllabus content changed: every server's snapshot and every cached page are stale."""
    global _snapshot
    ContentVersion.bump()
    _snapshot = None


def _on_content_saved(sender: Any, raw: bool = False, **kwargs: Any) -> None:
    # loaddata saves rows raw, one by one; load_syllabus moves the version once at the end.
    if not raw:
        content_changed()


for _model in CONTENT_MODELS:
    post_save.connect(_on_content_saved, sender=_model, dispatch_uid=f"content-saved-{_model}")
    post_delete.connect(_on_content_saved, sender=_model, dispatch_uid=f"content-deleted-{_model}")
m2m_changed.connect(
    _on_content_saved, sender=Phase.domains.through, dispatch_uid="content-phase-domains"
)


# Learners

P = ParamSpec("P")
R = TypeVar("R")


def learner_changed(user_id: int) -> None:
    """Retire every cached page of this learner, on every server: their progress version moves
    on, in the transaction of the write that changed their rows, so it is as durable as that
    write (the database's default durability)."""
    from progress.models import StudyPlan

    StudyPlan.objects.filter(user_id=user_id).update(progress_version=F("progress_version") + 1)


def moves_learner(service: Callable[P, R]) -> Callable[P, R]:
    """For a service that writes a learner's rows (it takes ``user=``): when it returns a true
    value (it changed something), the learner's cached pages are retired.

    The write and the retirement are one transaction: no other request can read the new rows
    under the old version, and a tick costs one commit (one disk flush on PostgreSQL), not two."""

    @functools.wraps(service)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with transaction.atomic():
            result = service(*args, **kwargs)
            if result:
                learner_changed(kwargs["user"].pk)  # type: ignore[attr-defined]
        return result

    return wrapper


def page_key(page: str, user: Any, today: datetime.date) -> str | None:
    """The key of one learner's cached ``page``; None (not cached) before they have a plan."""
    plan = getattr(user, "study_plan", None)
    if plan is None:
        return None
    version = getattr(user, "content_version", None) or 0
    return f"{page}:{user.pk}:{plan.progress_version}:{today.isoformat()}:{version}"


def dashboard_key(user: Any, today: datetime.date) -> str | None:
    return page_key("dashboard", user, today)


Render = Callable[[dict[str, str]], tuple[str, datetime.datetime | None]]

# With a shared cache (Redis), pages are also kept in this process's memory: a page's key names
# the exact state it shows (progress version, day, content version), so a copy can never be
# stale, only expire, and a page this server has shown costs no round trip to Redis. Each copy
# carries its expiry moment, so both layers drop it at the same time.
_local = caches["local-pages"] if "local-pages" in settings.CACHES else None


def _stored_page(key: str) -> str | None:
    stored = _local.get(key) if _local is not None else None
    if stored is None:
        stored = cache.get(key)
        if stored is not None and _local is not None:
            left = int(stored[1] - timezone.now().timestamp())
            if left > 0:
                _local.set(key, stored, left)
    return None if stored is None else str(stored[0])


def _fill(page: str, request: HttpRequest) -> str:
    """Each PER_REQUEST placeholder in ``page`` replaced by this request's value."""
    for placeholder, fill in PER_REQUEST.values():
        if placeholder in page:
            page = page.replace(placeholder, fill(request))
    return page


def cached_page(request: HttpRequest, key: str | None, render: Render) -> str:
    """The page under ``key``, rendered by ``render(per_request_context)`` when missing.

    ``render`` must put the given context into the page's context: it holds a placeholder for
    each PER_REQUEST value, filled in for this request on the way out. It returns the page and,
    when the page will change at a known moment with no write (a live mock reaching its
    deadline), that moment: the copy is kept until then at most.
    """
    if key is None or len(messages.get_messages(request)):
        page, _ = render({name: fill(request) for name, (_, fill) in PER_REQUEST.items()})
        return page
    stored = _stored_page(key)
    if stored is not None:
        page = stored
    else:
        page, changes_at = render(
            {name: placeholder for name, (placeholder, _) in PER_REQUEST.items()}
        )
        timeout = DASHBOARD_TTL
        if changes_at is not None:
            timeout = max(1, min(timeout, int((changes_at - timezone.now()).total_seconds())))
        expires = timezone.now().timestamp() + timeout
        cache.set(key, (page, expires), timeout)
        if _local is not None:
            _local.set(key, (page, expires), timeout)
    return _fill(page, request)
