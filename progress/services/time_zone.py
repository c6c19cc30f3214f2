"""The learner's time zone: set at sign-up from the browser, changed on the account page."""

from typing import Any

from studyplan.caching import moves_learner

from ..models import Profile
from .account import lock_learner


@moves_learner
def set_time_zone(*, user: Any, time_zone: str) -> Profile:
    """Store the learner's zone (an IANA name, checked by the caller's form; empty for the
    site's). Their cached pages are retired: "today" may have moved with the zone."""
    lock_learner(user)
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"time_zone": time_zone})
    return profile
