from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    # Django's own page is for developers; a learner needs to know nothing was saved.
    return render(request, "403_csrf.html", status=403)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    # No database query: load balancers and benchmarks poll this.
    return HttpResponse("ok", content_type="text/plain")


class SignupForm(UserCreationForm):  # type: ignore[type-arg,unused-ignore]
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc,unused-ignore]
        fields = ["username", "email"]
        help_texts = {"email": "Optional: only used to send you a password reset link."}


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("progress:dashboard")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            user = form.save()
            login(request, user, backend="studyplan.auth.LearnerBackend")
            return redirect("progress:plan-choose")
        return render(request, "registration/signup.html", {"form": form}, status=400)
    return render(request, "registration/signup.html", {"form": form})


@receiver(user_logged_out, dispatch_uid="say-logged-out")
def say_logged_out(sender: Any, request: HttpRequest | None, **kwargs: Any) -> None:
    # Logging out lands on the home page: say so, or it looks as if nothing happened.
    if request is not None:
        messages.info(request, "You are logged out.")
