import datetime
from typing import Any

from django import forms
from django.utils import timezone

from phases.models import Intensity
from phases.own_pace import MAX_WEEK_HOURS, MIN_WEEK_HOURS, WEEKDAY_NAMES, Pace
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
    # Your own pace, beside the guide's schedules: hours a week on the weekdays you study.
    own_hours = forms.IntegerField(
        required=False,
        min_value=MIN_WEEK_HOURS,
        max_value=MAX_WEEK_HOURS,
        label="Hours a week",
        error_messages={
            "invalid": "Enter your hours a week as a whole number.",
            "min_value": f"Give at least {MIN_WEEK_HOURS} hour a week.",
            "max_value": f"At most {MAX_WEEK_HOURS} hours a week.",
        },
    )
    own_days = forms.TypedMultipleChoiceField(
        required=False,
        coerce=int,
        choices=[(str(day), name) for day, name in enumerate(WEEKDAY_NAMES)],
        widget=forms.CheckboxSelectMultiple,
        label="The days you study",
        error_messages={"invalid_choice": "Choose your study days from Monday to Sunday."},
    )
    # Sent by the preview's "Fit my exam date" (1), short-notice (short) and own-pace (own)
    # buttons; the plain save button leaves it out.
    fit = forms.TypedChoiceField(
        required=False,
        choices=[
            ("0", "Keep the intensity's pace"),
            ("1", "Fit my exam date"),
            ("short", "A short-notice plan, day by day"),
            ("own", "At my own pace"),
        ],
        coerce=lambda value: "" if value == "0" else value,
        error_messages={
            "invalid_choice": (
                "Fitting to the exam date is off (0), on (1), short notice (short) or your own "
                "pace (own)."
            )
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
        fit = cleaned.get("fit")
        if fit in ("1", "short") and not exam and "exam_date" not in self.errors:
            self.add_error("exam_date", "Enter your exam date to fit your plan to it.")
        if fit == "own":
            if cleaned.get("own_hours") is None and "own_hours" not in self.errors:
                self.add_error("own_hours", "Enter the hours a week you can give, 1 to 40.")
            if not cleaned.get("own_days") and "own_days" not in self.errors:
                self.add_error("own_days", "Choose at least one day you study.")
        return cleaned

    @property
    def pace(self) -> Pace | None:
        """The learner's own pace, when the form holds a whole one (for the preview, too)."""
        values = self.cleaned_data if self.is_bound and hasattr(self, "cleaned_data") else {}
        hours, days = values.get("own_hours"), values.get("own_days")
        if hours is None or not days:
            return None
        return Pace(hours, frozenset(days))
