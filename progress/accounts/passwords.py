"""A learner's password: changed under their lock, and checked through the login limiter."""

from typing import Any

from axes.utils import reset as reset_login_failures
from django.conf import settings
from django.contrib.auth import authenticate
from django.db import transaction
from django.http import HttpRequest

from progress.lock import lock_learner


@transaction.atomic
def change_password(*, user: Any, password: str) -> None:
    lock_learner(user)
    user.set_password(password)
    user.save(update_fields=["password"])


def password_confirmed(request: HttpRequest, user: Any, password: str) -> bool:
    """Whether ``password`` is ``user``'s, checked as a login is, through the login limiter
    (django-axes, set up in studyplan.lockout): a wrong one counts towards the lockout of
    (username, address) and of the address, and during a lockout even the right one is refused
    (then ``request.axes_locked_out`` is set and the response becomes the lockout page). The
    right one forgives the learner's earlier typos from this address, as a login does."""
    username = user.get_username()
    confirmed = authenticate(request, username=username, password=password)
    if confirmed is None or confirmed.pk != user.pk:
        return False
    address = getattr(request, "axes_ip_address", None)
    if settings.AXES_RESET_ON_SUCCESS and address:
        reset_login_failures(ip=address, username=username)
    return True
