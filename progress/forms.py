import datetime
from typing import Any

from django import forms
from django.utils import timezone

from phases.models import Intensity

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
        help_text="Optional. We will tell you if your schedule runs past it.",
        error_messages={"invalid": "Enter the exam date as a date, e.g. 2027-01-15."},
    )

    def clean_start_date(self) -> datetime.date:
        start = self.cleaned_data["start_date"]
        today = timezone.localdate()
        if abs(start - today) > MAX_START_OFFSET:
            raise forms.ValidationError("Choose a start date within a year of today.")
        return start

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, exam = cleaned.get("start_date"), cleaned.get("exam_date")
        if start and exam:
            if exam < start:
                self.add_error("exam_date", "The exam date cannot be before your start date.")
            elif exam - start > MAX_EXAM_OFFSET:
                self.add_error("exam_date", "Choose an exam date within three years of starting.")
        return cleaned


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password, to confirm",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    confirm = forms.BooleanField(
        label="I understand this deletes my account, my plan and every tick, for good.",
        error_messages={"required": "Tick the box to confirm you want everything deleted."},
    )

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password; nothing was deleted.")
        return password
