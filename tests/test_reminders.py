"""The weekly reminder: opting in on the account page, what the email says, one a week however
often send_reminders runs, and the one-click unsubscribe link."""

import datetime
import re
import smtplib
import sys
import threading
from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.core.mail.backends.base import BaseEmailBackend
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from progress.accounts import reminders
from progress.models import Profile
from progress.verdicts.figures import learner_state
from tests.factories import PASSWORD, UserFactory, make_due, make_plan, tick

pytestmark = pytest.mark.django_db

ACCOUNT = reverse("progress:account")
OPT_IN = reverse("progress:account-reminders")
TODAY = timezone.localdate()


def opted_in(user=None, *, confirmed=True, **profile):
    """A learner who asked for reminders, their address confirmed unless told otherwise."""
    user = user or UserFactory()
    Profile.objects.update_or_create(user=user, defaults={"weekly_reminder": True, **profile})
    if user.email:
        EmailAddress.objects.update_or_create(
            user=user, email=user.email, defaults={"primary": True, "verified": confirmed}
        )
    return user


def profile_of(user) -> Profile | None:
    return Profile.objects.filter(user=user).first()


def send(*args: str) -> str:
    out = StringIO()
    call_command("send_reminders", *args, stdout=out)
    return out.getvalue()


def ticked(page: str) -> bool:
    """Whether the page's weekly-reminder checkbox is ticked."""
    return " checked" in page.split('name="weekly_reminder"')[1].split(">")[0]


def unsubscribe_path(user) -> str:
    return reverse("progress:reminder-unsubscribe", args=[reminders.unsubscribe_token(user.pk)])


# Opting in on the account page


def test_the_account_page_offers_the_reminder_unticked(learner_client, learner):
    page = learner_client.get(ACCOUNT)
    assert page.status_code == 200
    assert "Email me a weekly reminder" in page.text
    assert f"Reminders go to <strong>{learner.email}</strong>" in page.text
    assert not ticked(page.text)
    # An account with an address is not asked for another.
    assert 'name="email"' not in page.text


def test_opting_in_saves_the_choice_and_says_so(learner_client, learner):
    response = learner_client.post(OPT_IN, {"weekly_reminder": "on"}, follow=True)

    assert response.redirect_chain == [(ACCOUNT, 302)]
    assert profile_of(learner).weekly_reminder is True
    assert f"Weekly reminders are on: one email a week to {learner.email}" in response.text
    assert ticked(response.text)


def test_opting_out_is_an_unticked_box(learner_client, learner):
    opted_in(learner)
    response = learner_client.post(OPT_IN, {}, follow=True)

    assert profile_of(learner).weekly_reminder is False
    assert "Weekly reminders are off" in response.text


def test_opting_in_with_no_email_address_asks_for_one_and_saves_nothing(client, syllabus):
    learner = UserFactory(email="")
    client.force_login(learner)
    assert "Your account has no email address yet" in client.get(ACCOUNT).text

    response = client.post(OPT_IN, {"weekly_reminder": "on"})

    assert response.status_code == 400
    assert "Add your email address first" in response.text
    assert reverse("account_email") in response.text
    assert profile_of(learner) is None


@pytest.mark.parametrize(
    "email", ["not-an-address", "name@", "x" * 300 + "@example.com", "a\x00b@example.com"]
)
def test_a_bad_email_address_is_refused_with_400(client, syllabus, email):
    learner = UserFactory(email="")
    client.force_login(learner)

    response = client.post(reverse("account_email"), {"action_add": "", "email": email})

    assert response.status_code == 400
    assert 'class="field-error"' in response.text
    learner.refresh_from_db()
    assert learner.email == ""
    assert not EmailAddress.objects.filter(user=learner).exists()


def test_no_reminder_goes_to_an_address_until_its_owner_confirms_it(client, syllabus):
    # Signed up with an address and asked for reminders at once: studying starts straight away.
    client.post(
        reverse("account_signup"),
        {
            "username": "grace",
            "email": "grace@example.org",
            "password1": "A-strong-Passw0rd-x",
            "password2": "A-strong-Passw0rd-x",
        },
    )
    learner = get_user_model().objects.get(username="grace")
    assert client.get(reverse("progress:dashboard")).status_code == 200
    (confirmation,) = mail.outbox
    opt_in = client.post(OPT_IN, {"weekly_reminder": "on"}, follow=True)
    assert "The first goes once you confirm it." in opt_in.text
    make_plan(learner)
    mail.outbox.clear()

    send()
    assert mail.outbox == []  # not confirmed: it may not be theirs

    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", confirmation.body)[0]
    path = link.removeprefix(settings.SITE_URL)
    assert "Confirm this address" in client.get(path).text
    client.post(path)
    assert "confirmed" in client.get(ACCOUNT).text

    send()
    assert [message.to for message in mail.outbox] == [["grace@example.org"]]


def test_the_opt_in_refuses_get_and_anonymous_posts(client, learner_client, learner):
    assert learner_client.get(OPT_IN).status_code == 405
    anonymous = Client()
    response = anonymous.post(OPT_IN, {"weekly_reminder": "on"})
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    assert profile_of(learner) is None


# Sending: once a week, only to who asked


def test_the_command_sends_once_a_week_however_often_it_runs(syllabus):
    learner = opted_in()
    make_plan(learner, exam_in=30)

    first = send()
    second = send()

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [learner.email]
    assert "Sent 1 reminder" in first
    assert "Sent 0 reminders" in second
    assert profile_of(learner).reminded_on == TODAY


def test_a_reminder_from_last_week_does_not_stop_this_weeks(syllabus):
    learner = opted_in(reminded_on=reminders.week_start(TODAY) - datetime.timedelta(days=1))
    make_plan(learner)
    this_week = opted_in(reminded_on=reminders.week_start(TODAY))
    make_plan(this_week)

    send()

    assert [message.to for message in mail.outbox] == [[learner.email]]


def test_only_opted_in_learners_with_an_address_get_one(syllabus):
    wanted = opted_in()
    opted_out = UserFactory()
    Profile.objects.create(user=opted_out, weekly_reminder=False)
    no_address = opted_in(UserFactory(email=""))
    unconfirmed = opted_in(confirmed=False)
    no_profile = UserFactory()
    inactive = opted_in(UserFactory(is_active=False))
    for user in (wanted, opted_out, no_address, no_profile, inactive, unconfirmed):
        make_plan(user)

    send()

    assert [message.to for message in mail.outbox] == [[wanted.email]]
    assert profile_of(opted_out).reminded_on is None
    assert profile_of(no_address).reminded_on is None
    assert profile_of(unconfirmed).reminded_on is None


def test_a_dry_run_prints_the_reminders_and_sends_and_claims_nothing(syllabus):
    learner = opted_in()
    make_plan(learner, exam_in=30)

    out = send("--dry-run")

    assert mail.outbox == []
    assert profile_of(learner).reminded_on is None
    assert f"To: {learner.email}" in out
    assert "Subject: NCA-GENM this week:" in out
    assert "30 days to your exam" in out
    assert "Would send 1 reminder" in out and "nothing sent, nothing claimed" in out
    # Nothing was claimed, so the real run still sends.
    send()
    assert len(mail.outbox) == 1


def test_learners_are_read_a_chunk_at_a_time_and_none_is_missed(syllabus):
    wanted = [opted_in() for _ in range(5)]
    opted_in(reminded_on=TODAY)

    due = list(reminders.learners_due(TODAY, chunk=2))

    assert [user.pk for user in due] == [user.pk for user in wanted]


class RefusingBackend(BaseEmailBackend):
    """An SMTP server that refuses every message."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPRecipientsRefused({"x": (550, b"mailbox unavailable")})


def test_a_reminder_that_could_not_be_sent_is_tried_again_on_the_next_run(syllabus, settings):
    learner = opted_in()
    make_plan(learner)
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"

    with pytest.raises(CommandError, match="1 reminder could not be sent"):
        send()
    assert profile_of(learner).reminded_on is None

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    send()
    assert len(mail.outbox) == 1


# The claim


def test_a_week_is_claimed_once_and_the_next_week_again(learner):
    opted_in(learner)
    monday = reminders.week_start(TODAY)
    sunday = monday + datetime.timedelta(days=6)

    assert reminders.claim(user_id=learner.pk, today=monday) is True
    assert reminders.claim(user_id=learner.pk, today=monday) is False
    assert reminders.claim(user_id=learner.pk, today=sunday) is False
    assert reminders.claim(user_id=learner.pk, today=sunday + datetime.timedelta(days=1)) is True


def test_an_opted_out_learner_cannot_be_claimed(learner):
    Profile.objects.create(user=learner, weekly_reminder=False)
    assert reminders.claim(user_id=learner.pk, today=TODAY) is False
    assert profile_of(learner).reminded_on is None


def run_together(count: int, work) -> list:
    """``work(n)`` in ``count`` threads, each on its own connection, released at one moment."""
    gate = threading.Barrier(count)
    results: list = [None] * count

    def run(n: int) -> None:
        try:
            gate.wait()
            results[n] = work(n)
        except Exception as error:  # reported by the test, not lost in the thread
            results[n] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    # Switch threads often, so that a claim made of a read and then a write would interleave.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        sys.setswitchinterval(interval)
    return results


@pytest.mark.django_db(transaction=True)
def test_racing_runs_claim_a_learners_week_once(syllabus):
    learners = [opted_in() for _ in range(40)]

    results = run_together(
        8,
        lambda n: [reminders.claim(user_id=user.pk, today=TODAY) for user in learners],
    )

    assert not [result for result in results if isinstance(result, Exception)], results
    for index in range(len(learners)):
        assert sum(result[index] for result in results) == 1


@pytest.mark.django_db(transaction=True)
def test_racing_commands_send_each_learner_one_email(syllabus):
    learners = [opted_in() for _ in range(3)]
    for user in learners:
        make_plan(user)

    results = run_together(4, lambda n: send())

    assert not [result for result in results if isinstance(result, Exception)], results
    assert sorted(message.to[0] for message in mail.outbox) == sorted(u.email for u in learners)


@pytest.mark.django_db(transaction=True)
def test_runs_racing_through_many_chunks_send_each_learner_one_email(syllabus):
    # Each run reads learners in chunks between its claims, as a run over many learners does,
    # while the other runs write: no read may be left open across a claim.
    learners = [opted_in() for _ in range(24)]

    def run(n: int) -> int:
        sent = 0
        for user in reminders.learners_due(TODAY, chunk=4):
            sent += reminders.send_reminder(user=user, today=TODAY) is not None
        return sent

    results = run_together(3, run)

    assert not [result for result in results if isinstance(result, Exception)], results
    assert sum(results) == len(learners)
    assert sorted(message.to[0] for message in mail.outbox) == sorted(u.email for u in learners)


# What the email says


def test_the_email_names_the_lagging_domain_with_its_reason(learner):
    opted_in(learner)
    make_plan(learner, days_ago=21, exam_in=20)
    tick(learner, "p1-backprop")
    report = learner_state(learner, today=TODAY, with_practice=True).report
    assert report.lagging is not None

    send()

    message = mail.outbox[0]
    assert message.subject == f"NCA-GENM this week: {report.lagging.name} is behind"
    assert f"Lagging domain: {report.lagging.reason}." in message.body
    assert "marks of the exam's 100 behind" in message.body
    assert "Recall on exam day: " in message.body
    assert "20 days to your exam on" in message.body
    assert "on plan" not in message.body


def test_the_email_says_on_plan_with_reviews_due_and_the_plans_end(learner):
    opted_in(learner)
    make_plan(learner)
    tick(learner, "p1-backprop", "p2-fid-direction")
    make_due(learner, "p1-backprop")
    report = learner_state(learner, today=TODAY, with_practice=True).report
    assert report.on_plan

    send()

    message = mail.outbox[0]
    assert message.subject == "NCA-GENM this week: you are on plan"
    assert "You are on plan: no domain is behind" in message.body
    assert "Lagging domain" not in message.body
    assert "1 self-check is due for review: http://" in message.body
    assert "No exam date set: your plan ends on" in message.body


@pytest.mark.parametrize(
    ("plan", "says"),
    [
        ({"exam_in": 1}, "1 day to your exam on"),
        ({"exam_in": 0}, "Your exam is today."),
        ({"days_ago": 100}, "No exam date set: your plan ended on"),
        ({"days_ago": 100, "exam_in": -3}, "has passed: if you have booked a new one"),
    ],
)
def test_the_email_counts_down_to_the_exam_or_the_plans_end(learner, plan, says):
    make_plan(learner, **plan)
    body = reminders.compose(learner, now=timezone.now()).body
    assert says in body


def test_the_email_to_a_learner_with_no_plan_asks_them_to_choose_one(learner):
    opted_in(learner)

    send()

    body = mail.outbox[0].body
    assert "You have not chosen a study schedule yet" in body
    assert reverse("progress:plan-choose") in body
    assert "on plan" not in body


def test_the_email_links_are_absolute_on_the_site_url(learner, settings):
    settings.SITE_URL = "https://study.example.com"
    opted_in(learner)
    make_plan(learner)

    send()

    message = mail.outbox[0]
    unsubscribe = f"https://study.example.com{unsubscribe_path(learner)}"
    assert f"Your dashboard: https://study.example.com{reverse('progress:dashboard')}" in (
        message.body
    )
    assert unsubscribe in message.body
    assert message.extra_headers["List-Unsubscribe"] == f"<{unsubscribe}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "&amp;" not in message.body and "&#x27;" not in message.body


# Unsubscribing


def test_the_unsubscribe_link_asks_first_and_needs_no_log_in(learner):
    opted_in(learner)
    page = Client().get(unsubscribe_path(learner))

    assert page.status_code == 200
    assert "Stop my weekly reminders" in page.text
    # Opening the link (as a mail scanner would) changes nothing.
    assert profile_of(learner).weekly_reminder is True


def test_the_button_unsubscribes_without_a_log_in_and_no_more_are_sent(learner):
    opted_in(learner)
    make_plan(learner)

    response = Client(enforce_csrf_checks=True).post(unsubscribe_path(learner))

    assert response.status_code == 200
    assert "no more weekly reminder emails will be sent" in response.text
    assert profile_of(learner).weekly_reminder is False
    send()
    assert mail.outbox == []
    assert "already off" in Client().get(unsubscribe_path(learner)).text


def test_a_mail_clients_one_click_post_unsubscribes(learner):
    opted_in(learner)

    response = Client(enforce_csrf_checks=True).post(
        unsubscribe_path(learner),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 200
    assert profile_of(learner).weekly_reminder is False


def tampered(token: str) -> str:
    return token[:-1] + ("A" if token[-1] != "A" else "B")


@pytest.mark.parametrize(
    "make_token",
    [
        lambda user: tampered(reminders.unsubscribe_token(user.pk)),
        lambda user: signing.dumps(user.pk, salt="another-purpose"),
        lambda user: signing.dumps(str(user.pk), salt=reminders.UNSUBSCRIBE_SALT),
        lambda user: str(user.pk),
        lambda user: "9" * 5000,
        lambda user: "a\x00b",
        lambda user: "ünïcødé",
    ],
)
def test_a_bad_unsubscribe_link_is_a_400_that_says_so(learner, make_token):
    opted_in(learner)
    path = reverse("progress:reminder-unsubscribe", args=[make_token(learner)])
    for method in ("get", "post"):
        response = getattr(Client(), method)(path)
        assert response.status_code == 400, (method, response.status_code)
        assert "This unsubscribe link is not valid" in response.text
    assert profile_of(learner).weekly_reminder is True


def test_one_learners_link_unsubscribes_only_them(learner):
    other = opted_in()
    opted_in(learner)

    Client().post(unsubscribe_path(other))

    assert profile_of(other).weekly_reminder is False
    assert profile_of(learner).weekly_reminder is True


# The account's export and deletion with a reminder set


def test_export_and_deletion_cover_the_reminder(learner_client, learner):
    EmailAddress.objects.create(user=learner, email=learner.email, primary=True, verified=True)
    learner_client.post(OPT_IN, {"weekly_reminder": "on"})
    send()

    data = learner_client.get(reverse("progress:account-export")).json()
    assert data["profile"]["weekly_reminder"] is True
    assert data["profile"]["reminded_on"] == TODAY.isoformat()

    response = learner_client.post(
        reverse("progress:account-delete"), {"password": PASSWORD, "confirm": "on"}
    )
    assert response.status_code == 302
    assert not Profile.objects.filter(user_id=learner.pk).exists()
    # An old email's link then finds nobody, and says nothing is being sent.
    page = Client().get(unsubscribe_path(learner))
    assert page.status_code == 200
    assert "already off" in page.text


def test_turning_reminders_on_again_retires_every_older_unsubscribe_link(learner):
    opted_in(learner)
    old = unsubscribe_path(learner)
    reminders.set_weekly_reminder(user=learner, on=False)
    reminders.set_weekly_reminder(user=learner, on=True)
    new = unsubscribe_path(learner)

    stale = Client().post(old)
    assert stale.status_code == 410
    assert "from an earlier round of reminders" in stale.content.decode()
    assert Profile.objects.get(user=learner).weekly_reminder is True

    assert new != old
    assert Client().post(new).status_code == 200
    assert Profile.objects.get(user=learner).weekly_reminder is False
