"""The forms a phase's written exercise posts: its text, and its parts ticked. Each carries the
version its page was read at, so a save from a page older than the saved exercise is refused
(progress.exercises.services.Stale) rather than writing over it."""

from typing import Any

from django import forms

from phases.snapshot import PhaseInfo
from progress.exercises.models import MAX_CHARS


class VersionedForm(forms.Form):
    # A page from before versions were kept sends none: it was read at the first version.
    version = forms.IntegerField(required=False, min_value=0)

    def clean_version(self) -> int:
        return self.cleaned_data["version"] or 0


class ExerciseTextForm(VersionedForm):
    text = forms.CharField(
        required=False,
        strip=False,
        error_messages={
            "null_characters_not_allowed": "Your exercise holds a NUL character, which cannot "
            "be stored: remove it."
        },
    )

    def clean_text(self) -> str:
        text: str = self.cleaned_data["text"]
        if "text" not in self.data:
            raise forms.ValidationError("Send your exercise as the field text.")
        if len(text) > MAX_CHARS:
            raise forms.ValidationError(
                f"Your exercise is {len(text):,} characters long; the most one can hold is "
                f"{MAX_CHARS:,}. Shorten it, then save again."
            )
        return text

    def given_back(self) -> str:
        """The text as sent, less any NUL (which cannot be stored): the page shows it again
        after a refusal, so nothing typed is lost."""
        return str(self.data.get("text", "")).replace("\x00", "")


class ExercisePartsForm(VersionedForm):
    part = forms.MultipleChoiceField(
        required=False,
        error_messages={
            "invalid_choice": "This phase's exercise has no part '%(value)s': tick only the "
            "parts listed on the phase page."
        },
    )

    def __init__(self, *args: Any, phase: PhaseInfo, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        part = self.fields["part"]
        assert isinstance(part, forms.ChoiceField)
        part.choices = [(p.slug, p.text) for p in phase.exercise_parts]
