"""Accounts: sign up, log in and out, change and reset a password; learner pages need a login."""

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.views import redirect_to_login
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import escape
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects

from progress.models import Attempt, CheckOff, QuestionCard, StudyPlan
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

User = get_user_model()
NEW_PASSWORD = "quiet-lantern-harbour-42"


def validator_messages(password: str, username: str) -> list[str]:
    """What Django's configured password validators say about this password."""
    try:
        password_validation.validate_password(password, user=User(username=username))
    except ValidationError as error:
        return list(error.messages)
    return []


def logged_in_user_id(client) -> str | None:
    return client.session.get("_auth_user_id")


# Sign up


def test_signup_page_shows_the_form(client, syllabus):
    response = client.get(reverse("account_signup"))

    assertContains(response, 'name="username"')
    assertContains(response, 'name="password1"')
    assertContains(response, 'name="password2"')


def test_signup_logs_the_learner_in_and_sends_them_to_choose_a_schedule(client, syllabus):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "ada",
            "email": "ada@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assertRedirects(response, reverse("progress:plan-choose"))
    user = User.objects.get(username="ada")
    assert logged_in_user_id(client) == str(user.pk)
    assert user.check_password(PASSWORD)
    assertContains(client.get(reverse("progress:plan-choose")), "Choose your schedule")


def test_signup_works_without_an_email(client, syllabus):
    response = client.post(
        reverse("account_signup"),
        {"username": "grace", "password1": PASSWORD, "password2": PASSWORD},
    )

    assertRedirects(response, reverse("progress:plan-choose"))
    assert User.objects.get(username="grace").email == ""


@pytest.mark.parametrize("weak", ["abc", "password", "12345678901"])
def test_signup_with_a_weak_password_is_refused_with_djangos_validator_message(
    client, syllabus, weak
):
    expected = validator_messages(weak, "ada")
    assert expected, "the example password should fail a validator"

    response = client.post(
        reverse("account_signup"), {"username": "ada", "password1": weak, "password2": weak}
    )

    assert response.status_code == 400
    for message in expected:
        assertContains(response, escape(message), status_code=400)
    assert not User.objects.filter(username="ada").exists()
    assert logged_in_user_id(client) is None


def test_signup_with_mismatched_passwords_is_refused(client, syllabus):
    response = client.post(
        reverse("account_signup"),
        {"username": "ada", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )

    assertContains(response, "You must type the same password each time.", status_code=400)
    assert not User.objects.filter(username="ada").exists()


def test_signup_with_a_taken_username_is_refused(client, learner):
    response = client.post(
        reverse("account_signup"),
        {"username": learner.username, "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 400
    assert User.objects.filter(username=learner.username).count() == 1


def test_a_logged_in_learner_visiting_signup_goes_to_the_dashboard(learner_client):
    response = learner_client.get(reverse("account_signup"))

    assertRedirects(response, reverse("progress:dashboard"))


# Log in and out


def test_log_in_lands_on_the_dashboard(client, learner):
    response = client.post(
        reverse("account_login"), {"login": learner.username, "password": PASSWORD}
    )

    assertRedirects(response, reverse("progress:dashboard"))
    assert logged_in_user_id(client) == str(learner.pk)


def test_log_in_with_a_wrong_password_stays_logged_out(client, learner):
    response = client.post(
        reverse("account_login"), {"login": learner.username, "password": "nope"}
    )

    assertContains(response, "not correct", status_code=400)
    assert logged_in_user_id(client) is None


def test_log_in_by_email_address_lands_on_the_dashboard(client, learner):
    learner.email = "ada@example.com"
    learner.save()

    response = client.post(
        reverse("account_login"), {"login": "ada@example.com", "password": PASSWORD}
    )

    assertRedirects(response, reverse("progress:dashboard"))
    assert logged_in_user_id(client) == str(learner.pk)


def test_log_in_returns_to_the_page_that_asked_for_it(client, learner):
    phase_page = reverse("progress:phase", args=["experimentation"])

    response = client.post(
        f"{reverse('account_login')}?next={phase_page}",
        {"login": learner.username, "password": PASSWORD, "next": phase_page},
    )

    assertRedirects(response, phase_page)


def test_log_out_is_a_post_and_ends_the_session(learner_client):
    response = learner_client.post(reverse("account_logout"))

    assertRedirects(response, reverse("phases:home"))
    assert logged_in_user_id(learner_client) is None
    dashboard = reverse("progress:dashboard")
    assertRedirects(
        learner_client.get(dashboard),
        redirect_to_login(dashboard).url,
        fetch_redirect_response=False,
    )


def test_log_out_by_get_only_asks_and_keeps_the_session(learner_client, learner):
    response = learner_client.get(reverse("account_logout"))

    assertContains(response, "Log out of the NCA-GENM Study Tracker on this device?")
    assert logged_in_user_id(learner_client) == str(learner.pk)


# Passwords


def test_password_change_sets_the_new_password_and_keeps_the_learner_logged_in(
    learner_client, learner
):
    response = learner_client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assertRedirects(response, reverse("account_change_password"))
    learner.refresh_from_db()
    assert learner.check_password(NEW_PASSWORD)
    assert learner_client.get(reverse("progress:dashboard")).status_code == 200


def test_password_change_with_a_wrong_old_password_changes_nothing(learner_client, learner):
    response = learner_client.post(
        reverse("account_change_password"),
        {"oldpassword": "wrong", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assertContains(response, "Your current password is not that one", status_code=400)
    learner.refresh_from_db()
    assert learner.check_password(PASSWORD)


def test_password_change_needs_a_login(client, syllabus):
    url = reverse("account_change_password")

    assertRedirects(client.get(url), redirect_to_login(url).url, fetch_redirect_response=False)


def test_password_reset_emails_a_link_that_sets_a_new_password(client, syllabus):
    user = UserFactory(email="ada@example.com")

    response = client.post(reverse("account_reset_password"), {"email": "ada@example.com"})

    assertRedirects(response, reverse("account_reset_password_done"))
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ada@example.com"]
    # Built from DJANGO_SITE_URL, never from the request's Host header.
    link = re.search(
        re.escape(settings.SITE_URL) + r"(/accounts/password/reset/key/\S+/)", message.body
    )
    assert link, message.body

    # The emailed link swaps its key for a session and redirects to the form.
    confirm = client.get(link.group(1), follow=True)
    assertContains(confirm, "Set my password")
    form_url = confirm.redirect_chain[-1][0]
    done = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assertRedirects(done, reverse("account_reset_password_from_key_done"))
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    logged_in = client.post(
        reverse("account_login"), {"login": user.username, "password": NEW_PASSWORD}
    )
    assert logged_in.status_code == 302


def test_password_reset_link_works_only_once(client, syllabus):
    UserFactory(email="ada@example.com")
    client.post(reverse("account_reset_password"), {"email": "ada@example.com"})
    path = re.search(
        re.escape(settings.SITE_URL) + r"(/accounts/password/reset/key/\S+/)", mail.outbox[0].body
    )[1]
    form_url = client.get(path, follow=True).redirect_chain[-1][0]
    client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    again = client.get(path, follow=True)

    assertContains(again, "This reset link is invalid or has already been used")
    assertNotContains(again, "Set my password</button>")


def test_password_reset_for_an_unknown_email_reveals_nothing_and_sends_no_link(client, syllabus):
    UserFactory(email="ada@example.com")
    known = client.post(reverse("account_reset_password"), {"email": "ada@example.com"})
    unknown = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})

    # The same answer either way (allauth's enumeration prevention) ...
    assertRedirects(known, reverse("account_reset_password_done"))
    assertRedirects(unknown, reverse("account_reset_password_done"))
    # ... and one mail each: a link for the account, a note with no link to a reset form for
    # the address no account has.
    assert [message.to for message in mail.outbox] == [["ada@example.com"], ["nobody@example.com"]]
    assert "/accounts/password/reset/key/" in mail.outbox[0].body
    assert "/accounts/password/reset/key/" not in mail.outbox[1].body
    assert "No account has it" in mail.outbox[1].body


# Every learner page needs a login


LEARNER_PAGES = [
    reverse("progress:dashboard"),
    reverse("progress:plan"),
    reverse("progress:plan-choose"),
    reverse("progress:plan-preview") + "?intensity=standard&start_date=2026-01-05",
    reverse("progress:plan-calendar"),
    reverse("progress:study"),
    reverse("progress:phase", args=["core-ml-foundations"]),
    reverse("progress:review"),
    reverse("progress:practice"),
    reverse("progress:practice-history"),
    reverse("progress:account"),
    reverse("progress:account-export"),
]


@pytest.mark.parametrize("url", LEARNER_PAGES)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_learner_pages_send_anonymous_visitors_to_log_in(client, syllabus, url, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    response = client.get(url, **headers)

    assertRedirects(response, redirect_to_login(url).url, fetch_redirect_response=False)


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_an_anonymous_toggle_is_sent_to_log_in_and_changes_nothing(client, syllabus, htmx):
    url = reverse("progress:selfcheck-toggle", args=["p1-residual-gradient-flow"])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    response = client.post(url, {"done": "1"}, **headers)

    assertRedirects(response, redirect_to_login(url).url, fetch_redirect_response=False)
    assert not CheckOff.objects.exists()


def test_an_anonymous_plan_post_is_sent_to_log_in_and_writes_nothing(client, syllabus):
    url = reverse("progress:plan-choose")

    response = client.post(url, {"intensity": "standard", "start_date": "2026-01-05"})

    assertRedirects(response, redirect_to_login(url).url, fetch_redirect_response=False)
    assert not StudyPlan.objects.exists()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("progress:drill-start", {"domain": "core-ml"}),
        ("progress:mock-start", {}),
        ("progress:review-answer", {"rating": "3"}),
        ("progress:review-question", {"rating": "3"}),
        ("progress:selfcheck-reveal", {"answer": "From memory."}),
        ("progress:selfcheck-outcome", {"outcome": "got-it"}),
    ],
)
def test_anonymous_practice_and_review_posts_are_sent_to_log_in_and_write_nothing(
    client, syllabus, name, data
):
    args = {
        "progress:review-answer": ["p1-backprop"],
        "progress:review-question": [1],
        "progress:selfcheck-reveal": ["p1-backprop"],
        "progress:selfcheck-outcome": ["p1-backprop"],
    }.get(name, [])
    url = reverse(name, args=args)

    response = client.post(url, data)

    assertRedirects(response, redirect_to_login(url).url, fetch_redirect_response=False)
    assert not Attempt.objects.exists()
    assert not CheckOff.objects.exists()
    assert not QuestionCard.objects.exists()
