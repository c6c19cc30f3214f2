"""Catching up: a learner days behind their plan lays it again from today in one action; every
tick, review and answer is kept, the plan as it was stays in their earlier plans and export."""

import datetime

import icalendar
import pytest
from django.urls import reverse

from phases.content import syllabus
from phases.models import Intensity
from phases.schedule import lay_out
from progress.models import CheckOff, EarlierPlan, StudyPlan
from progress.planning.schedules import schedule_for
from progress.planning.services import EARLIER_PLANS_KEPT, save_plan
from progress.planning.today import CATCH_UP_DAYS, days_behind
from tests.conftest import today
from tests.factories import make_plan, tick
from tests.html import page_text, with_class

PLAN = reverse("progress:plan")
CATCH_UP = reverse("progress:plan-catch-up")
CALENDAR = reverse("progress:plan-calendar")
DASHBOARD = reverse("progress:dashboard")
START = datetime.date(2026, 12, 7)


def test_days_behind_is_how_long_ago_the_calendar_expected_what_is_done():
    # Two phases of 7 hours at 7 hours a week: a week each, 10 self-checks each.
    schedule = lay_out([(1, 7), (2, 7)], 7, START)
    totals = {1: 10, 2: 10}
    day = START + datetime.timedelta(days=10)  # phase 1 due, 3 of 7 days of phase 2

    assert days_behind(schedule, totals, {1: 10, 2: 5}, day) == 0  # ahead
    # 10 done: what the calendar expected as phase 2 began, 3 days ago.
    assert days_behind(schedule, totals, {1: 10}, day) == 3
    # Nothing done: expected nothing only on the first day.
    assert days_behind(schedule, totals, {}, day) == 10


def phase_checks(number: int) -> list[str]:
    return [check.slug for check in syllabus().checks if check.phase.number == number]


def started_days_ago(user, days: int) -> None:
    """The clock moved on: the plan began ``days`` ago (a state the services make only by
    waiting)."""
    StudyPlan.objects.filter(user=user).update(start_date=today() - datetime.timedelta(days=days))


@pytest.mark.django_db
def test_a_learner_a_week_behind_re_plans_in_one_click_and_keeps_every_tick(
    learner_client, learner
):
    exam = today() + datetime.timedelta(weeks=4)
    learner_client.post(
        reverse("progress:plan-choose"),
        {
            "intensity": "standard",
            "start_date": today().isoformat(),
            "exam_date": exam.isoformat(),
            "own_hours": "6",
            "own_days": ["0", "2", "5"],
            "fit": "own",
        },
    )
    started_days_ago(learner, 9)
    tick(learner, *phase_checks(1)[:2])
    old = schedule_for(StudyPlan.objects.get(user=learner), syllabus())

    page = learner_client.get(PLAN)
    (offer,) = with_class(page.content, "catch-up")
    assert "behind this plan" in offer.text
    assert "You are " in page_text(learner_client.get(DASHBOARD).content)

    response = learner_client.post(CATCH_UP, follow=True)

    plan = StudyPlan.objects.get(user=learner)
    new = schedule_for(plan, syllabus())
    assert plan.start_date == today()
    assert (plan.kind, plan.hours_per_week, plan.study_weekdays) == ("own_pace", 6, "025")
    assert new.slots[0].start >= today()
    assert new.finish < exam
    assert CheckOff.objects.filter(user=learner).count() == 2
    (earlier,) = EarlierPlan.objects.filter(user=learner)
    assert (earlier.reason, earlier.start_date, earlier.finish) == (
        "caught_up",
        today() - datetime.timedelta(days=9),
        old.finish,
    )
    text = page_text(response.content)
    assert "Your plan starts again today with phase 1." in text
    assert "Every tick, review and answer is kept" in text
    assert with_class(response.content, "catch-up") == []  # on plan now
    # A second click (a stale page) changes nothing.
    again = learner_client.post(CATCH_UP, follow=True)
    assert "You are on plan: there is nothing to catch up." in page_text(again.content)
    assert EarlierPlan.objects.filter(user=learner).count() == 1
    assert "Earlier plans" in text and "Re-planned from that day" in text
    # The calendar file follows: nothing before today but the exam's own day.
    calendar = icalendar.Calendar.from_ical(learner_client.get(CALENDAR).content)
    starts = [event.decoded("dtstart") for event in calendar.walk("VEVENT")]
    assert min(starts) >= today()


@pytest.mark.django_db
def test_phases_finished_before_catching_up_are_not_laid_again(learner_client, learner):
    make_plan(learner, days_ago=30)
    tick(learner, *phase_checks(1))

    learner_client.post(CATCH_UP)

    plan = StudyPlan.objects.get(user=learner)
    schedule = schedule_for(plan, syllabus())
    assert plan.done_phases == "1"
    assert [slot.number for slot in schedule.slots] == [2, 3, 4, 5, 6]
    assert schedule.share_due(today())[1] == 1.0
    text = page_text(learner_client.get(PLAN).content)
    assert "phase 1 was finished before, so it is not laid again" in text


@pytest.mark.django_db
def test_on_plan_nothing_is_offered(learner_client, learner):
    make_plan(learner, days_ago=CATCH_UP_DAYS - 1)
    tick(learner, *phase_checks(1))

    assert with_class(learner_client.get(PLAN).content, "catch-up") == []
    assert with_class(learner_client.get(DASHBOARD).content, "today-behind") == []


@pytest.mark.django_db
def test_a_passed_exam_is_refused_with_a_message_and_changes_nothing(learner_client, learner):
    make_plan(learner, days_ago=20, exam_in=0)

    response = learner_client.post(CATCH_UP, follow=True)

    assert "Your exam date is today or has passed" in page_text(response.content)
    assert not EarlierPlan.objects.filter(user=learner).exists()
    assert StudyPlan.objects.get(user=learner).start_date == today() - datetime.timedelta(days=20)


@pytest.mark.django_db
def test_catching_up_takes_a_post(learner_client, learner):
    make_plan(learner, days_ago=20)

    assert learner_client.get(CATCH_UP).status_code == 405
    assert not EarlierPlan.objects.filter(user=learner).exists()


@pytest.mark.django_db
def test_changing_the_plan_keeps_the_old_one_too(learner_client, learner):
    make_plan(learner, days_ago=5)

    learner_client.post(
        reverse("progress:plan-choose"),
        {"intensity": "extended", "start_date": today().isoformat()},
    )

    (earlier,) = EarlierPlan.objects.filter(user=learner)
    assert (earlier.reason, earlier.intensity.slug) == ("changed", "standard")
    # The same plan saved again is no change: nothing more is kept.
    learner_client.post(
        reverse("progress:plan-choose"),
        {"intensity": "extended", "start_date": today().isoformat()},
    )
    assert EarlierPlan.objects.filter(user=learner).count() == 1


@pytest.mark.django_db
def test_only_the_newest_fifty_earlier_plans_are_kept(learner_client, learner):
    make_plan(learner)
    for number in range(EARLIER_PLANS_KEPT + 3):
        save_plan(
            user=learner,
            intensity=Intensity.objects.get(slug=("standard", "extended")[number % 2]),
            start_date=today(),
            exam_date=None,
            today=today(),
        )

    assert EarlierPlan.objects.filter(user=learner).count() == EARLIER_PLANS_KEPT
