"""The learner's account page: download everything, delete everything."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from ..forms import DeleteAccountForm
from ..services.account import delete_learner, export_learner
from .common import HtmxHttpRequest


@login_required
@require_GET
def account(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "progress/account.html", {"form": DeleteAccountForm(request.user)})


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
    form = DeleteAccountForm(request.user, request.POST)
    if not form.is_valid():
        return render(request, "progress/account.html", {"form": form}, status=400)
    delete_learner(user=request.user)
    logout(request)
    messages.success(request, "Your account and everything attached to it have been deleted.")
    return redirect("phases:home")
