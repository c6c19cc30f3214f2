"""What every learner-owned model's rows start from: the learner's own, and no one else's."""

from django.db import models


class LearnerQuerySet(models.QuerySet):
    def for_user(self, user):
        # Unordered: callers that want an order say so, and the hot paths want none.
        return self.filter(user=user).order_by()
