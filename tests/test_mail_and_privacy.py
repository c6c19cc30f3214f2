"""Mail that cannot be aimed at anyone, and pages no shared cache keeps: password reset is
throttled per address and per client (allauth's rate limits), every link in mail comes from
DJANGO_SITE_URL whatever the Host header says, one address is confirmed on one account only (a
sign-up with a registered one goes through unconfirmed, and its owner is told), and every
answer to a logged-in learner is ``Cache-Control: private, no-store``."""

import re
import time
from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from progress.models import Profile
from tests.factories import UserFactory, make_plan
from tests.html import page_text

pytestmark = pytest.mark.django_db

RESET = reverse("account_reset_password")
RESETS_PER_HOUR = 10  # ACCOUNT_RATE_LIMITS["reset_password"]: 10/h/ip


def test_thirty_reset_requests_for_one_address_send_one_mail(client, syllabus):
    UserFactory(email="victim@example.com")

    statuses = [
        # Fresh clients from many addresses: the per-address rule holds whoever asks.
        Client(REMOTE_ADDR=f"198.51.100.{n + 1}")
        .post(RESET, {"email": "Victim@Example.com" if n % 2 else "victim@example.com"})
        .status_code
        for n in range(30)
    ]

    assert statuses == [302] + [429] * 29
    assert len(mail.outbox) == 1


def test_one_client_asking_for_many_addresses_is_throttled_with_a_429(syllabus):
    client = Client(REMOTE_ADDR="203.0.113.9")
    statuses = [
        client.post(RESET, {"email": f"someone{n}@example.com"}).status_code
        for n in range(RESETS_PER_HOUR + 3)
    ]

    assert statuses[:RESETS_PER_HOUR] == [302] * RESETS_PER_HOUR
    assert statuses[RESETS_PER_HOUR:] == [429] * 3
    page = client.post(RESET, {"email": "x@example.com"})
    assert "nothing was sent or changed" in page.content.decode()
    assert len(mail.outbox) == RESETS_PER_HOUR


def test_every_link_in_account_mail_ignores_the_host_header(syllabus):
    host = {"HTTP_HOST": "127.0.0.1:6666"}
    UserFactory(email="ada@example.com")
    Client().post(RESET, {"email": "ada@example.com"}, **host)  # a reset link
    Client().post(RESET, {"email": "nobody@example.com"}, **host)  # no account: a note
    Client().post(
        reverse("account_signup"),
        {
            "username": "grace",
            "email": "grace@example.com",
            "password1": "A-strong-Passw0rd-x",
            "password2": "A-strong-Passw0rd-x",
        },
        **host,
    )  # a confirmation link

    assert len(mail.outbox) == 3
    for message in mail.outbox:
        links = re.findall(r"https?://\S+", message.body)
        assert links, message.body
        assert all(link.startswith(settings.SITE_URL + "/") for link in links), message.body
        assert ":6666" not in message.body + message.subject


def sign_up(client, username: str, email: str):
    return client.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": email,
            "password1": "A-strong-Passw0rd-x",
            "password2": "A-strong-Passw0rd-x",
        },
    )


def test_an_address_already_on_an_account_signs_up_unconfirmed_and_its_owner_is_told(
    client, syllabus
):
    # ACCOUNT_PREVENT_ENUMERATION = "strict": the sign-up page never says an address is
    # registered. The sign-up goes through as any other; the address stays unconfirmed on the
    # new account (only its owner's inbox could confirm it) and the owner is mailed instead.
    ada = UserFactory(email="ada@example.com")
    stranger = Client()

    response = sign_up(client, "mallory", "ADA@example.com")
    anyone = sign_up(stranger, "grace", "grace@example.com")

    # Answered as any sign-up: the same redirect, the same page (but for the address).
    assert response.status_code == anyone.status_code == 302
    assert response["Location"] == anyone["Location"]
    page = page_text(client.get(response["Location"]).content)
    assert "registered" not in page.lower()
    assert page.replace("ada@example.com", "grace@example.com") == page_text(
        stranger.get(anyone["Location"]).content
    )

    mallory = get_user_model().objects.get(username="mallory")
    assert not EmailAddress.objects.filter(user=mallory, verified=True).exists()
    ada.refresh_from_db()
    assert ada.email == "ada@example.com"
    assert not EmailAddress.objects.exclude(user=ada).filter(verified=True).exists()

    # The owner is told, with no link that would confirm the address for mallory.
    (told,) = [message for message in mail.outbox if message.to == ["ada@example.com"]]
    assert "already has it" in told.body
    assert "confirm" not in told.subject.lower()
    assert "/accounts/confirm-email/" not in told.body
    assert len(mail.outbox) == 2  # that, and grace's own confirmation link
    assert "/accounts/confirm-email/" in mail.outbox[1].body
    assert mail.outbox[1].to == ["grace@example.com"]

    # An unconfirmed address gets no reminder, asked for or not (a confirmed one does).
    opted = client.post(reverse("progress:account-reminders"), {"weekly_reminder": "on"})
    assert opted.status_code == 302
    confirmed = UserFactory(email="lin@example.com")
    EmailAddress.objects.create(user=confirmed, email=confirmed.email, primary=True, verified=True)
    Profile.objects.create(user=confirmed, weekly_reminder=True)
    for user in (mallory, confirmed):
        make_plan(user)
    assert Profile.objects.get(user=mallory).weekly_reminder
    mail.outbox.clear()

    call_command("send_reminders", stdout=StringIO())

    assert [message.to for message in mail.outbox] == [["lin@example.com"]]
    assert Profile.objects.get(user=mallory).reminded_on is None


def test_an_address_already_on_another_account_is_never_attached_to_a_second(syllabus):
    ada = UserFactory(email="ada@example.com")
    EmailAddress.objects.create(user=ada, email=ada.email, primary=True, verified=True)
    mallory = UserFactory(email="")
    client = Client()
    client.force_login(mallory)

    client.post(reverse("account_email"), {"action_add": "", "email": "ADA@example.com"})

    mallory.refresh_from_db()
    assert mallory.email == ""
    assert not EmailAddress.objects.filter(user=mallory, verified=True).exists()
    assert EmailAddress.objects.get(email="ada@example.com", verified=True).user == ada


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
        response = Client().post(reverse("account_reset_password"), {"email": learner.email})
        dashboard = learner_client.get(reverse("progress:dashboard"))
    finally:
        caches.close_all()

    assert response.status_code == 503
    assert "out of service for a moment" in response.text
    assert "nothing was sent or changed" in response.text
    assert len(mail.outbox) == 0
    assert dashboard.status_code == 200  # no learner page reads the cache


def test_a_reset_is_answered_no_sooner_than_the_floor_with_or_without_an_account(syllabus):
    from studyplan.views import RESET_ANSWER_FLOOR

    UserFactory(email="ada@example.com")
    for email in ("ada@example.com", "nobody@example.com"):
        start = time.monotonic()
        assert Client().post(RESET, {"email": email}).status_code == 302
        # The time taken tells nothing (bench/reset_timing.py measures how alike the two are).
        assert time.monotonic() - start >= RESET_ANSWER_FLOOR
