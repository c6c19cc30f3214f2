from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


class LearnerBackend(ModelBackend):
    """Django's model backend, loading the learner's study plan with the user.

    Every learner page needs the plan; fetching it in the query that loads request.user saves
    one query on every request.
    """

    def get_user(self, user_id):
        user_model = get_user_model()
        try:
            user = user_model._default_manager.select_related("study_plan__intensity").get(
                pk=user_id
            )
        except user_model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
