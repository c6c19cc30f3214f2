"""The learner's time zone: set at sign-up from the browser, changed on the account page."""

from typing import Any

from django.db import transaction

from progress.lock import lock_learner
from progress.models import Profile


@transaction.atomic
def set_time_zone(*, user: Any, time_zone: str) -> Profile:
    """``time_zone``: an IANA name, checked by the caller's form; empty for the site's."""
    lock_learner(user)
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"time_zone": time_zone})
    return profile
