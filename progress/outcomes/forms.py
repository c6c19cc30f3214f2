import datetime
from typing import Any

from django import forms
from django.utils import timezone

from progress.web import DateInput

# An outcome is for a sitting that happened: today at the latest, and not years back.
OLDEST_SITTING = datetime.timedelta(days=3 * 366)


class OutcomeForm(forms.Form):
    sat_on = forms.DateField(
        label="The day you sat the exam",
        widget=DateInput(),
        error_messages={"invalid": "Enter the day as a date, e.g. 2027-01-15."},
    )
    passed = forms.TypedChoiceField(
        label="Did you pass?",
        choices=[("yes", "Yes, I passed"), ("no", "No, not this time")],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
        error_messages={
            "required": "Say whether you passed.",
            "invalid_choice": "Say whether you passed: yes or no.",
        },
    )
    counted = forms.BooleanField(
        required=False,
        label="Count my result in the public figures",
        help_text="Anonymous, only in totals of 10 learners or more; you can withdraw it here.",
    )

    def __init__(self, *args: Any, domains: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.domains = list(domains)
        for domain in self.domains:
            self.fields[f"score_{domain.slug}"] = forms.IntegerField(
                required=False,
                min_value=0,
                max_value=100,
                label=f"{domain.name} (%)",
                error_messages={
                    "invalid": "Enter a whole percent, 0 to 100, or leave it empty.",
                    "min_value": "Enter a whole percent, 0 to 100, or leave it empty.",
                    "max_value": "Enter a whole percent, 0 to 100, or leave it empty.",
                },
            )

    def score_fields(self) -> list[Any]:
        return [self[f"score_{domain.slug}"] for domain in self.domains]

    def clean_sat_on(self) -> datetime.date:
        day = self.cleaned_data["sat_on"]
        today = timezone.localdate()
        if day > today:
            raise forms.ValidationError(
                "That day has not come yet: record your result once you have sat the exam."
            )
        if today - day > OLDEST_SITTING:
            raise forms.ValidationError("Choose a day within the last three years.")
        return day

    def domain_scores(self) -> dict[str, int]:
        return {
            domain.slug: self.cleaned_data[f"score_{domain.slug}"]
            for domain in self.domains
            if self.cleaned_data.get(f"score_{domain.slug}") is not None
        }
