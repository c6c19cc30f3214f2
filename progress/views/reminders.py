"""The one-click unsubscribe link of the weekly reminder: no log-in, the signed link is enough.

Opening the link (a GET, which mail scanners also make) only asks; the button POSTs. Mail
clients that read the List-Unsubscribe-Post header POST here themselves (RFC 8058), with no
cookie and no CSRF token: the signature in the address is what makes the request the learner's.
"""

from django.core import signing
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from ..models import Profile
from ..services import reminders
from .common import HtmxHttpRequest

PAGE = "progress/reminder_unsubscribe.html"


@csrf_exempt
@require_http_methods(["GET", "POST"])
def reminder_unsubscribe(request: HtmxHttpRequest, token: str) -> HttpResponse:
    try:
        user_id, stamp = reminders.learner_of_token(token)
    except signing.BadSignature:
        return render(request, PAGE, {"state": "invalid"}, status=400)
    if reminders.token_is_retired(user_id, stamp):
        # From reminders turned off and on again since: that link was retired.
        return render(request, PAGE, {"state": "stale"}, status=410)
    if request.method == "POST":
        reminders.unsubscribe(user_id=user_id)
        return render(request, PAGE, {"state": "done"})
    on = Profile.objects.filter(user_id=user_id, weekly_reminder=True).exists()
    return render(request, PAGE, {"state": "confirm" if on else "off"})
