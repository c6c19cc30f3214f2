import functools
from typing import Any

from django import forms
from django.conf import settings
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from progress.accounts.passwords import password_confirmed
from progress.timezones import is_zone, zone_names


class ReminderForm(forms.Form):
    """The weekly reminder on or off. The address is the account's (allauth's email page adds
    or changes it, with a link to confirm it); reminders go only to a confirmed one."""

    weekly_reminder = forms.BooleanField(required=False, label="Email me a weekly reminder")
    study_day_hour = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", "No reminder on study days")]
        + [(str(hour), f"At {hour:02d}:00") for hour in range(24)],
        label="Remind me on each study day of my plan",
        help_text="In your time zone, naming that day's task.",
        error_messages={"invalid_choice": "Choose an hour from 00:00 to 23:00, or none."},
    )

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("weekly_reminder") and not self.user.email:
            self.add_error(
                "weekly_reminder",
                "Add your email address first (under Email address above) to get a weekly "
                "reminder; nothing was saved.",
            )
        if cleaned.get("study_day_hour") is not None and not self.user.email:
            self.add_error(
                "study_day_hour",
                "Add your email address first (under Email address above) to get study-day "
                "reminders; nothing was saved.",
            )
        return cleaned


NOT_A_TIME_ZONE = (
    "That is not a time zone we know: choose one from the list, such as Europe/London. "
    "Your time zone was not changed."
)


@functools.cache
def time_zone_choices() -> tuple[tuple[str, str], ...]:
    site = ("", f"Not set: the site's time zone ({settings.TIME_ZONE})")
    return (site, *((name, name.replace("_", " ")) for name in zone_names()))


class TimeZoneSelect(forms.Select):
    """A <select> of every time zone, its options written by ``format_html_join``: through
    Django's option templates the ~600 of them cost 50 ms of CPU on every account page. Its
    options are its own (``choices`` stays empty: a form copies a widget's choices, ~600 each
    time)."""

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> SafeString:
        chosen = set(self.format_value(value))
        options = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (option, " selected" if option in chosen else "", label)
                for option, label in time_zone_choices()
            ),
        )
        select_attrs = self.build_attrs(self.attrs, {**(attrs or {}), "name": name})
        return format_html("<select{}>{}</select>", flatatt(select_attrs), options)


class TimeZoneForm(forms.Form):
    time_zone = forms.CharField(
        label="Your time zone",
        required=False,
        widget=TimeZoneSelect,
        error_messages={"null_characters_not_allowed": NOT_A_TIME_ZONE},
    )

    def clean_time_zone(self) -> str:
        name: str = self.cleaned_data["time_zone"]
        if name and not is_zone(name):
            raise forms.ValidationError(NOT_A_TIME_ZONE)
        return name


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password, to confirm",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    confirm = forms.BooleanField(
        label="I understand this deletes my account and everything held about me, for good.",
        error_messages={"required": "Tick the box to confirm you want everything deleted."},
    )

    def __init__(self, user, *args, request=None, **kwargs):
        self.user = user
        self.request = request  # needed to check the password: the limiter keys on the address
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        # Through the login limiter: guessing here counts as guessing at the login form.
        if not password_confirmed(self.request, self.user, password):
            raise forms.ValidationError("That is not your password; nothing was deleted.")
        return password
