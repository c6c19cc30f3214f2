"""Failed-password limiting (studyplan/lockout.py and the AXES_* settings), through real requests:
it locks the attacker's (username, address) pair and a spraying address, never the learner
elsewhere or behind the same proxy; a try during a lockout does not extend it; the account's own
password checks count too."""

import datetime
import runpy

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import F
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.1"  # the proxy's own address: REMOTE_ADDR of every request behind it
CLIENT_A, CLIENT_B = "198.51.100.7", "198.51.100.8"
NEW_PASSWORD = "a-new-and-longer-password-42"


def log_in(client: Client, username: str, password: str, **meta: str):
    meta.setdefault("REMOTE_ADDR", CLIENT_A)
    return client.post(reverse("account_login"), {"login": username, "password": password}, **meta)


def lock_out(client: Client, username: str, **meta: str) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, username, "wrong-password", **meta)
    assert log_in(client, username, PASSWORD, **meta).status_code == 429


def shift_failures_back(minutes: int) -> None:
    """Make every recorded failure ``minutes`` older, as if that time had passed."""
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - datetime.timedelta(minutes=minutes)
    )


@pytest.fixture
def behind_one_proxy(settings, monkeypatch):
    """The settings studyplan/settings.py makes from DJANGO_PROXY_COUNT=1."""
    monkeypatch.setenv("DJANGO_PROXY_COUNT", "1")
    made = runpy.run_path(str(settings.BASE_DIR / "studyplan" / "settings.py"))
    for name in ("AXES_IPWARE_META_PRECEDENCE_ORDER", "AXES_IPWARE_PROXY_COUNT", "IPWARE_STRICT"):
        setattr(settings, name, made[name])


def via_proxy(client_address: str, forged: str = "") -> dict[str, str]:
    # What the proxy sends on: a client's own header, if any, with the client's address appended.
    chain = f"{forged}, {client_address}" if forged else client_address
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": chain}


# A lockout in time


def test_a_try_during_a_lockout_does_not_extend_it(syllabus):
    learner = UserFactory()
    attacker = Client()
    lock_out(attacker, learner.username)

    shift_failures_back(10)
    assert log_in(attacker, learner.username, "wrong-password").status_code == 429
    assert log_in(attacker, learner.username, PASSWORD).status_code == 429

    # 16 minutes after the lockout began, 6 after the last try: the lockout is over.
    shift_failures_back(6)
    response = log_in(attacker, learner.username, PASSWORD)
    assert response.status_code == 302
    assert attacker.session["_auth_user_id"] == str(learner.pk)


def test_a_lockout_holds_for_its_whole_cool_off(syllabus):
    learner = UserFactory()
    attacker = Client()
    lock_out(attacker, learner.username)

    shift_failures_back(14)

    assert log_in(attacker, learner.username, PASSWORD).status_code == 429


# Whose address


def test_wrong_passwords_from_one_client_behind_a_proxy_do_not_lock_out_another_behind_it(
    syllabus, behind_one_proxy
):
    learner = UserFactory()
    lock_out(Client(), learner.username, **via_proxy(CLIENT_A))

    other = Client()
    response = log_in(other, learner.username, PASSWORD, **via_proxy(CLIENT_B))
    assert response.status_code == 302
    assert other.session["_auth_user_id"] == str(learner.pk)
    # ... while client A stays locked out, whatever it writes in front of the proxy's entry.
    forged = via_proxy(CLIENT_A, forged=CLIENT_B)
    assert log_in(Client(), learner.username, PASSWORD, **forged).status_code == 429


def test_reached_directly_a_forged_x_forwarded_for_changes_nothing(syllabus):
    learner = UserFactory()
    attacker = Client()
    for number in range(settings.AXES_FAILURE_LIMIT):
        log_in(attacker, learner.username, "wrong", HTTP_X_FORWARDED_FOR=f"198.51.100.{number}")

    forged = {"HTTP_X_FORWARDED_FOR": "203.0.113.99"}
    assert log_in(attacker, learner.username, PASSWORD, **forged).status_code == 429
    # The learner from their own address is not affected.
    response = log_in(Client(), learner.username, PASSWORD, REMOTE_ADDR=CLIENT_B)
    assert response.status_code == 302


# Password spraying


def spray(count: int, address: str = CLIENT_A) -> None:
    """One wrong password each for ``count`` different usernames from one address."""
    client = Client()
    for number in range(count):
        response = log_in(client, f"sprayed-{number}", "Summer2026!", REMOTE_ADDR=address)
        # The try that reaches the limit is answered with the lockout page already.
        if number < settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1:
            assert response.status_code == 400


def test_wrong_passwords_for_many_usernames_from_one_address_lock_that_address(syllabus):
    learner = UserFactory()
    spray(settings.LOGIN_ADDRESS_FAILURE_LIMIT)

    locked = log_in(Client(), learner.username, PASSWORD, REMOTE_ADDR=CLIENT_A)
    assert locked.status_code == 429
    assert "for several usernames" in locked.text
    assert "_auth_user_id" not in locked.client.session
    # Another address is not affected.
    assert log_in(Client(), learner.username, PASSWORD, REMOTE_ADDR=CLIENT_B).status_code == 302


def test_under_the_address_limit_a_learner_on_that_address_logs_in(syllabus):
    learner = UserFactory()
    spray(settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1)

    assert log_in(Client(), learner.username, PASSWORD, REMOTE_ADDR=CLIENT_A).status_code == 302


def test_a_login_that_succeeds_forgives_only_its_own_usernames_failures(syllabus):
    # An attacker with an account of their own cannot reset the address count by logging in.
    own, victim = UserFactory(), UserFactory()
    spray(settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1)
    assert log_in(Client(), own.username, PASSWORD, REMOTE_ADDR=CLIENT_A).status_code == 302

    log_in(Client(), "sprayed-last", "Summer2026!", REMOTE_ADDR=CLIENT_A)

    assert log_in(Client(), victim.username, PASSWORD, REMOTE_ADDR=CLIENT_A).status_code == 429


def test_a_login_that_succeeds_forgives_the_learners_own_typos(syllabus):
    learner = UserFactory()
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, learner.username, "typo")
    assert log_in(client, learner.username, PASSWORD).status_code == 302

    client.post(reverse("account_logout"), REMOTE_ADDR=CLIENT_A)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, learner.username, "typo").status_code == 400


# The account's own password checks


def delete_account(client: Client, password: str):
    return client.post(reverse("progress:account-delete"), {"password": password, "confirm": "on"})


def test_wrong_passwords_at_account_deletion_lock_it_and_the_login(learner_client, learner):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = delete_account(learner_client, "wrong-password")
        assert response.status_code == 400
        assert "That is not your password; nothing was deleted." in response.text

    locked = delete_account(learner_client, "wrong-password")
    assert locked.status_code == 429
    assert "Too many wrong passwords" in locked.text
    assert "nothing was changed or deleted" in locked.text

    # During the lockout even the right password deletes nothing ...
    assert delete_account(learner_client, PASSWORD).status_code == 429
    assert get_user_model().objects.filter(pk=learner.pk).exists()
    # ... and the same (username, address) pair cannot log in either.
    assert log_in(Client(), learner.username, PASSWORD, REMOTE_ADDR="127.0.0.1").status_code == 429


def test_the_right_password_still_deletes_the_account(learner_client, learner):
    response = delete_account(learner_client, PASSWORD)

    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=learner.pk).exists()


def change_password(client: Client, old: str):
    return client.post(
        reverse("account_change_password"),
        {"oldpassword": old, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )


def test_wrong_passwords_at_password_change_lock_it(learner_client, learner):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = change_password(learner_client, "wrong-password")
        assert "Your current password is not that one" in response.text

    locked = change_password(learner_client, "wrong-password")
    assert locked.status_code == 429
    assert "Too many wrong passwords" in locked.text

    assert change_password(learner_client, PASSWORD).status_code == 429
    learner.refresh_from_db()
    assert learner.check_password(PASSWORD)


def test_wrong_passwords_at_login_lock_the_password_change_of_that_pair(learner_client, learner):
    lock_out(Client(), learner.username, REMOTE_ADDR="127.0.0.1")

    assert change_password(learner_client, PASSWORD).status_code == 429
    learner.refresh_from_db()
    assert learner.check_password(PASSWORD)


def test_the_right_password_at_password_change_forgives_earlier_typos(learner_client, learner):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        change_password(learner_client, "typo")
    assert change_password(learner_client, PASSWORD).status_code == 302

    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = log_in(Client(), learner.username, "typo", REMOTE_ADDR="127.0.0.1")
        assert response.status_code == 400
