"""Mail that cannot be aimed at anyone, and pages no shared cache keeps: password reset is
throttled per address and per client, its links come from DJANGO_SITE_URL whatever the Host
header says, one address belongs to one account, and every answer to a logged-in learner is
``Cache-Control: private, no-store``."""

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from studyplan.views import RESET_REQUESTS_PER_HOUR
from tests.factories import UserFactory, make_plan

pytestmark = pytest.mark.django_db

RESET = reverse("password_reset")


def test_thirty_reset_requests_for_one_address_send_one_mail(client, syllabus):
    UserFactory(email="victim@example.com")

    for n in range(30):
        # Fresh clients from many addresses: the per-address rule holds whoever asks.
        response = Client(REMOTE_ADDR=f"198.51.100.{n + 1}").post(
            RESET, {"email": "Victim@Example.com" if n % 2 else "victim@example.com"}
        )
        assert response.status_code == 302

    assert len(mail.outbox) == 1


def test_one_client_asking_for_many_addresses_is_throttled_with_a_429(syllabus):
    client = Client(REMOTE_ADDR="203.0.113.9")
    statuses = [
        client.post(RESET, {"email": f"someone{n}@example.com"}).status_code
        for n in range(RESET_REQUESTS_PER_HOUR + 3)
    ]

    assert statuses[:RESET_REQUESTS_PER_HOUR] == [302] * RESET_REQUESTS_PER_HOUR
    assert statuses[RESET_REQUESTS_PER_HOUR:] == [429] * 3
    page = client.post(RESET, {"email": "x@example.com"})
    assert "Too many reset requests" in page.content.decode()


def test_the_reset_link_ignores_the_host_header(syllabus):
    UserFactory(email="ada@example.com")

    Client().post(RESET, {"email": "ada@example.com"}, HTTP_HOST="127.0.0.1:6666")

    (message,) = mail.outbox
    assert f"{settings.SITE_URL}/accounts/reset/" in message.body
    assert ":6666" not in message.body


def test_an_address_already_on_an_account_cannot_sign_up_again(client, syllabus):
    UserFactory(email="ada@example.com")

    response = client.post(
        reverse("signup"),
        {
            "username": "mallory",
            "email": "ADA@example.com",
            "password1": "A-strong-Passw0rd-x",
            "password2": "A-strong-Passw0rd-x",
        },
    )

    assert response.status_code == 400
    assert "An account already uses this address" in response.content.decode()


def test_a_reminder_address_already_on_another_account_is_refused(syllabus):
    UserFactory(email="ada@example.com")
    mallory = UserFactory(email="")
    client = Client()
    client.force_login(mallory)

    response = client.post(
        reverse("progress:account-reminders"),
        {"weekly_reminder": "on", "email": "ada@example.com"},
    )

    assert response.status_code == 400
    mallory.refresh_from_db()
    assert mallory.email == ""


@pytest.mark.parametrize(
    "name",
    [
        "progress:dashboard",
        "progress:plan",
        "progress:review",
        "progress:practice",
        "progress:practice-history",
        "progress:account",
        "progress:account-export",
    ],
)
def test_every_learner_page_and_the_export_are_private_and_not_stored(
    learner_client, learner, name
):
    make_plan(learner)

    response = learner_client.get(reverse(name))

    assert response.status_code == 200
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives


def test_the_public_home_page_is_not_marked_private(client, syllabus):
    response = client.get(reverse("phases:home"))

    assert "no-store" not in response.get("Cache-Control", "")


UNREACHABLE_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


def test_with_the_shared_cache_down_reset_says_so_and_learner_pages_still_work(
    settings, learner_client, learner
):
    from django.core.cache import caches

    make_plan(learner)
    settings.CACHES = UNREACHABLE_REDIS
    caches.close_all()
    try:
        response = Client().post(reverse("password_reset"), {"email": learner.email})
        dashboard = learner_client.get(reverse("progress:dashboard"))
    finally:
        caches.close_all()

    assert response.status_code == 503
    assert "Password reset is out of service for a moment" in response.text
    assert "Nothing was sent." in response.text
    assert len(mail.outbox) == 0
    assert dashboard.status_code == 200  # no learner page reads the cache
