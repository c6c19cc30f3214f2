import datetime
import functools
from typing import Any, cast

from django import forms
from django.conf import settings
from django.forms.utils import flatatt
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from phases.models import Intensity
from phases.snapshot import PhaseInfo

from .models import QuestionReport
from .services.account import password_confirmed
from .study_sessions import MAX_MINUTES
from .study_time import heaviest
from .timezones import is_zone, zone_names

# Far enough for any real plan; beyond it a date is a typo, not a study plan.
MAX_START_OFFSET = datetime.timedelta(days=366)
MAX_EXAM_OFFSET = datetime.timedelta(days=3 * 366)


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class PlanForm(forms.Form):
    intensity = forms.ModelChoiceField(
        queryset=Intensity.objects.all(),
        to_field_name="slug",
        widget=forms.RadioSelect,
        empty_label=None,
        error_messages={
            "invalid_choice": "Choose one of the three schedules: fast track, standard or extended."
        },
    )
    start_date = forms.DateField(
        widget=DateInput(),
        error_messages={"invalid": "Enter the start date as a date, e.g. 2026-12-01."},
    )
    exam_date = forms.DateField(
        required=False,
        widget=DateInput(),
        help_text="Optional. We will tell you if your schedule does not end a day before it.",
        error_messages={"invalid": "Enter the exam date as a date, e.g. 2027-01-15."},
    )
    # Sent by the preview's "Fit my exam date" (1) and short-notice (short) buttons; the plain
    # save button leaves it out.
    fit = forms.TypedChoiceField(
        required=False,
        choices=[
            ("0", "Keep the intensity's pace"),
            ("1", "Fit my exam date"),
            ("short", "A short-notice plan, day by day"),
        ],
        coerce=lambda value: "" if value == "0" else value,
        error_messages={
            "invalid_choice": "Fitting to the exam date is off (0), on (1) or short notice (short)."
        },
    )

    def clean_start_date(self) -> datetime.date:
        start = self.cleaned_data["start_date"]
        if abs(start - timezone.localdate()) > MAX_START_OFFSET:
            raise forms.ValidationError("Choose a start date within a year of today.")
        return start

    def clean_exam_date(self) -> datetime.date | None:
        exam = self.cleaned_data["exam_date"]
        if exam is not None and exam < timezone.localdate():
            raise forms.ValidationError(
                "That day has passed: choose your exam date from today on, or leave it empty."
            )
        return exam

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, exam = cleaned.get("start_date"), cleaned.get("exam_date")
        if start and exam:
            if exam < start:
                self.add_error("exam_date", "The exam date cannot be before your start date.")
            elif exam - start > MAX_EXAM_OFFSET:
                self.add_error("exam_date", "Choose an exam date within three years of starting.")
        if cleaned.get("fit") and not exam and "exam_date" not in self.errors:
            self.add_error("exam_date", "Enter your exam date to fit your plan to it.")
        return cleaned


class ReminderForm(forms.Form):
    """The weekly reminder on or off. The address is the account's (allauth's email page adds
    or changes it, with a link to confirm it); reminders go only to a confirmed one."""

    weekly_reminder = forms.BooleanField(required=False, label="Email me a weekly reminder")

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
        return cleaned


NOT_A_TIME_ZONE = (
    "That is not a time zone we know: choose one from the list, such as Europe/London. "
    "Your time zone was not changed."
)


@functools.cache
def time_zone_choices() -> tuple[tuple[str, str], ...]:
    site = ("", f"Not set: the site's time zone ({settings.TIME_ZONE})")
    return (site, *((name, name.replace("_", " ")) for name in zone_names()))


@functools.cache
def _time_zone_options() -> str:
    return "".join(
        f'<option value="{escape(value)}">{escape(label)}</option>'
        for value, label in time_zone_choices()
    )


class TimeZoneSelect(forms.Select):
    """A <select> of every time zone, its options built once per process: through Django's
    option templates the ~600 of them cost 50 ms of CPU on every account page. Its options are
    its own (``choices`` stays empty: a form copies a widget's choices, ~600 each time)."""

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> SafeString:
        options = _time_zone_options()
        for chosen in self.format_value(value):
            tag = f'<option value="{escape(chosen)}">'
            options = options.replace(tag, f"{tag.removesuffix('>')} selected>", 1)
        select_attrs = self.build_attrs(self.attrs, {**(attrs or {}), "name": name})
        return mark_safe(f"<select{flatatt(select_attrs)}>{options}</select>")


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


class QuestionReportForm(forms.Form):
    kind = forms.ChoiceField(
        label="What is wrong?",
        choices=QuestionReport.Kind.choices,
        widget=forms.RadioSelect,
        error_messages={"required": "Choose what is wrong with the question."},
    )
    note = forms.CharField(
        label="Anything you want to add (optional)",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Which option you think is right, and why; a source if you have one.",
    )


class StudyDomainForm(forms.Form):
    """Which of a phase's domains some study time was for."""

    domain = forms.ChoiceField(widget=forms.RadioSelect, label="Which domain was it for?")

    def __init__(self, phase: PhaseInfo, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.phase = phase
        field = cast(forms.ChoiceField, self.fields["domain"])
        field.choices = [(domain.slug, domain.name) for domain in phase.domains]
        field.initial = heaviest(phase).slug
        names = " or ".join(domain.name for domain in phase.domains)
        message = f"Choose one of this phase's domains: {names}."
        field.error_messages.update(invalid_choice=message, required=message)
        if len(phase.domains) == 1:
            field.required = False
            field.widget = forms.HiddenInput()

    def clean_domain(self) -> str:
        return self.cleaned_data["domain"] or self.phase.domains[0].slug


MINUTES_MESSAGE = f"Enter the minutes you studied as a whole number from 1 to {MAX_MINUTES}."


class StudySessionForm(StudyDomainForm):
    """Time studied, typed in: whole minutes, on a day from sign-up to today."""

    field_order = ["minutes", "domain", "day"]
    minutes = forms.IntegerField(
        min_value=1,
        max_value=MAX_MINUTES,
        label="I studied",
        error_messages=dict.fromkeys(
            ("required", "invalid", "min_value", "max_value"), MINUTES_MESSAGE
        ),
    )
    day = forms.DateField(
        required=False,
        widget=DateInput(),
        label="Day",
        help_text="Leave it empty for today.",
        error_messages={"invalid": "Enter the day as a date, e.g. 2026-12-01."},
    )

    def __init__(
        self, phase: PhaseInfo, *args: Any, joined: datetime.date, today: datetime.date, **kwargs
    ) -> None:
        super().__init__(phase, *args, **kwargs)
        self.joined, self.today = joined, today
        self.fields["day"].widget.attrs.update(min=joined.isoformat(), max=today.isoformat())

    def clean_day(self) -> datetime.date:
        day = self.cleaned_data["day"] or self.today
        if day > self.today:
            raise forms.ValidationError("That day is still to come: enter today or a day before.")
        if day < self.joined:
            raise forms.ValidationError(
                f"That day is before you signed up ({self.joined:%-d %b %Y}): "
                "enter a day since then."
            )
        return day
