"""Sessions end on the server: a session cookie copied before logging out, changing the password
or deleting the account stops working, whatever the cache holds (cached_db sessions)."""

import pytest
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

EXPORT = reverse("progress:account-export")


def logged_in_pair(username: str) -> tuple[Client, Client]:
    """The learner's own browser, logged in through the form, and a copy of its cookie."""
    owner = Client()
    response = owner.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 302
    thief = Client()
    thief.cookies["sessionid"] = owner.cookies["sessionid"].value
    assert thief.get(EXPORT).status_code == 200
    return owner, thief


def assert_sent_to_log_in(client: Client) -> None:
    response = client.get(EXPORT)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_cookie_copied_before_logout_no_longer_downloads_the_export(syllabus):
    learner = UserFactory()
    owner, thief = logged_in_pair(learner.username)
    key = owner.cookies["sessionid"].value

    owner.post(reverse("logout"))

    assert_sent_to_log_in(thief)
    assert not Session.objects.filter(session_key=key).exists()
    # Nor from the database once the cache has forgotten it.
    cache.clear()
    assert_sent_to_log_in(thief)


def test_a_cookie_copied_before_a_password_change_stops_working(syllabus):
    learner = UserFactory()
    owner, thief = logged_in_pair(learner.username)

    response = owner.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-and-longer-password-42",
            "new_password2": "a-new-and-longer-password-42",
        },
    )

    assert response.status_code == 302
    assert_sent_to_log_in(thief)
    assert owner.get(EXPORT).status_code == 200


def test_a_cookie_copied_before_account_deletion_stops_working(syllabus):
    learner = UserFactory()
    owner, thief = logged_in_pair(learner.username)

    response = owner.post(
        reverse("progress:account-delete"), {"password": PASSWORD, "confirm": "on"}
    )

    assert response.status_code == 302
    assert_sent_to_log_in(thief)


def test_a_session_outlives_the_cache(syllabus):
    # The cache is only a copy: a restarted or flushed Redis logs nobody out.
    learner = UserFactory()
    owner, _ = logged_in_pair(learner.username)

    cache.clear()

    assert owner.get(EXPORT).status_code == 200


def queries_for(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_a_session_in_the_cache_costs_no_query(syllabus):
    learner = UserFactory()
    owner, _ = logged_in_pair(learner.username)
    key = owner.cookies["sessionid"].value

    from_cache = queries_for(owner, EXPORT)
    cache.delete(cached_db.KEY_PREFIX + key)
    from_database = queries_for(owner, EXPORT)

    assert from_database == from_cache + 1
    # ... and the database read put it back in the cache.
    assert queries_for(owner, EXPORT) == from_cache
