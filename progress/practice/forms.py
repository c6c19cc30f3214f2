from typing import Any

from django import forms
from django.core.validators import slug_re

from phases.models import Domain
from progress.models import QuestionReport


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


NOT_AN_OPTION = "Choose among this question's options."


class OptionsForm(forms.Form):
    """The options a learner chose, each sent as its place among the options as shown (1 for
    the first), so a value says nothing about which is right (progress.practice.scoring)."""

    option = forms.TypedMultipleChoiceField(
        required=False,
        coerce=int,
        error_messages={"invalid_choice": NOT_AN_OPTION, "invalid_list": NOT_AN_OPTION},
    )

    def __init__(self, *args: Any, places: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        option = self.fields["option"]
        assert isinstance(option, forms.ChoiceField)
        option.choices = [(str(n), str(n)) for n in range(1, places + 1)]


class AnswerForm(OptionsForm):
    """A practice question's form: the options, and which button sent it."""

    then = forms.CharField(required=False, max_length=20)  # "flag", "flagged", or next
    autosave = forms.BooleanField(required=False)  # htmx, as an option is chosen


class DomainField(forms.ModelChoiceField):
    """A domain by its slug. Only a slug is looked up: anything else names no domain, and
    PostgreSQL refuses a NUL in a query."""

    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and (
            not isinstance(value, str) or len(value) > 60 or slug_re.fullmatch(value) is None
        ):
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            )
        return super().to_python(value)


NO_SUCH_DOMAIN = "Choose one of the syllabus's domains to drill."


class DrillForm(forms.Form):
    domain = DomainField(
        queryset=Domain.objects.all(),
        to_field_name="slug",
        error_messages={"required": NO_SUCH_DOMAIN, "invalid_choice": NO_SUCH_DOMAIN},
    )
