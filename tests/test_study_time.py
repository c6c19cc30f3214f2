"""Study time's figures, from plain values: the timer's cap, the plan's minutes by today, the
shares of the hours beside the exam's; and the timer's services at fixed moments."""

import datetime
import zoneinfo
from collections import Counter

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from phases.content import syllabus as snapshot
from phases.models import Phase
from phases.schedule import lay_out
from progress.study_time.figures import (
    VERDICT_AFTER_MINUTES,
    StudyTime,
    duration,
    heaviest,
    planned_minutes,
    timer_minutes,
)
from progress.study_time.models import StudySession
from progress.study_time.services import (
    correct_session,
    delete_session,
    record_session,
    start_timer,
    stop_timer,
)
from tests.factories import UserFactory

UTC = datetime.UTC
START = datetime.datetime(2026, 12, 3, 10, 2, tzinfo=UTC)
MIDNIGHT = datetime.datetime(2026, 12, 4, tzinfo=UTC)


def test_a_timer_counts_whole_minutes_and_none_under_half_a_minute():
    assert timer_minutes(START, START + datetime.timedelta(minutes=23, seconds=20), MIDNIGHT) == (
        23,
        False,
    )
    assert timer_minutes(START, START + datetime.timedelta(seconds=5), MIDNIGHT) == (0, False)
    assert timer_minutes(START, START + datetime.timedelta(seconds=31), MIDNIGHT) == (1, False)


def test_a_timer_left_running_stops_counting_at_four_hours():
    assert timer_minutes(START, START + datetime.timedelta(hours=9), MIDNIGHT) == (240, True)


def test_a_timer_left_running_overnight_stops_counting_at_midnight():
    late = datetime.datetime(2026, 12, 3, 23, 0, tzinfo=UTC)
    assert timer_minutes(late, late + datetime.timedelta(hours=2), MIDNIGHT) == (60, True)


@pytest.mark.parametrize(
    ("minutes", "words"),
    [(0, "0 min"), (23, "23 min"), (60, "1 h"), (65, "1 h 05 min"), (600, "10 h")],
)
def test_durations_read_as_hours_and_minutes(minutes, words):
    assert duration(minutes) == words


@pytest.fixture
def content(syllabus):
    return snapshot()


def test_the_heavier_domain_of_a_phase_comes_first(content):
    phase = content.phase("analysis-and-optimization")
    assert {domain.weight for domain in phase.domains} == {10}
    # Equal weights: the one studied first.
    assert heaviest(phase).slug == "data-analysis"
    assert heaviest(content.phase("core-ml-foundations")).slug == "core-ml"


def test_the_plan_expects_each_phase_s_hours_as_its_days_go_split_by_exam_weight(content):
    start = datetime.date(2026, 12, 1)
    schedule = lay_out(content.phase_hours["standard"], 8, start)
    first = schedule.slots[0]
    halfway = first.start + datetime.timedelta(days=first.days // 2)
    planned = planned_minutes(schedule, content, halfway)
    share = (halfway - first.start).days / first.days
    assert planned[(1, "core-ml")] == pytest.approx(60 * first.hours * share)
    assert planned.get((2, "experimentation"), 0) == 0
    # After the end, every phase's hours; a phase of two domains of equal weight gives each half.
    after = planned_minutes(schedule, content, schedule.finish + datetime.timedelta(days=1))
    fifth = schedule.slots[4]
    assert after[(5, "data-analysis")] == pytest.approx(60 * fifth.hours / 2)
    assert sum(after.values()) == pytest.approx(60 * sum(slot.hours for slot in schedule.slots))


def figures(content, minutes: dict[tuple[int, str], int]) -> StudyTime:
    return StudyTime(content=content, minutes=Counter(minutes), planned=None, schedule=None)


def test_each_domain_s_share_of_the_hours_sits_beside_its_exam_share(content):
    time = figures(content, {(1, "core-ml"): 90, (2, "experimentation"): 30})
    shares = {row.domain.slug: (row.share_percent, row.domain.weight) for row in time.domains()}
    assert shares["core-ml"] == (75, 20)
    assert shares["experimentation"] == (25, 25)
    assert shares["trustworthy-ai"] == (0, 5)
    assert [row.planned for row in time.domains()] == [None] * 7


def test_the_verdict_names_the_domain_furthest_under_its_share_once_an_hour_is_logged(content):
    assert figures(content, {(1, "core-ml"): VERDICT_AFTER_MINUTES - 1}).verdict() is None
    verdict = figures(content, {(1, "core-ml"): 60}).verdict()
    # Every other domain has 0%: Experimentation, 25% of the exam, is furthest under.
    assert verdict is not None and verdict.startswith("Experimentation has 0% of your hours")


def test_hours_in_step_with_exam_weight_say_so(content):
    minutes = {(1, domain.slug): 6 * domain.weight for domain in content.domains}
    assert figures(content, minutes).verdict() == "Your hours follow exam weight in every domain."


# The timer through its services, at fixed moments in the learner's own zone


AUCKLAND = zoneinfo.ZoneInfo("Pacific/Auckland")


@pytest.mark.parametrize(
    ("started", "stopped", "minutes", "capped"),
    [
        # 10:02 to 10:25 in Auckland: 23 minutes, as timed.
        ((10, 2), (10, 25), 23, False),
        # Left on from 10:02 to 19:00: four hours counted.
        ((10, 2), (19, 0), 240, True),
        # 22:30 to 01:10 the next day: counted up to Auckland's midnight, though in UTC the
        # whole session falls within one day.
        ((22, 30), (25, 10), 90, True),
    ],
)
def test_a_stopped_timer_counts_up_to_its_cap_in_the_learner_s_zone(
    learner, started, stopped, minutes, capped
):
    day = datetime.datetime(2026, 12, 3, tzinfo=AUCKLAND)
    start = day + datetime.timedelta(hours=started[0], minutes=started[1])
    stop = day + datetime.timedelta(hours=stopped[0], minutes=stopped[1])
    with timezone.override(AUCKLAND):
        session, _ = start_timer(user=learner, phase_slug="core-ml-foundations", now=start)
        assert session.day == datetime.date(2026, 12, 3)
        recorded = stop_timer(user=learner, domain_slug="core-ml", now=stop)
    assert recorded is not None
    assert (recorded.minutes, recorded.capped, recorded.domain.slug) == (minutes, capped, "core-ml")
    assert stop_timer(user=learner, domain_slug="core-ml", now=stop) is None  # stopped already


def test_a_second_start_returns_the_running_timer(learner):
    now = timezone.now()
    first, started = start_timer(user=learner, phase_slug="core-ml-foundations", now=now)
    again, started_again = start_timer(user=learner, phase_slug="experimentation", now=now)
    assert (started, started_again) == (True, False)
    assert again.pk == first.pk and again.phase.slug == "core-ml-foundations"


def test_the_database_refuses_a_running_timer_without_a_start(learner):
    # One would block the learner's timer (one running per learner) with nothing to show or stop.
    with pytest.raises(IntegrityError), transaction.atomic():
        StudySession.objects.create(
            user=learner, phase=Phase.objects.get(slug="core-ml-foundations"), day=START.date()
        )
    assert start_timer(user=learner, phase_slug="core-ml-foundations", now=START)[1]


def test_corrections_and_deletions_reach_only_the_learner_s_own_sessions(learner):
    other = UserFactory()
    theirs = record_session(
        user=other,
        phase_slug="core-ml-foundations",
        domain_slug="core-ml",
        day=timezone.localdate(),
        minutes=30,
    )
    assert not correct_session(
        user=learner, session_id=theirs.pk, domain_slug="core-ml", day=theirs.day, minutes=1
    )
    assert not delete_session(user=learner, session_id=theirs.pk)
    theirs.refresh_from_db()
    assert theirs.minutes == 30
