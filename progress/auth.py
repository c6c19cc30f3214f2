"""How a learner's request loads request.user: one query, which brings what every learner page
reads besides the user: their plan and its intensity, their profile (the time zone,
progress.timezones), their summary (progress.summary) and the syllabus content version
(phases.content)."""

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from phases import snapshot
from phases.content import content_version_subquery, syllabus
from progress.learner_rows import one_or_none


def learner_queryset() -> Any:
    return (
        get_user_model()
        ._default_manager.select_related("study_plan__intensity", "profile", "summary")
        .annotate(content_version=content_version_subquery())
    )


class LearnerBackend(AuthenticationBackend):
    """django-allauth's backend (log-in by username or email address, on Django's model
    backend), loading request.user through learner_queryset."""

    def get_user(self, user_id: Any) -> Any:
        try:
            pk = get_user_model()._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        user = one_or_none(learner_queryset().filter(pk=pk))
        return user if user is not None and self.user_can_authenticate(user) else None


def learner_syllabus(user: Any) -> snapshot.Syllabus:
    """The syllabus for a learner's request: the version came with request.user (elsewhere,
    a user loaded without it, the version is read: one query)."""
    return syllabus(getattr(user, "content_version", None))
