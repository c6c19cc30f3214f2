import datetime
from typing import Any

from django import forms
from django.utils import timezone

from phases.models import Intensity
from progress.web import DateInput

# Far enough for any real plan; beyond it a date is a typo, not a study plan.
MAX_START_OFFSET = datetime.timedelta(days=366)
MAX_EXAM_OFFSET = datetime.timedelta(days=3 * 366)


class PlanForm(forms.Form):
    intensity = forms.ModelChoiceField(
        queryset=Intensity.objects.all(),
        to_field_name="slug",
        widget=forms.RadioSelect,
        empty_label=None,
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
        if self.has_error("intensity", "invalid_choice"):
            # The schedules' own names, read only when there is a choice to refuse.
            names = ", ".join(intensity.name.lower() for intensity in Intensity.objects.all())
            self.errors["intensity"] = self.error_class([f"Choose one of the schedules: {names}."])
        start, exam = cleaned.get("start_date"), cleaned.get("exam_date")
        if start and exam:
            if exam < start:
                self.add_error("exam_date", "The exam date cannot be before your start date.")
            elif exam - start > MAX_EXAM_OFFSET:
                self.add_error("exam_date", "Choose an exam date within three years of starting.")
        if cleaned.get("fit") and not exam and "exam_date" not in self.errors:
            self.add_error("exam_date", "Enter your exam date to fit your plan to it.")
        return cleaned
