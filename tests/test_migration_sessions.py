"""The migration studyplan 0002_django_sessions, on a real database: every session in the site's
old session table moves to Django's own, so a learner logged in before the move stays logged in
(and moving back keeps them logged in too)."""

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory
from tests.migrating import migrate

BEFORE = [("studyplan", "0001_learner_sessions"), ("sessions", "0001_initial")]
AFTER = [("studyplan", "0002_django_sessions")]
ACCOUNT = reverse("progress:account")


@pytest.mark.django_db(transaction=True)
def test_a_learner_logged_in_before_the_move_is_still_logged_in_after_it(executor, syllabus):
    learner = UserFactory()
    browser = Client()
    login = {"login": learner.username, "password": PASSWORD}
    assert browser.post(reverse("account_login"), login).status_code == 302
    key = browser.cookies["sessionid"].value
    expires = Session.objects.get(session_key=key).expire_date

    # Back to the site's own table (the move undone copies the session there), then only there.
    old = migrate(executor, BEFORE)
    assert old.get_model("studyplan", "LearnerSession").objects.filter(session_key=key).exists()
    old.get_model("sessions", "Session").objects.all().delete()

    migrate(executor, AFTER)

    assert Session.objects.get(session_key=key).expire_date == expires
    assert browser.get(ACCOUNT).status_code == 200
