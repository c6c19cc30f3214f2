from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from .caching import content_version_subquery


class LearnerBackend(ModelBackend):
    """Django's model backend, loading with the user what every learner page needs: the study
    plan, the profile (their time zone, see studyplan.timezones) and the syllabus content version
    (see studyplan.caching), in the one query that loads request.user.
    """

    def get_user(self, user_id: Any) -> Any:
        user_model = get_user_model()
        try:
            user = (
                user_model._default_manager.select_related("study_plan__intensity", "profile")
                .annotate(content_version=content_version_subquery())
                .get(pk=user_id)
            )
        except user_model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
