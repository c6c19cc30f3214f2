from django import forms

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
