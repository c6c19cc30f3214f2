"""The syllabus content's version and this process's snapshot of it.

The content version is a counter in the database (ContentVersion): load_syllabus and every admin
save or delete move it (``content_changed``, connected to the content models' signals in
PhasesConfig.ready). Each learner request reads it in the query that loads the user
(progress.auth), so every server rebuilds its snapshot on the first request after a change,
with no timed expiry.
"""

from typing import Any

from django.db.models import Subquery
from django.db.models.signals import m2m_changed, post_delete, post_save

from phases import snapshot
from phases.models import (
    ContentVersion,
    Domain,
    ExercisePart,
    Intensity,
    Phase,
    PhaseHours,
    SelfCheck,
    Topic,
)

CONTENT_MODELS = (Domain, Phase, Topic, SelfCheck, ExercisePart, Intensity, PhaseHours)


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


def content_changed() -> None:
    """Syllabus content changed: every server's snapshot is stale."""
    ContentVersion.bump()
    forget_snapshot()


def forget_snapshot() -> None:
    """Drop this process's snapshot, so the next request builds it again (for tests: content
    rolled back with a test's transaction can repeat a version number)."""
    global _snapshot
    _snapshot = None


def _on_content_saved(sender: Any, raw: bool = False, **kwargs: Any) -> None:
    # loaddata saves rows raw, one by one; load_syllabus moves the version once at the end.
    if not raw:
        content_changed()


def connect_signals() -> None:
    for model in CONTENT_MODELS:
        post_save.connect(_on_content_saved, sender=model, dispatch_uid=f"content-saved-{model}")
        post_delete.connect(
            _on_content_saved, sender=model, dispatch_uid=f"content-deleted-{model}"
        )
    m2m_changed.connect(
        _on_content_saved, sender=Phase.domains.through, dispatch_uid="content-phase-domains"
    )
