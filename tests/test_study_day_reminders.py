"""Reminders on the learner's study days: at the hour they chose, in their time zone, naming that
day's task; once a day however many runs race; confirmed addresses only; one click stops them."""

import datetime
import zoneinfo
from io import StringIO
from urllib.parse import urlsplit

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from phases.models import Intensity
from progress.accounts import reminders
from progress.models import Profile, StudyPlan
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ACCOUNT = reverse("progress:account")
REMINDERS = reverse("progress:account-reminders")
AUCKLAND = zoneinfo.ZoneInfo("Pacific/Auckland")
MONDAY = datetime.date(2026, 12, 7)


def at(day: datetime.date, hour: int, minute: int = 0) -> datetime.datetime:
    """A moment in Auckland, the learner's zone."""
    return datetime.datetime.combine(day, datetime.time(hour, minute), tzinfo=AUCKLAND)


def learner_on_mon_wed_sat(*, hour: int = 18, confirmed: bool = True, exam_weeks: int = 6):
    user = UserFactory()
    Profile.objects.create(user=user, time_zone="Pacific/Auckland", study_day_hour=hour)
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=confirmed)
    StudyPlan.objects.create(
        user=user,
        intensity=Intensity.objects.get(slug="standard"),
        start_date=MONDAY,
        exam_date=MONDAY + datetime.timedelta(weeks=exam_weeks),
        kind=StudyPlan.Kind.OWN_PACE,
        hours_per_week=6,
        study_weekdays="025",
    )
    return user


def run(now: datetime.datetime) -> list:
    sent = []
    for user in reminders.learners_with_study_day_reminders():
        message = reminders.send_study_day_reminder(user=user, now=now)
        if message is not None:
            sent.append(message)
    return sent


def test_a_study_day_reminder_names_the_task_at_the_learners_hour_in_their_zone(syllabus):
    learner = learner_on_mon_wed_sat(hour=18)

    assert run(at(MONDAY, 17, 59)) == []  # not yet their hour
    (message,) = run(at(MONDAY, 18, 0))

    assert message.to == [learner.email]
    assert message.subject.startswith("NCA-GENM today, ")
    assert "phase 1, Core ML foundations: 7 self-checks left and the written exercise." in (
        message.body
    )
    assert "42 days to your exam." in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Once a day, however often the hourly run comes round.
    assert run(at(MONDAY, 19, 0)) == []
    assert run(at(MONDAY, 23, 59)) == []


def test_no_reminder_on_a_day_that_is_not_a_study_day(syllabus):
    learner_on_mon_wed_sat(hour=8)
    tuesday = MONDAY + datetime.timedelta(days=1)

    assert run(at(tuesday, 9)) == []
    assert len(run(at(tuesday + datetime.timedelta(days=1), 9))) == 1  # Wednesday


def test_an_unconfirmed_address_gets_none(syllabus):
    learner_on_mon_wed_sat(confirmed=False)

    assert run(at(MONDAY, 20)) == []


def test_the_command_sends_them_and_the_unsubscribe_link_stops_every_reminder(syllabus):
    learner = learner_on_mon_wed_sat(hour=0)
    today_there = datetime.datetime.now(AUCKLAND).date()
    StudyPlan.objects.filter(user=learner).update(
        start_date=today_there, study_weekdays=str(today_there.weekday())
    )
    Profile.objects.filter(user=learner).update(weekly_reminder=True)

    out = StringIO()
    call_command("send_reminders", stdout=out)

    assert "and 1 study-day reminder;" in out.getvalue()
    study_day = [m for m in mail.outbox if m.subject.startswith("NCA-GENM today")]
    assert len(study_day) == 1
    link = urlsplit(study_day[0].extra_headers["List-Unsubscribe"].strip("<>")).path
    response = Client(enforce_csrf_checks=True).post(
        link, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    profile = Profile.objects.get(user=learner)
    assert (profile.weekly_reminder, profile.study_day_hour) == (False, None)


def test_the_account_page_sets_the_hour_and_says_so(learner_client, learner):
    EmailAddress.objects.create(user=learner, email=learner.email, primary=True, verified=True)

    response = learner_client.post(REMINDERS, {"study_day_hour": "19"}, follow=True)

    assert Profile.objects.get(user=learner).study_day_hour == 19
    assert (
        f"Reminders are on: one at 19:00 on each study day of your plan to {learner.email}"
        in response.text
    )
    assert '<option value="19" selected>At 19:00</option>' in response.text


def test_an_hour_outside_the_day_is_refused_and_saves_nothing(learner_client, learner):
    response = learner_client.post(REMINDERS, {"study_day_hour": "24"})

    assert response.status_code == 400
    assert "Choose an hour from 00:00 to 23:00, or none." in response.text
    assert not Profile.objects.filter(user=learner, study_day_hour__isnull=False).exists()
