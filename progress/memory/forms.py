"""The forms a self-check's and a review card's buttons post: each field checked here, so a view
reads cleaned values and answers a refused one with the form's own words."""

from django import forms
from fsrs import Rating

from progress.memory.ticks import NOT_REVEALED, Outcome

# What a learner may type before revealing the reference: a paragraph or a few, not a book.
ANSWER_MAX_LENGTH = 4000
ANSWER_TOO_LONG = (
    f"Your answer is longer than {ANSWER_MAX_LENGTH} characters: shorten it, then reveal."
)
RATING_HELP = "Say rating=1 (forgot), 2 (hard), 3 (knew it) or 4 (easy)."
OUTCOME_HELP = "Say outcome=" + ", outcome=".join(Outcome.values) + "."
UNTICK_HELP = "Say done=0 to untick this self-check."


class TypedAnswerForm(forms.Form):
    """What the learner typed before the reveal (empty when nothing)."""

    answer = forms.CharField(
        required=False,
        max_length=ANSWER_MAX_LENGTH,
        error_messages={
            "max_length": ANSWER_TOO_LONG,
            "null_characters_not_allowed": ANSWER_TOO_LONG,
        },
    )


class OutcomeForm(forms.Form):
    """How an answer from memory went, once revealed."""

    outcome = forms.TypedChoiceField(
        choices=Outcome.choices,
        coerce=Outcome,
        error_messages={"required": OUTCOME_HELP, "invalid_choice": OUTCOME_HELP},
    )


class UntickForm(forms.Form):
    """Untick a self-check; a tick comes only from an outcome, after a reveal."""

    done = forms.ChoiceField(
        choices=[("0", "untick"), ("1", "tick")],
        error_messages={"required": UNTICK_HELP, "invalid_choice": UNTICK_HELP},
    )

    def clean_done(self) -> str:
        if self.cleaned_data["done"] == "1":
            raise forms.ValidationError(NOT_REVEALED)
        return self.cleaned_data["done"]


class RatingForm(forms.Form):
    """A review card's rating, once revealed."""

    rating = forms.TypedChoiceField(
        choices=[(int(rating), rating.name) for rating in Rating],
        coerce=lambda value: Rating(int(value)),
        error_messages={"required": RATING_HELP, "invalid_choice": RATING_HELP},
    )
