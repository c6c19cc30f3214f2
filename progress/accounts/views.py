"""The learner's account page: their time zone, weekly reminders, download everything, delete
everything."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.forms import Form
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from progress.accounts import reminders
from progress.accounts.deletion import delete_learner
from progress.accounts.export import export_learner
from progress.accounts.forms import DeleteAccountForm, ReminderForm, TimeZoneForm
from progress.accounts.reminders import address_confirmed, reminder_is_on, set_weekly_reminder
from progress.accounts.time_zone import set_time_zone
from progress.outcomes.models import outcome_of
from progress.timezones import chosen_zone_name
from progress.web import HtmxHttpRequest


@login_required
@require_GET
def account(request: HtmxHttpRequest) -> HttpResponse:
    return account_page(request)


def account_page(request: HtmxHttpRequest, *, status: int = 200, **refused: Form) -> HttpResponse:
    """The account page; a refused form, with its messages, in place of its blank one."""
    user = request.user
    context = {
        "form": DeleteAccountForm(user),
        "time_zone_form": TimeZoneForm(initial={"time_zone": chosen_zone_name(user)}),
        "reminder_form": ReminderForm(
            user,
            initial={
                "weekly_reminder": reminder_is_on(user),
                "study_day_hour": getattr(getattr(user, "profile", None), "study_day_hour", None),
            },
        ),
        "address_confirmed": address_confirmed(user),
        "outcome": outcome_of(user),
        **refused,
    }
    return render(request, "progress/account.html", context, status=status)


@login_required
@require_POST
def account_time_zone(request: HtmxHttpRequest) -> HttpResponse:
    form = TimeZoneForm(request.POST)
    if not form.is_valid():
        return account_page(request, status=400, time_zone_form=form)
    name = form.cleaned_data["time_zone"]
    set_time_zone(user=request.user, time_zone=name)
    messages.success(
        request, f"Your time zone is now {name}." if name else "Your time zone is now the site's."
    )
    return redirect("progress:account")


@login_required
@require_POST
def account_reminders(request: HtmxHttpRequest) -> HttpResponse:
    form = ReminderForm(request.user, request.POST)
    if not form.is_valid():
        return account_page(request, status=400, reminder_form=form)
    on, hour = form.cleaned_data["weekly_reminder"], form.cleaned_data["study_day_hour"]
    set_weekly_reminder(user=request.user, on=on, study_day_hour=hour)
    said = "Weekly reminders are off: we will send you no reminder emails."
    if on or hour is not None:
        sent = ["one email a week"] if on else []
        if hour is not None:
            sent.append(f"one at {hour:02d}:00 on each study day of your plan")
        kind = "Weekly reminders" if hour is None else "Reminders"
        said = f"{kind} are on: {' and '.join(sent)} to {form.user.email}, "
        said += "each with a link to stop them."
        if not address_confirmed(form.user):
            said += " The first goes once you confirm it."
    messages.success(request, said)
    return redirect("progress:account")


@login_required
@require_GET
def account_export(request: HtmxHttpRequest) -> JsonResponse:
    data = export_learner(request.user, now=timezone.now())
    response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = 'attachment; filename="nca-genm-study-tracker-my-data.json"'
    return response


@login_required
@require_POST
def account_delete(request: HtmxHttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.user, request.POST, request=request)
    if not form.is_valid():
        return account_page(request, status=400, form=form)
    delete_learner(user=request.user)
    logout(request)
    messages.success(request, "Your account and everything attached to it have been deleted.")
    return redirect("phases:home")


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
    on = reminders.reminder_is_on_for(user_id)
    return render(request, PAGE, {"state": "confirm" if on else "off"})
