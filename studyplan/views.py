import hashlib
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    UserCreationForm,
)
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.signals import user_logged_out
from django.core.cache import cache
from django.core.validators import MaxLengthValidator
from django.db import DatabaseError, transaction
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods
from redis.exceptions import RedisError

from progress.services.account import change_password, password_confirmed
from progress.services.time_zone import set_time_zone
from progress.timezones import is_zone


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    # Django's own page is for developers; a learner needs to know nothing was saved.
    return render(request, "403_csrf.html", status=403)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    # No database query: load balancers and benchmarks poll this.
    return HttpResponse("ok", content_type="text/plain")


def refuse_long_usernames(form: AuthenticationForm) -> None:
    # AuthenticationForm gives its username field a max_length for the browser only, with no
    # validator: a longer username reached authenticate(), and django-axes then stored it in a
    # 255-character column on the failed login (a 500 on PostgreSQL). No account has one.
    limit = form.username_field.max_length or 254
    form.fields["username"].validators.append(MaxLengthValidator(limit))


class LoginForm(AuthenticationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        refuse_long_usernames(self)


class AdminLoginForm(AdminAuthenticationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        refuse_long_usernames(self)


ACCOUNT_GONE = "This account has just been deleted: there is nothing left to log in to."


class LoginPage(auth_views.LoginView):
    authentication_form = LoginForm

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        # The password was checked against a row another session may delete before the login
        # is recorded (Django's update_last_login then finds no row): the login is refused, as
        # it would have been a moment later, and the deletion stands.
        user = form.get_user()
        try:
            with transaction.atomic():
                return super().form_valid(form)
        except DatabaseError:
            if type(user).objects.filter(pk=user.pk).exists():
                raise
        # Logged out without logout()'s "You are logged out.": there was no login to end.
        self.request.session.flush()
        self.request.user = AnonymousUser()
        form.add_error(None, ACCOUNT_GONE)
        return self.render_to_response(self.get_context_data(form=form), status=400)


login_page = LoginPage.as_view()


class SignupForm(UserCreationForm):  # type: ignore[type-arg,unused-ignore]
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc,unused-ignore]
        fields = ["username", "email"]
        help_texts = {
            "email": "Optional: used for password reset links and, if you ask for them, "
            "weekly reminders."
        }

    def clean_email(self) -> str:
        # One account per address: a reset link or a reminder must reach one learner only.
        email = self.cleaned_data.get("email", "")
        if email and type(self.instance).objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account already uses this address: log in, or reset its password."
            )
        return email

    # The browser's zone, filled in by static/js/timezone.js; empty without JavaScript.
    time_zone = forms.Field(
        required=False, widget=forms.HiddenInput(attrs={"data-browser-time-zone": ""})
    )

    def clean_time_zone(self) -> str:
        # Hidden, so never an error the learner cannot see: a name we do not know means the
        # site's zone, which they can change on their account page.
        name = self.cleaned_data.get("time_zone")
        return name if isinstance(name, str) and is_zone(name) else ""

    @transaction.atomic
    def save(self, commit: bool = True) -> Any:
        user = super().save(commit=commit)
        if commit:
            set_time_zone(user=user, time_zone=self.cleaned_data["time_zone"])
        return user


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("progress:dashboard")
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if form.is_valid():
            user = form.save()
            login(request, user, backend="progress.auth.LearnerBackend")
            return redirect("progress:plan-choose")
        return render(request, "registration/signup.html", {"form": form}, status=400)
    return render(request, "registration/signup.html", {"form": form})


@receiver(user_logged_out, dispatch_uid="say-logged-out")
def say_logged_out(sender: Any, request: HttpRequest | None, **kwargs: Any) -> None:
    # Logging out lands on the home page: say so, or it looks as if nothing happened.
    if request is not None:
        messages.info(request, "You are logged out.")


class LimitedPasswordChangeForm(PasswordChangeForm):
    """Django's password change, with the current password checked through the login limiter:
    guessing here counts as guessing at the login form."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        self.request = request
        super().__init__(user, *args, **kwargs)

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        if not password_confirmed(self.request, self.user, old_password):
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password

    def save(self, commit: bool = True) -> Any:
        # Never a plain user.save(): on an account deleted meanwhile it would insert it again.
        change_password(user=self.user, password=self.cleaned_data["new_password1"])
        return self.user


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = LimitedPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


password_change = PasswordChangeView.as_view()


# One reset mail per address in this many seconds, and this many reset requests per client
# address an hour: enough for a learner who lost the first mail, too few to flood an inbox.
RESET_MAIL_EVERY = 15 * 60
RESET_REQUESTS_PER_HOUR = 10


class ThrottledPasswordResetForm(PasswordResetForm):
    def get_users(self, email: str) -> Any:
        # An address that had a reset mail within RESET_MAIL_EVERY gets no other: the page says
        # the same either way, so it tells nobody whether the address has an account.
        key = "password-reset-mail:" + hashlib.sha256(email.casefold().encode()).hexdigest()
        if not cache.add(key, 1, timeout=RESET_MAIL_EVERY):
            return iter(())
        return super().get_users(email)


class PasswordResetView(auth_views.PasswordResetView):
    form_class = ThrottledPasswordResetForm
    # Every link in mail is built from DJANGO_SITE_URL, never from the request's Host header.
    extra_email_context = {"site_url": settings.SITE_URL}

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # The client's address as the login limiter sees it (django-axes with ipware).
        address = getattr(request, "axes_ip_address", None) or request.META.get("REMOTE_ADDR", "")
        key = "password-reset-requests:" + hashlib.sha256(address.encode()).hexdigest()
        try:
            cache.add(key, 0, timeout=3600)
            if cache.incr(key) > RESET_REQUESTS_PER_HOUR:
                return self.refused(throttled=True, status=429)
            return super().post(request, *args, **kwargs)
        except RedisError:
            # The throttle's counters are out of reach (the shared cache is down): no mail goes
            # out unthrottled; the learner is told to try again.
            return self.refused(unavailable=True, status=503)

    def refused(self, *, status: int, **flags: bool) -> HttpResponse:
        return render(
            self.request,
            "registration/password_reset_form.html",
            {"form": self.get_form(), **flags},
            status=status,
        )


password_reset = PasswordResetView.as_view()
