"""Sessions end on the server: a session cookie copied before logging out, changing the password
or deleting the account stops working, whatever the cache holds; deleting the account deletes its
sessions on every device; and a session is read, then its learner in one query."""

import datetime

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import PASSWORD, UserFactory, make_plan

pytestmark = pytest.mark.django_db

EXPORT = reverse("progress:account-export")


def logged_in_pair(username: str) -> tuple[Client, Client]:
    """The learner's own browser, logged in through the form, and a copy of its cookie."""
    owner = Client()
    response = owner.post(reverse("account_login"), {"login": username, "password": PASSWORD})
    assert response.status_code == 302
    thief = Client()
    thief.cookies["sessionid"] = owner.cookies["sessionid"].value
    assert thief.get(EXPORT).status_code == 200
    return owner, thief


def assert_sent_to_log_in(client: Client) -> None:
    response = client.get(EXPORT)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_a_cookie_copied_before_logout_no_longer_downloads_the_export(syllabus):
    learner = UserFactory()
    owner, thief = logged_in_pair(learner.username)
    key = owner.cookies["sessionid"].value

    owner.post(reverse("account_logout"))

    assert_sent_to_log_in(thief)
    assert not Session.objects.filter(session_key=key).exists()


def test_a_cookie_copied_before_a_password_change_stops_working(syllabus):
    learner = UserFactory()
    owner, thief = logged_in_pair(learner.username)

    response = owner.post(
        reverse("account_change_password"),
        {
            "oldpassword": PASSWORD,
            "password1": "a-new-and-longer-password-42",
            "password2": "a-new-and-longer-password-42",
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


def test_deleting_the_account_deletes_its_sessions_on_every_device_and_no_one_elses(syllabus):
    learner, other = UserFactory(), UserFactory()
    owner, _ = logged_in_pair(learner.username)
    laptop, _ = logged_in_pair(learner.username)
    # What the laptop's session holds about the learner: an answer typed before a reveal.
    laptop.post(
        reverse("progress:selfcheck-reveal", args=["p1-fusion-tradeoff"]),
        {"answer": "early fusion mixes modalities before the encoder"},
    )
    someone_else, _ = logged_in_pair(other.username)
    theirs = someone_else.cookies["sessionid"].value
    # And a session of the learner's that has expired but not been cleared yet.
    old, _ = logged_in_pair(learner.username)
    Session.objects.filter(session_key=old.cookies["sessionid"].value).update(
        expire_date=timezone.now() - datetime.timedelta(days=1)
    )

    owner.post(reverse("progress:account-delete"), {"password": PASSWORD, "confirm": "on"})

    assert not any(
        "early fusion" in str(session.get_decoded()) for session in Session.objects.all()
    )
    assert list(Session.objects.values_list("session_key", flat=True)) == [theirs]
    assert someone_else.get(EXPORT).status_code == 200


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


def test_the_learner_comes_in_one_query_with_their_plan_and_profile(syllabus):
    learner = UserFactory()
    make_plan(learner)
    owner, _ = logged_in_pair(learner.username)

    with CaptureQueriesContext(connection) as queries:
        assert owner.get(reverse("progress:dashboard")).status_code == 200

    reading_users = [query["sql"] for query in queries if '"auth_user"' in query["sql"]]
    assert len(reading_users) == 1
    (first,) = reading_users
    for table in ("progress_studyplan", "progress_profile"):
        assert table in first
    # The session is Django's own database read, on its own.
    sessions = [query["sql"] for query in queries if "django_session" in query["sql"]]
    assert len(sessions) == 1 and '"auth_user"' not in sessions[0]


def test_an_expired_session_logs_nobody_in(syllabus):
    learner = UserFactory()
    owner, _ = logged_in_pair(learner.username)
    Session.objects.filter(session_key=owner.cookies["sessionid"].value).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )

    assert_sent_to_log_in(owner)


def test_a_made_up_session_cookie_logs_nobody_in(syllabus):
    stranger = Client()
    stranger.cookies["sessionid"] = "x" * 32

    assert_sent_to_log_in(stranger)
