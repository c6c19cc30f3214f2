"""The learner's lock: every write that adds or changes a learner's rows takes it first, as
deleting the account does, so a write racing a deletion is refused, never a 500."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied


class AccountGone(PermissionDenied):
    """The learner's account was deleted (in another tab or on another device) while this
    request was under way: nothing is written, so nothing can bring it back."""


def lock_learner(user: Any) -> None:
    """Lock the learner's user row until the transaction ends; AccountGone if it is gone.

    Every write that saves the user or adds a row for them takes this lock first, as deletion
    does, so the two run one after the other: a write after a deletion finds no row and is
    refused, where a plain save() would insert the user again (same id, a working session)."""
    if not get_user_model().objects.select_for_update().filter(pk=user.pk).exists():
        raise AccountGone("This account has been deleted: nothing was saved.")
