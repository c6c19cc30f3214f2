"""A plan from the learner's own hours: hours a week on the weekdays they study, spread to the
last study day before the exam; today's task on the dashboard; the exam day closing the plan's
table and its calendar file."""

import datetime

import icalendar
import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from phases.content import syllabus
from phases.models import Intensity
from phases.own_pace import Pace, hours_text, lay_on_study_days, study_days, total_hours
from phases.schedule import GUIDE_HOURS, MOCK_HOURS, hours_by_weight
from progress.models import StudyPlan
from progress.planning.schedules import own_pace, schedule_for
from progress.planning.views import SPREAD_AFTER_DAYS
from progress.study_time.services import record_session
from tests.conftest import today
from tests.factories import make_plan, tick
from tests.html import page_text, table_rows, with_class

CHOOSE = reverse("progress:plan-choose")
PREVIEW = reverse("progress:plan-preview")
PLAN = reverse("progress:plan")
CALENDAR = reverse("progress:plan-calendar")
DASHBOARD = reverse("progress:dashboard")
MONDAY = datetime.date(2026, 12, 7)
MON_WED_SAT = frozenset({0, 2, 5})
WEIGHTS = [(1, 20.0), (2, 25.0), (3, 15.0), (4, 15.0), (5, 20.0), (6, 5.0)]
STANDARD_MOST = 38  # Standard's 34 phase hours, 3 of revision and the mock's hour
REVISION = 3


def own_plan(pace: Pace, start: datetime.date, exam: datetime.date | None):
    total = total_hours(pace, start, exam, most=STANDARD_MOST)
    phases = hours_by_weight(total - REVISION - MOCK_HOURS, WEIGHTS)
    return lay_on_study_days(phases, pace, start, exam, revision_hours=REVISION)


def short(day: datetime.date) -> str:
    return f"{day:%a} {day.day} {day:%b}"


def schedule_of(user):
    return schedule_for(StudyPlan.objects.get(user=user), syllabus())


def make_plan_start_yesterday(user) -> None:
    StudyPlan.objects.filter(user=user).update(start_date=today() - datetime.timedelta(days=1))


# The pure layout


def test_six_hours_on_three_days_with_the_exam_three_weeks_out_ends_on_the_last_study_day():
    exam = MONDAY + datetime.timedelta(weeks=3)  # Mon 28 Dec
    pace = Pace(6, MON_WED_SAT)
    days = study_days(pace.weekdays, MONDAY, exam)
    assert len(days) == 9  # three weeks of Mon, Wed, Sat: 18 hours, fewer than the guide's 25

    schedule = own_plan(pace, MONDAY, exam)

    assert schedule.total_hours == GUIDE_HOURS[0]
    assert schedule.finish == datetime.date(2026, 12, 26)  # Sat, the last study day before
    assert schedule.revision.mock_day == schedule.finish
    # Every stretch starts on a study day, in order, with no gap between them.
    starts = [slot.start for slot in schedule.slots] + [schedule.revision.start]
    assert all(day.weekday() in MON_WED_SAT for day in starts)
    for before, after in zip(schedule.slots, schedule.slots[1:], strict=False):
        assert after.start == before.end + datetime.timedelta(days=1)
    # 25 hours on 9 study days: each asks 2 h 45, more than the 2 h given, and says so.
    assert hours_text(schedule.day_hours) == "2 h 45"
    assert schedule.day_hours > pace.day_hours
    # The week asks what its three study days say: 3 × 2 h 45 = 8 h 15, not the 8 h 20 of the
    # unrounded 25 h / 9.
    assert schedule.hours_between(MONDAY, MONDAY + datetime.timedelta(days=6)) == 8.25


def test_with_room_before_the_exam_no_study_day_asks_more_than_the_learner_gives():
    exam = MONDAY + datetime.timedelta(weeks=8)
    pace = Pace(6, MON_WED_SAT)

    schedule = own_plan(pace, MONDAY, exam)

    assert schedule.total_hours == STANDARD_MOST  # the guide's hours fit: all of them
    assert schedule.day_hours <= pace.day_hours
    assert schedule.finish < exam
    assert schedule.finish == study_days(pace.weekdays, MONDAY, exam)[-1]


def test_without_an_exam_the_plan_runs_at_the_learners_hours():
    pace = Pace(4, frozenset({1, 3}))  # 2 h on Tuesdays and Thursdays

    schedule = own_plan(pace, MONDAY, None)

    assert schedule.day_hours == 2
    assert schedule.slots[0].start == datetime.date(2026, 12, 8)  # the first Tuesday
    # 37 hours at 2 a study day fill 18 and a half; the mock has the 20th to itself.
    twenty = study_days(pace.weekdays, MONDAY, MONDAY + datetime.timedelta(weeks=20))
    assert schedule.revision.mock_day == twenty[19]
    assert schedule.slots[-1].end < schedule.revision.start < schedule.revision.mock_day


def test_too_few_study_days_for_every_stretch_is_refused():
    with pytest.raises(ValueError):
        own_plan(Pace(6, frozenset({5})), MONDAY, MONDAY + datetime.timedelta(days=14))


@given(
    hours=st.integers(1, 40),
    weekdays=st.frozensets(st.integers(0, 6), min_size=1),
    weeks=st.integers(3, 30),
)
@settings(max_examples=80, deadline=None)
def test_any_pace_ends_before_the_exam_and_asks_more_only_below_the_guides_least(
    hours, weekdays, weeks
):
    pace = Pace(hours, weekdays)
    exam = MONDAY + datetime.timedelta(weeks=weeks)
    try:
        schedule = own_plan(pace, MONDAY, exam)
    except ValueError:
        assert len(study_days(weekdays, MONDAY, exam)) < 8
        return
    assert schedule.finish < exam
    assert schedule.revision.mock_day.weekday() in weekdays
    assert GUIDE_HOURS[0] <= schedule.total_hours <= STANDARD_MOST
    available = len(study_days(weekdays, MONDAY, exam)) * pace.day_hours
    if available >= GUIDE_HOURS[0]:
        assert schedule.day_hours <= pace.day_hours + 1e-9


# Through the pages


def choose_own_pace(client, **fields):
    data = {
        "intensity": "standard",
        "start_date": today().isoformat(),
        "own_hours": "6",
        "own_days": ["0", "2", "5"],
        "fit": "own",
    } | fields
    return client.post(CHOOSE, data)


@pytest.mark.django_db
def test_a_learner_saves_a_plan_at_their_own_pace_and_the_plan_page_follows_it(
    learner_client, learner
):
    exam = today() + datetime.timedelta(weeks=3)
    response = choose_own_pace(learner_client, exam_date=exam.isoformat())

    assert response.status_code == 302
    plan = StudyPlan.objects.get(user=learner)
    assert (plan.kind, plan.hours_per_week, plan.study_weekdays) == ("own_pace", 6, "025")
    page = learner_client.get(PLAN)
    text = page_text(page.content)
    assert "At your own pace: 6 hours a week on Mon, Wed, Sat." in text
    # The exam day closes the table, after the mock on the last study day before it.
    rows = table_rows(page.content, "plan-table")
    assert rows[-1][:3] == ["Your exam", short(exam), short(exam)]
    assert rows[-2][0].startswith("Full mock exam")
    assert rows[-2][1] == short(schedule_of(learner).finish)
    # And the calendar file, every phase on one of the learner's days.
    calendar = icalendar.Calendar.from_ical(learner_client.get(CALENDAR).content)
    events = {str(e["uid"]).split("-")[0]: e for e in calendar.walk("VEVENT")}
    assert events["exam"].decoded("dtstart") == exam
    for event in calendar.walk("VEVENT"):
        if str(event["uid"]).startswith(("phase", "revision", "mock")):
            assert event.decoded("dtstart").weekday() in {0, 2, 5}
            assert event.decoded("dtstart") < exam


@pytest.mark.django_db
def test_the_preview_warns_when_a_study_day_asks_more_than_the_learner_gives(learner_client):
    exam = today() + datetime.timedelta(weeks=3)
    data = {
        "intensity": "standard",
        "start_date": today().isoformat(),
        "exam_date": exam.isoformat(),
        "own_hours": "6",
        "own_days": ["0", "2", "5"],
    }
    response = learner_client.post(PREVIEW, data)

    text = page_text(response.content)
    assert "At your own pace: 6 h a week on Mon, Wed, Sat" in text
    (warning,) = with_class(response.content, "own-over")
    assert "more than the 2 h you give" in warning.text
    assert "Save my own-pace plan" in text

    roomy = learner_client.post(PREVIEW, data | {"own_hours": "12"})
    assert with_class(roomy.content, "own-over") == []
    assert "No study day asks more than the 4 h you give." in page_text(roomy.content)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"own_days": []}, "Choose at least one day you study."),
        ({"own_hours": ""}, "Enter the hours a week you can give, 1 to 40."),
        ({"own_hours": "41"}, "At most 40 hours a week."),
        ({"own_hours": "0"}, "Give at least 1 hour a week."),
        ({"own_days": ["7"]}, "Choose your study days from Monday to Sunday."),
    ],
)
def test_an_incomplete_pace_is_refused_with_a_message_and_saves_nothing(
    learner_client, learner, fields, message
):
    response = choose_own_pace(learner_client, **fields)

    assert response.status_code == 400
    assert message in page_text(response.content)
    assert not StudyPlan.objects.filter(user=learner).exists()


@pytest.mark.django_db
def test_too_few_study_days_before_the_exam_is_refused_with_the_reason(learner_client, learner):
    exam = today() + datetime.timedelta(days=14)
    response = choose_own_pace(learner_client, exam_date=exam.isoformat(), own_days=["5"])

    assert response.status_code == 400
    assert "too few for the 6 phases, a revision day and the mock" in page_text(response.content)
    assert not StudyPlan.objects.filter(user=learner).exists()


@pytest.mark.django_db
def test_the_dashboard_names_todays_task_its_time_and_the_days_to_the_exam(learner_client, learner):
    weekday = today().weekday()
    exam = today() + datetime.timedelta(weeks=8)
    choose_own_pace(
        learner_client, exam_date=exam.isoformat(), own_hours="8", own_days=[str(weekday)]
    )
    tick(learner, "p1-backprop")
    record_session(
        user=learner,
        phase_slug="core-ml-foundations",
        domain_slug="core-ml",
        day=today(),
        minutes=90,
    )

    page = learner_client.get(DASHBOARD)

    # The week's hours against the plan's: one study day this week (today), 4 h 45 of it.
    (week,) = with_class(page.content, "today-week")
    assert week.text == "This week: 1 h 30 min studied of the 4 h 45 min your plan asks this week."
    (box,) = with_class(page.content, "today-phase")
    assert "56 days to your exam" in box.text
    # 38 hours over the 8 study days before the exam (one a week): 4 h 45 each, under the 8 given.
    (task,) = with_class(page.content, "todays-task")
    assert task.text == (
        "4 h 45: phase 1, Core ML foundations: 6 self-checks left and the written exercise."
    )


@pytest.mark.django_db
def test_on_a_day_off_the_dashboard_says_so_and_names_the_next_study_day(learner_client, learner):
    yesterday = (today() - datetime.timedelta(days=1)).weekday()
    choose_own_pace(learner_client, own_days=[str(yesterday)])

    make_plan_start_yesterday(learner)

    page = learner_client.get(DASHBOARD)

    (task,) = with_class(page.content, "todays-task")
    # Started yesterday, a study day; today is not one.
    next_day = today() + datetime.timedelta(days=6)
    assert task.text == f"No study planned today: your next study day is {short(next_day)}."


@pytest.mark.django_db
def test_a_plan_saved_on_a_day_off_says_when_its_first_study_day_is(learner_client, learner):
    # Saved today, a day off (three study days a week, the first tomorrow): today the dashboard
    # says when the plan starts, with the days to the exam (it said nothing until then).
    tomorrow = today() + datetime.timedelta(days=1)
    exam = today() + datetime.timedelta(weeks=3)
    days = [str((today() + datetime.timedelta(days=n)).weekday()) for n in (1, 3, 5)]
    response = choose_own_pace(learner_client, exam_date=exam.isoformat(), own_days=days)
    assert response.status_code == 302

    page = learner_client.get(DASHBOARD)

    (box,) = with_class(page.content, "today-phase")
    assert "21 days to your exam" in box.text
    (task,) = with_class(page.content, "todays-task")
    assert task.text == f"No study planned today: your next study day is {short(tomorrow)}."


@pytest.mark.django_db
def test_a_guide_schedule_with_an_exam_ends_its_table_with_the_exam_day(learner_client, learner):
    exam = today() + datetime.timedelta(weeks=12)
    make_plan(learner, intensity="standard", exam_in=(exam - today()).days)

    page = learner_client.get(PLAN)

    rows = table_rows(page.content, "plan-table")
    assert rows[-1][:3] == ["Your exam", short(exam), short(exam)]
    assert rows[-1][-1] == "Coming up"


@pytest.mark.django_db
def test_a_schedule_ending_long_before_the_exam_is_offered_spread_to_the_day_before(
    learner_client, learner
):
    exam = today() + datetime.timedelta(weeks=16)  # Standard takes about five weeks
    data = {
        "intensity": "standard",
        "start_date": today().isoformat(),
        "exam_date": exam.isoformat(),
    }

    preview = learner_client.post(PREVIEW, data)

    text = page_text(preview.content)
    assert "before the exam with nothing planned: you can spread it to the day before" in text
    assert "Spread to my exam date: 3 h a week" in text
    assert "about 1 hour a study day, 3 days a week" in text

    learner_client.post(CHOOSE, data | {"fit": "1"})

    plan = StudyPlan.objects.get(user=learner)
    assert plan.kind == "fitted"
    assert schedule_of(learner).finish == exam - datetime.timedelta(days=1)


@pytest.mark.django_db
def test_a_schedule_ending_within_a_week_of_the_exam_is_not_offered_a_spread(learner_client):
    fast = Intensity.objects.get(slug="fast-track")
    finish = own_pace(fast, syllabus(), today()).finish
    exam = finish + datetime.timedelta(days=SPREAD_AFTER_DAYS)
    data = {
        "intensity": "fast-track",
        "start_date": today().isoformat(),
        "exam_date": exam.isoformat(),
    }

    text = page_text(learner_client.post(PREVIEW, data).content)

    assert "at least a day before your exam" in text
    assert "Spread to my exam date" not in text
    later = data | {"exam_date": (exam + datetime.timedelta(days=1)).isoformat()}
    assert "Spread to my exam date" in page_text(learner_client.post(PREVIEW, later).content)


@pytest.mark.django_db
def test_todays_phase_page_opens_with_todays_task_and_no_other_does(learner_client, learner):
    make_plan(learner, intensity="standard", exam_in=60)

    first = learner_client.get(reverse("progress:phase", args=["core-ml-foundations"]))
    second = learner_client.get(reverse("progress:phase", args=["experimentation"]))

    (task,) = with_class(first.content, "todays-task")
    assert task.text == (
        "Today, about 2 hours: phase 1, Core ML foundations: 7 self-checks left and the written "
        "exercise. 60 days to your exam."
    )
    assert with_class(second.content, "todays-task") == []
