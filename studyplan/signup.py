"""What sign-up asks besides allauth's own fields (ACCOUNT_SIGNUP_FORM_CLASS).

allauth builds its sign-up form on this class while importing its forms module, so this module
must not import that one (studyplan.accounts does).
"""

from typing import Any

from django import forms
from django.http import HttpRequest

from progress.accounts.time_zone import set_time_zone
from progress.timezones import is_zone


class SignupExtras(forms.Form):
    # The browser's zone, filled in by static/js/timezone.js; empty without JavaScript.
    time_zone = forms.Field(
        required=False, widget=forms.HiddenInput(attrs={"data-browser-time-zone": ""})
    )

    def clean_time_zone(self) -> str:
        # Hidden, so never an error the learner cannot see: a name we do not know means the
        # site's zone, which they can change on their account page.
        name = self.cleaned_data.get("time_zone")
        return name if isinstance(name, str) and is_zone(name) else ""

    def signup(self, request: HttpRequest, user: Any) -> None:
        set_time_zone(user=user, time_zone=self.cleaned_data["time_zone"])
