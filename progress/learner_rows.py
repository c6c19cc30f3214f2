"""What every learner-owned model's rows start from: the learner's own, and no one else's."""

from typing import Any

from django.db import models


class LearnerQuerySet(models.QuerySet):
    def for_user(self, user):
        # Unordered: callers that want an order say so, and the hot paths want none.
        return self.filter(user=user).order_by()


def one_or_none(queryset: models.QuerySet) -> Any:
    """The one row a unique key or constraint allows, or None: ``get()``, which orders nothing
    (``first()`` orders by key, and building that ORDER BY costs the ORM more than SQLite takes
    to run the query)."""
    try:
        return queryset.get()
    except queryset.model.DoesNotExist:
        return None
