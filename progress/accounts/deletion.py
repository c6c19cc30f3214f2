"""Deleting a learner's account: every row about them, on every device."""

from typing import Any

from django.contrib.sessions.models import Session
from django.db import transaction

from progress.accounts.export import LOGIN_RECORD_MODELS, learner_sessions
from progress.lock import lock_learner


@transaction.atomic
def delete_learner(*, user: Any) -> None:
    """The account and every row about it: profile, plan, ticks, attempts and their questions
    go with it (CASCADE); the login records kept for its username are deleted by name, and its
    sessions on every device, found by their contents."""
    lock_learner(user)
    username = user.get_username()
    for model in LOGIN_RECORD_MODELS:
        # An AccessAttempt's expiration row goes with it (CASCADE).
        model.objects.filter(username=username).delete()
    mine = learner_sessions(user, Session.objects.all())
    Session.objects.filter(pk__in=[session.pk for session in mine]).delete()
    user.delete()
