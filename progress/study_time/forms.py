import datetime
from typing import Any, cast

from django import forms

from phases.snapshot import PhaseInfo
from progress.study_time.figures import heaviest
from progress.study_time.models import MAX_MINUTES
from progress.web import DateInput


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
