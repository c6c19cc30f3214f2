"""The data migration progress 0018_email_addresses, on a real database: an account made before
django-allauth keeps its address as an unconfirmed primary EmailAddress, so it can log in by it
and reset its password, but gets no reminder until its owner confirms it."""

import pytest
from django.contrib.auth import get_user_model

from progress.accounts.reminders import address_confirmed
from tests.migrating import migrate

BEFORE = [
    ("progress", "0017_review_log_from_cards"),
    ("account", "0009_emailaddress_unique_primary_email"),
]
AFTER = [("progress", "0018_email_addresses")]


@pytest.mark.django_db(transaction=True)
def test_each_address_on_an_account_becomes_its_unconfirmed_primary_address(executor):
    old = migrate(executor, BEFORE)
    User = old.get_model("auth", "User")
    User.objects.create(username="ada", email="Ada@Example.com")
    User.objects.create(username="grace", email="")

    new = migrate(executor, AFTER)
    EmailAddress = new.get_model("account", "EmailAddress")

    rows = list(EmailAddress.objects.values_list("user__username", "email", "primary", "verified"))
    assert rows == [("ada", "ada@example.com", True, False)]
    ada = get_user_model().objects.get(username="ada")
    assert not address_confirmed(ada)
