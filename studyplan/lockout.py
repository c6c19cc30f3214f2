"""Failed-password limiting, on top of django-axes (the settings are in studyplan/settings.py).

Two limits, both over the last AXES_COOLOFF_TIME: AXES_FAILURE_LIMIT wrong passwords for one
username from one client address lock that pair (a learner's own typos lock nobody else, and
an attacker elsewhere cannot lock a learner out), and LOGIN_ADDRESS_FAILURE_LIMIT wrong
passwords from one address, whatever the usernames, lock that address (password spraying).
axes compares one failure count with one limit, so ``LockoutHandler.get_failures`` reports the
address limit on the pair limit's scale.

Every password check goes through the limiter: the login form through Django's authenticate(),
the account's own (deletion, password change) through
progress.accounts.passwords.password_confirmed. Only django-axes' handler interface is used
(AXES_HANDLER, AXES_USERNAME_CALLABLE, AXES_LOCKOUT_CALLABLE; the range is pinned in
pyproject.toml).
"""

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class LockoutHandler(AxesDatabaseHandler):
    def failures_by_limit(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> tuple[int, int]:
        """Recent failures of (this username, this address) and of this address alone."""
        pair = address = 0
        # The handler's attempts come one list a lockout parameter, in the settings' order.
        for parameters, attempts in zip(
            settings.AXES_LOCKOUT_PARAMETERS,
            self.get_user_attempts(request, credentials),
            strict=True,
        ):
            count = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
            if parameters == "ip_address":  # the address alone (AXES_LOCKOUT_PARAMETERS)
                address = max(address, count)
            else:
                pair = max(pair, count)
        return pair, address

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        # A login that succeeds forgives that username's failures from this address, never the
        # address's failures for other usernames: an attacker logging in to an account of their
        # own between tries must not reset the count against spraying.
        count, _ = AccessAttempt.objects.filter(
            username=typed_username(request, credentials),
            ip_address=request.axes_ip_address,  # type: ignore[attr-defined]
        ).delete()
        return count

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        pair, address = self.failures_by_limit(request, credentials)
        if address >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(pair, settings.AXES_FAILURE_LIMIT)
        return pair


def typed_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
    """The username a try is counted against (AXES_USERNAME_CALLABLE): what was typed at the
    log-in form (allauth passes it as ``username`` or ``email``, Django's admin as ``username``),
    an email address replaced by its account's username, so logging in by either shares one
    count. An address no account has is counted as typed, lower-cased."""
    if credentials:
        typed = credentials.get("username") or credentials.get("email")
    else:
        typed = request.POST.get("login") or request.POST.get("username")
    if not isinstance(typed, str) or "@" not in typed:
        return typed
    users = get_user_model().objects.filter(email__iexact=typed)
    username = users.values_list("username", flat=True).first()
    return username if username is not None else typed.lower()


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The page for a refused password (AXES_LOCKOUT_CALLABLE): which limit was hit, for how
    long, and what still works."""
    _, address = LockoutHandler().failures_by_limit(request, credentials)
    context = {
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
        "by_address": address >= settings.LOGIN_ADDRESS_FAILURE_LIMIT,
        "confirming": request.user.is_authenticated,
    }
    return render(request, "registration/locked_out.html", context, status=429)
