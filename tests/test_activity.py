"""The study-activity calendar: its grid (progress.charts, pure), the learner's days
(progress.dashboard.activity.study_activity) and the dashboard section that draws them."""

import datetime
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from fsrs import Rating

from phases.content import syllabus
from phases.models import Question, SelfCheck
from progress import charts as chart
from progress.auth import learner_queryset
from progress.dashboard.activity import study_activity
from progress.memory.reviews import review_question
from progress.models import AttemptQuestion, CheckOff, Profile, QuestionCard
from progress.planning.schedules import schedule_for
from progress.summary.keep import rebuild
from progress.timezones import start_of_day
from tests.conftest import days
from tests.factories import UserFactory, make_plan, miss, practise, review_revealed, tick
from tests.html import element_by_id, elements, page_text, table_rows, with_class

D = datetime.date
DASHBOARD = reverse("progress:dashboard")
STEP = chart.CELL + chart.CELL_GAP


# The grid (pure)


@pytest.mark.parametrize(
    "today",
    [D(2026, 3, 2), D(2026, 3, 4), D(2026, 3, 8), D(2026, 1, 1), D(2024, 2, 29)],
    ids=["monday", "wednesday", "sunday", "new-year", "leap-day"],
)
def test_the_grid_holds_twelve_weeks_of_days_up_to_today_monday_first(today):
    grid = chart.activity_grid({}, today)

    first = grid.cells[0].day
    assert first.weekday() == 0
    assert grid.today.day == today
    assert (today - first).days == 11 * 7 + today.weekday()
    assert len(grid.cells) == 11 * 7 + today.weekday() + 1
    # One cell a day, in order, with nothing after today.
    assert [cell.day for cell in grid.cells] == [first + days(n) for n in range(len(grid.cells))]
    columns = sorted({cell.x for cell in grid.cells})
    rows = sorted({cell.y for cell in grid.cells})
    assert len(columns) == 12
    assert len(rows) == 7
    for cell in grid.cells:
        week, weekday = divmod((cell.day - first).days, 7)
        assert cell.x == columns[week]
        assert cell.y == rows[weekday]
        assert weekday == cell.day.weekday()  # row 0 is Monday, row 6 Sunday
    # Columns and rows step evenly, and every cell lies inside the drawing.
    assert {b - a for a, b in zip(columns, columns[1:], strict=False)} == {STEP}
    assert {b - a for a, b in zip(rows, rows[1:], strict=False)} == {STEP}
    assert all(
        cell.x >= 0 and cell.x + chart.CELL <= grid.width and cell.y + chart.CELL <= grid.height
        for cell in grid.cells
    )


def test_a_day_is_shaded_by_its_count_and_days_outside_the_weeks_are_left_out():
    today = D(2026, 3, 4)
    counts = {
        today: 1,
        today - days(1): 3,
        today - days(2): 6,
        today - days(3): 12,
        today - days(4): 60,
        today - days(90): 9,  # before the grid's first Monday
        today + days(1): 9,  # tomorrow
    }

    grid = chart.activity_grid(counts, today)

    by_day = {cell.day: cell for cell in grid.cells}
    assert [by_day[today - days(n)].level for n in range(6)] == [1, 2, 3, 4, 4, 0]
    assert by_day[today - days(2)].count == 6
    assert by_day[today].label == "Wed 4 Mar: 1 action"
    assert by_day[today - days(1)].label == "Tue 3 Mar: 3 actions"
    assert by_day[today - days(5)].label == "Fri 27 Feb: nothing"
    assert 'data-day="2026-03-04"' in by_day[today].svg
    assert today - days(90) not in by_day
    assert today + days(1) not in by_day
    assert sum(cell.count for cell in grid.cells) == 1 + 3 + 6 + 12 + 60


@pytest.mark.parametrize(
    ("count", "level"),
    [(0, 0), (1, 1), (2, 1), (3, 2), (5, 2), (6, 3), (11, 3), (12, 4), (500, 4)],
)
def test_levels_step_up_with_the_days_actions(count, level):
    assert chart.activity_level(count) == level


def test_the_key_names_the_counts_each_level_stands_for():
    ranges = chart.level_ranges()

    assert [level for level, _ in ranges] == [0, 1, 2, 3, 4]
    for level, text in ranges[1:]:
        low = int(text.rstrip("+").split("–")[0])
        assert chart.activity_level(low) == level
        assert chart.activity_level(low - 1) == level - 1
        if "–" in text:
            high = int(text.split("–")[1])
            assert chart.activity_level(high) == level
            assert chart.activity_level(high + 1) == level + 1


def test_month_names_sit_over_the_week_of_their_first_day_without_colliding():
    today = D(2026, 3, 4)

    grid = chart.activity_grid({}, today)

    x_of = {cell.day: cell.x for cell in grid.cells}
    labelled = [month for _, month in grid.months]
    assert labelled == [D(2026, 1, 1), D(2026, 2, 1), D(2026, 3, 1)]
    for x, month in grid.months:
        assert x == x_of[month]
    xs = [x for x, _ in grid.months]
    assert all(b - a >= 3 * STEP for a, b in zip(xs, xs[1:], strict=False))


def test_the_first_month_is_named_when_its_name_has_room():
    # The grid starts on Mon 1 Dec 2025 and the next month begins four weeks later.
    grid = chart.activity_grid({}, D(2026, 2, 16))

    assert grid.cells[0].day == D(2025, 12, 1)
    assert [month for _, month in grid.months][:2] == [D(2025, 12, 1), D(2026, 1, 1)]


# The learner's days


db = pytest.mark.django_db


def move(user, *, slug: str, done_at: datetime.datetime) -> None:
    """A tick made at another moment, as a test needs it (the tick is the card's first review, so
    its last review moves with it); the learner's pages retired."""
    CheckOff.objects.filter(user=user, self_check__slug=slug).update(
        done_at=done_at, last_review=done_at, last_review_day=timezone.localdate(done_at)
    )
    rebuild(user, now=timezone.now())  # as the tick's write would have kept the summary


def summary_on(user, today: datetime.date) -> None:
    """The learner's summary as it stood at noon on ``today`` (the active zone): what a page
    read that day."""
    rebuild(user, now=start_of_day(today) + datetime.timedelta(hours=12))


@db
def test_ticks_reviews_and_answers_count_on_the_learners_own_day(
    learner, django_assert_num_queries
):
    # 11:30 UTC on Wed 4 Mar 2026 is already Thu 5 Mar in Auckland (UTC+13).
    moment = datetime.datetime(2026, 3, 4, 11, 30, tzinfo=datetime.UTC)
    tick(learner, "p1-backprop", "p2-fid-direction")
    move(learner, slug="p1-backprop", done_at=moment)
    move(learner, slug="p2-fid-direction", done_at=moment - days(1))
    # Ticked on Wednesday (Auckland), reviewed at the moment of the other tick.
    review_revealed(
        learner,
        self_check_id=SelfCheck.objects.get(slug="p2-fid-direction").pk,
        rating=Rating.Good,
        now=moment,
    )
    attempt = practise(learner, "core-ml", right=2, wrong=1, at=moment)
    assert AttemptQuestion.objects.filter(attempt=attempt).count() == 3

    with timezone.override("Pacific/Auckland"):
        summary_on(learner, D(2026, 3, 5))
        # The summary comes with the learner of a request (progress.auth): no query.
        request_user = learner_queryset().get(pk=learner.pk)
        with django_assert_num_queries(0):
            auckland = study_activity(request_user, today=D(2026, 3, 5), schedule=None)
    with timezone.override("America/Los_Angeles"):
        summary_on(learner, D(2026, 3, 4))
        los_angeles = study_activity(learner, today=D(2026, 3, 4), schedule=None)

    thursday = auckland.days[D(2026, 3, 5)]
    assert (thursday.ticks, thursday.reviews, thursday.answers) == (1, 1, 3)
    assert (auckland.days[D(2026, 3, 4)].ticks, auckland.days[D(2026, 3, 4)].answers) == (1, 0)
    assert set(auckland.days) == {D(2026, 3, 4), D(2026, 3, 5)}
    # In Los Angeles (UTC-8) the same moments fall on Tue 3 and Wed 4 March.
    wednesday = los_angeles.days[D(2026, 3, 4)]
    assert (wednesday.ticks, wednesday.reviews, wednesday.answers) == (1, 1, 3)
    assert (los_angeles.days[D(2026, 3, 3)].ticks, los_angeles.days[D(2026, 3, 3)].reviews) == (
        1,
        0,
    )


@db
def test_only_the_learners_own_rows_and_only_the_grids_weeks_count(learner):
    other = UserFactory()
    tick(other, "p1-backprop")
    practise(other, "core-ml", right=4)
    tick(learner, "p1-backprop", "p1-validation-vs-test")
    move(
        learner,
        slug="p1-validation-vs-test",
        done_at=timezone.now() - days(7 * chart.ACTIVITY_WEEKS + 1),
    )

    activity = study_activity(learner, today=timezone.localdate(), schedule=None)

    assert {day: (d.ticks, d.reviews, d.answers) for day, d in activity.days.items()} == {
        timezone.localdate(): (1, 0, 0)
    }


@db
def test_a_review_in_the_weeks_counts_though_its_tick_came_before_them(learner):
    tick(learner, "p1-backprop")
    long_ago = timezone.now() - days(7 * chart.ACTIVITY_WEEKS + 1)
    move(learner, slug="p1-backprop", done_at=long_ago)
    check = SelfCheck.objects.get(slug="p1-backprop")
    review_revealed(learner, self_check_id=check.pk, rating=Rating.Good, now=timezone.now())

    activity = study_activity(learner, today=timezone.localdate(), schedule=None)

    assert {day: (d.ticks, d.reviews, d.answers) for day, d in activity.days.items()} == {
        timezone.localdate(): (0, 1, 0)
    }


@db
def test_study_days_this_week_count_days_from_monday_against_the_plans_sessions(learner):
    plan = make_plan(learner, intensity="standard")
    wednesday = D(2026, 3, 4)
    noon = datetime.time(12, tzinfo=datetime.UTC)
    slugs = list(SelfCheck.objects.current().values_list("slug", flat=True)[:4])
    tick(learner, *slugs)
    # Monday, Wednesday twice: two study days this week; last Sunday is last week's.
    for slug, day in zip(slugs, [D(2026, 3, 2), wednesday, wednesday, D(2026, 3, 1)], strict=True):
        move(learner, slug=slug, done_at=datetime.datetime.combine(day, noon))

    with timezone.override("UTC"):
        summary_on(learner, wednesday)
        activity = study_activity(learner, today=wednesday, schedule=schedule_for(plan, syllabus()))

    assert activity.study_days_this_week == 2
    assert activity.planned_sessions == 4  # standard's 8 h a week in 2 h sessions
    assert activity.days[wednesday].ticks == 2


# On the dashboard


def activity_cell(response, day: datetime.date):
    (cell,) = [e for e in elements(response.content) if e.attrs.get("data-day") == day.isoformat()]
    return cell


@db
def test_a_tick_today_shades_todays_cell_and_the_text_says_so(learner, learner_client):
    make_plan(learner, intensity="standard")
    today = timezone.localdate()
    before = learner_client.get(DASHBOARD)  # cached now: the tick below must move it on
    assert "level-0" in activity_cell(before, today).classes

    tick(learner, "p1-backprop")
    response = learner_client.get(DASHBOARD)

    assert response.status_code == 200
    cell = activity_cell(response, today)
    assert cell.tag == "rect"
    assert "level-1" in cell.classes
    assert "1 action" in cell.text
    assert all(
        "level-0" in e.classes or "before" in e.classes
        for e in with_class(response.content, "activity-day")
        if e.tag == "rect" and e.attrs["data-day"] != today.isoformat()
    )
    svg = element_by_id(response.content, "activity-title")
    assert "1 study day" in svg.text
    (details,) = with_class(response.content, "activity-days")
    assert "1 study day in the last 12 weeks" in details.text
    assert table_rows(response.content, "activity-table") == [
        [f"{date_format(today, 'D j M Y')} (today)", "1", "0", "0"]
    ]
    text = page_text(response.content)
    assert "Study days this week: 1 of 4 planned sessions" in text
    assert "sessions of about 2 hours" in text


@db
def test_a_review_and_answers_today_show_in_the_days_counts(learner, learner_client):
    make_plan(learner)
    tick(learner, "p2-fid-direction", "p1-backprop")
    # A card takes one review a day: the one reviewed today was ticked on an earlier day.
    move(learner, slug="p1-backprop", done_at=timezone.now() - days(400))
    check = SelfCheck.objects.get(slug="p1-backprop")
    review_revealed(learner, self_check_id=check.pk, rating=Rating.Good, now=timezone.now())
    practise(learner, "experimentation", right=3, wrong=2)

    response = learner_client.get(DASHBOARD)

    (row,) = table_rows(response.content, "activity-table")
    assert row[1:] == ["1", "1", "5"]
    assert "level-3" in activity_cell(response, timezone.localdate()).classes  # 7 actions


@db
def test_without_a_plan_the_dashboard_counts_study_days_without_sessions(learner, learner_client):
    response = learner_client.get(DASHBOARD)

    text = page_text(response.content)
    assert "Study days this week: 0" in text
    assert "planned sessions" not in text
    assert "Nothing ticked, reviewed or answered in these 12 weeks yet." in text


@db
def test_the_calendar_counts_days_in_the_learners_time_zone(learner, learner_client):
    Profile.objects.create(user=learner, time_zone="Pacific/Auckland")
    auckland = zoneinfo.ZoneInfo("Pacific/Auckland")
    today = timezone.localdate(timezone=auckland)
    # Just after midnight in Auckland: still the day before in UTC and in Los Angeles.
    just_after_midnight = datetime.datetime.combine(today, datetime.time(0, 0, 1), auckland)
    tick(learner, "p1-backprop")
    move(learner, slug="p1-backprop", done_at=just_after_midnight)
    assert just_after_midnight.astimezone(datetime.UTC).date() == today - days(1)

    response = learner_client.get(DASHBOARD)

    assert "level-1" in activity_cell(response, today).classes
    assert table_rows(response.content, "activity-table")[0][0].endswith("(today)")


@db
def test_every_review_counts_on_its_own_day_missed_questions_included(learner):
    # Before the review log a card kept only its latest review: the first day's vanished.
    today = timezone.localdate()
    start = timezone.now() - days(6)
    tick(learner, "p1-backprop")
    move(learner, slug="p1-backprop", done_at=start)
    check = SelfCheck.objects.get(slug="p1-backprop").pk
    review_revealed(learner, self_check_id=check, rating=Rating.Good, now=start + days(2))
    review_revealed(learner, self_check_id=check, rating=Rating.Hard, now=start + days(4))
    (card,) = miss(learner, Question.objects.current().filter(domain__slug="core-ml").first())
    QuestionCard.objects.filter(pk=card.pk).update(last_review=start, missed_at=start)
    review_question(user=learner, card_id=card.pk, rating=Rating.Good, now=start + days(4))

    activity = study_activity(learner, today=today, schedule=None)

    reviews = {day: d.reviews for day, d in activity.days.items() if d.reviews}
    assert reviews == {
        timezone.localdate(start + days(2)): 1,
        timezone.localdate(start + days(4)): 2,
    }


def test_a_month_named_over_the_last_week_has_room_for_its_three_letters():
    # 1 December is in the last week: its label sits over the grid's last column.
    grid = chart.activity_grid({}, D(2026, 12, 2))
    x, month = grid.months[-1]
    assert month == D(2026, 12, 1)
    assert x + chart.ACTIVITY_RIGHT <= grid.width
    last_column = max(cell.x for cell in grid.cells)
    assert x == last_column


def test_the_calendar_outlines_the_days_before_the_learner_joined():
    today = D(2026, 12, 2)  # a Wednesday
    grid = chart.activity_grid({today: 2}, today, joined=D(2026, 11, 30))

    # All twelve weeks are drawn, so day one is not an empty box with one square in it; the days
    # before signing up are outlined, not grey: nothing was missed on them.
    assert grid.cells[0].day == chart.activity_start(today)
    assert grid.cells[-1].day == today
    outlined = [cell.day for cell in grid.cells if cell.before]
    assert outlined[-1] == D(2026, 11, 29)
    assert outlined == [cell.day for cell in grid.cells if cell.day < D(2026, 11, 30)]
    assert grid.first == D(2026, 11, 30)
    assert grid.any_before
    assert 'class="activity-day before"' in grid.cells[0].svg
    assert "before you signed up" in grid.cells[0].label
    assert "level-1" in grid.cells[-1].svg and "2 actions" in grid.cells[-1].label
    assert not chart.activity_grid({}, today).any_before
