"""Accounts through django-allauth (settings: ACCOUNT_*), fitted to this site with its public
hooks: the adapter, the log-in form and the password change form; and the admin's log-in form."""

from typing import Any
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import ChangePasswordForm, LoginForm
from allauth.account.models import EmailAddress
from allauth.core.exceptions import ImmediateHttpResponse
from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.validators import MaxLengthValidator
from django.db import DatabaseError, transaction
from django.http import HttpRequest
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from progress.accounts.passwords import change_password, password_confirmed
from progress.links import site_link
from progress.summary.keep import rebuild

ACCOUNT_GONE = "This account has just been deleted: there is nothing left to log in to."

# The longest email address a mailbox can have (RFC 5321's path limit), and what the account
# tables hold; Django's form field alone lets 320 characters through.
EMAIL_MAX_LENGTH = 254


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        user = super().save_user(request, user, form, commit)
        if commit:
            # A new learner's summary, made at sign-up: their first page reads it.
            rebuild(user, now=timezone.now())
        return user

    def clean_email(self, email: str) -> str:
        # Every form that takes an address (sign-up, a new address, a reset) passes here.
        if len(email) > EMAIL_MAX_LENGTH:
            raise forms.ValidationError(
                f"Enter an email address of at most {EMAIL_MAX_LENGTH} characters."
            )
        return super().clean_email(email)

    def get_reset_password_from_key_url(self, key: str) -> str:
        # allauth's own link, on our address (never the Host a client sent).
        return site_link(urlsplit(super().get_reset_password_from_key_url(key)).path)

    def get_email_confirmation_url(self, request: HttpRequest, emailconfirmation: Any) -> str:
        return site_link(reverse("account_confirm_email", args=[emailconfirmation.key]))

    def send_confirmation_mail(
        self, request: HttpRequest, emailconfirmation: Any, signup: bool
    ) -> None:
        # A sign-up with an address another account already has goes through like any other
        # (ACCOUNT_PREVENT_ENUMERATION = "strict": the page says nothing of the other account),
        # and the address's owner is told, instead of being sent a link to confirm it for a
        # stranger's account.
        address = emailconfirmation.email_address
        others = get_user_model().objects.exclude(pk=address.user_id)
        if (
            EmailAddress.objects.filter(email__iexact=address.email)
            .exclude(user_id=address.user_id)
            .exists()
            or others.filter(email__iexact=address.email).exists()
        ):
            self.send_account_already_exists_mail(address.email)
            return
        super().send_confirmation_mail(request, emailconfirmation, signup)

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # The mail templates (templates/account/email/) build every other link from site_url.
        super().send_mail(template_prefix, email, {**context, "site_url": settings.SITE_URL})

    def set_password(self, user: Any, password: str, commit: bool = True) -> None:
        # A change or a reset: never a plain user.save(), which would insert an account deleted
        # meanwhile again.
        if commit:
            change_password(user=user, password=password)
        else:
            user.set_password(password)

    def login(self, request: HttpRequest, user: Any) -> None:
        # The password was checked against a row another session may delete before the login is
        # recorded (Django's update_last_login then finds no row): the login is refused, as it
        # would have been a moment later, and the deletion stands.
        try:
            with transaction.atomic():
                super().login(request, user)
        except DatabaseError:
            if type(user).objects.filter(pk=user.pk).exists():
                raise
            request.session.flush()
            request.user = AnonymousUser()
            raise ImmediateHttpResponse(
                render(request, "account/account_gone.html", {"message": ACCOUNT_GONE}, status=400)
            ) from None


class LimitedLoginForm(LoginForm):
    """allauth's log-in form, refusing what no account can be called (no username or address is
    longer than EMAIL_MAX_LENGTH) before it is checked: a longer one would reach django-axes,
    which stores it in a 255-character column (a 500 on PostgreSQL)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = "Username or email address"
        self.fields["login"].validators.append(MaxLengthValidator(EMAIL_MAX_LENGTH))

    def user_credentials(self) -> dict[str, Any]:
        # allauth passes an address twice (as the username and as the email), and its backend
        # tries the address for each, so a registered address cost two password checks and an
        # unknown one a single dummy check: the time taken told which addresses have accounts.
        # As the username alone it is still tried as an address, then as a username: one
        # password check either way.
        credentials = super().user_credentials()
        if "password" in credentials:
            return {"username": self.cleaned_data["login"], "password": credentials["password"]}
        return credentials


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's, refusing a username longer than a username can be, for the same reason:
    Django's max_length on that field is for the browser only, with no validator."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        limit = self.username_field.max_length or EMAIL_MAX_LENGTH
        self.fields["username"].validators.append(MaxLengthValidator(limit))


class LimitedChangePasswordForm(ChangePasswordForm):
    """allauth's password change, with the current password checked through the login limiter:
    guessing here counts as guessing at the login form (a lockout applies here too)."""

    def __init__(self, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        self.request = request
        super().__init__(*args, **kwargs)

    def clean_oldpassword(self) -> str:
        password = self.cleaned_data.get("oldpassword", "")
        if not password_confirmed(self.request, self.user, password):
            raise forms.ValidationError(
                "Your current password is not that one: nothing was changed.",
                code="enter_current_password",
            )
        return password
