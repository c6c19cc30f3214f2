"""Study time on the pages: the timer (kept on the server), "I studied __ minutes", the hours
against the plan's, the learner's sessions corrected and deleted; with and without htmx."""

import datetime
import zoneinfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects

from phases.content import syllabus
from progress.models import Profile, StudySession
from progress.planning.schedules import schedule_for
from progress.study_time.figures import duration, planned_minutes
from progress.study_time.services import record_session, start_timer
from progress.timezones import end_of_day
from tests.conftest import HTMX
from tests.factories import UserFactory, make_plan
from tests.html import element_by_id, table_rows, with_tag

pytestmark = pytest.mark.django_db

PHASE_ONE = "core-ml-foundations"
PHASE_FIVE = "analysis-and-optimization"  # data analysis and performance optimization
STUDY_TIME = reverse("progress:study-time")


def phase_url(slug: str = PHASE_ONE) -> str:
    return reverse("progress:phase", args=[slug])


def start_url(slug: str = PHASE_ONE) -> str:
    return reverse("progress:timer-start", args=[slug])


def stop_url(slug: str = PHASE_ONE) -> str:
    return reverse("progress:timer-stop", args=[slug])


def record_url(slug: str = PHASE_ONE) -> str:
    return reverse("progress:study-session-record", args=[slug])


def section(response) -> str:
    return element_by_id(response.content, "study-time").text


def running_since(user, **ago) -> StudySession:
    """A timer started ``ago`` before now: a state no service makes (it starts timers now)."""
    started_at = timezone.now() - datetime.timedelta(**ago)
    session, _ = start_timer(user=user, phase_slug=PHASE_ONE, now=timezone.now())
    StudySession.objects.filter(pk=session.pk).update(
        started_at=started_at, day=timezone.localdate(started_at)
    )
    return StudySession.objects.get(pk=session.pk)


@pytest.fixture
def midday(learner):
    """The learner in a time zone where it is about noon now, and the test with them: a timer
    started some minutes ago has not crossed their midnight, whenever the suite runs (in UTC,
    one started 40 minutes ago at 00:20 is capped at midnight, rightly)."""
    offset = 12 - timezone.now().astimezone(datetime.UTC).hour  # -11 to 12 hours
    # The Etc/GMT zones count the other way round: Etc/GMT-3 is three hours ahead of UTC.
    zone = f"Etc/GMT{-offset:+d}" if offset else "UTC"
    Profile.objects.update_or_create(user=learner, defaults={"time_zone": zone})
    with timezone.override(zone):
        yield zone


def capped_minutes(session: StudySession) -> int:
    """What a timer left running counts: four hours, or up to the midnight after its start; at
    least a minute."""
    midnight = end_of_day(timezone.localdate(session.started_at))
    counted = min(datetime.timedelta(hours=4), midnight - session.started_at)
    return max(1, round(counted.total_seconds() / 60))


def session_of(user, minutes: int = 30, **fields) -> StudySession:
    return record_session(
        user=user,
        phase_slug=fields.get("phase_slug", PHASE_ONE),
        domain_slug=fields.get("domain_slug", "core-ml"),
        day=fields.get("day", timezone.localdate()),
        minutes=minutes,
    )


# The timer


def test_a_phase_page_offers_the_timer_and_time_typed_in(learner_client):
    response = learner_client.get(phase_url())
    buttons = [button.text for button in with_tag(response.content, "button")]
    assert "Start studying" in buttons
    assert "Record it" in buttons
    assertContains(response, 'name="minutes"')
    # Phase one is one domain's: nothing to choose.
    assertNotContains(response, "Which domain was it for?")


def test_the_timer_runs_on_the_server_a_reload_and_another_device_show_it(learner_client, learner):
    response = learner_client.post(start_url())
    assertRedirects(response, f"{phase_url()}#study-time", fetch_redirect_response=False)
    started = StudySession.objects.get(user=learner)
    assert started.minutes is None and started.day == timezone.localdate()

    other_device = Client()
    other_device.force_login(learner)
    for client in (learner_client, other_device):
        text = section(client.get(phase_url()))
        assert f"Studying since {timezone.localtime(started.started_at):%H:%M}" in text
        assert "Stop and record" in text and "Start studying" not in text


def test_starting_with_htmx_answers_the_section_with_the_running_timer(learner_client):
    response = learner_client.post(start_url(), **HTMX)
    assert response.status_code == 200
    assert "Studying since" in section(response)


def test_at_most_one_timer_runs_and_another_phase_s_page_shows_it(learner_client, learner):
    learner_client.post(start_url())
    learner_client.post(start_url())
    learner_client.post(start_url("experimentation"))
    assert StudySession.objects.filter(user=learner).count() == 1
    text = section(learner_client.get(phase_url("experimentation")))
    assert "Your timer is on phase 1: Studying since" in text


def test_stopping_records_the_minutes_for_the_only_domain(learner_client, learner, midday):
    running_since(learner, minutes=23, seconds=10)
    response = learner_client.post(stop_url())
    assertRedirects(response, f"{phase_url()}#study-time", fetch_redirect_response=False)
    session = StudySession.objects.get(user=learner)
    assert (session.minutes, session.domain.slug, session.capped) == (23, "core-ml", False)
    assert "23 min studied for this phase" in section(learner_client.get(phase_url()))


def test_stopping_on_a_phase_of_two_domains_asks_which_the_heavier_chosen(
    learner_client, learner, midday
):
    start_timer(
        user=learner, phase_slug=PHASE_FIVE, now=timezone.now() - datetime.timedelta(minutes=20)
    )
    page = learner_client.get(phase_url(PHASE_FIVE))
    stop_form = element_by_id(page.content, "study-time")
    radios = [
        element.attrs
        for element in with_tag(page.content, "input")
        if element.attrs.get("name") == "domain" and element.attrs.get("id", "").startswith("stop")
    ]
    assert [radio["value"] for radio in radios] == ["data-analysis", "performance-optimization"]
    # Equal weights: the one studied first is chosen to begin with.
    assert ["checked" in radio for radio in radios] == [True, False]
    assert "Which domain was it for?" in stop_form.text

    response = learner_client.post(stop_url(PHASE_FIVE), {"domain": "performance-optimization"})
    assert response.status_code == 302
    assert StudySession.objects.get(user=learner).domain.slug == "performance-optimization"


def test_stopping_with_htmx_answers_the_section_with_the_time_recorded(
    learner_client, learner, midday
):
    running_since(learner, minutes=40)
    response = learner_client.post(stop_url(), **HTMX)
    assert response.status_code == 200
    text = section(response)
    assert "40 min studied for this phase" in text and "Start studying" in text
    # Said in the section it swaps in, not again on the next page.
    assert "40 min of study recorded." in text
    assertNotContains(learner_client.get(phase_url()), "of study recorded")


@pytest.mark.parametrize("domain", ["core-ml", "no-such-domain", "\x00", "x" * 5000])
def test_stopping_for_a_domain_not_in_the_phase_is_refused_and_the_timer_keeps_running(
    learner_client, learner, domain
):
    start_timer(user=learner, phase_slug=PHASE_FIVE, now=timezone.now())
    response = learner_client.post(stop_url(PHASE_FIVE), {"domain": domain})
    assert response.status_code == 400
    assertContains(
        response,
        "Choose one of this phase&#x27;s domains: Data Analysis or Performance Optimization.",
        status_code=400,
    )
    assert StudySession.objects.get(user=learner).minutes is None


def test_a_timer_left_running_is_capped_and_the_learner_told_and_sent_to_correct_it(
    learner_client, learner
):
    learner.date_joined = timezone.now() - datetime.timedelta(days=2)
    learner.save(update_fields=["date_joined"])
    session = running_since(learner, hours=6)
    assertContains(learner_client.get(phase_url()), "It has run past 4 hours")
    response = learner_client.post(stop_url(), follow=True)
    assertRedirects(response, reverse("progress:study-session", args=[session.pk]))
    assertContains(
        response, f"stopped counting there: {duration(capped_minutes(session))} recorded"
    )
    stopped = StudySession.objects.get(pk=session.pk)
    assert (stopped.minutes, stopped.capped) == (capped_minutes(session), True)

    corrected = learner_client.post(
        reverse("progress:study-session", args=[session.pk]),
        {"minutes": "150", "day": stopped.day.isoformat()},
    )
    assertRedirects(corrected, STUDY_TIME, fetch_redirect_response=False)
    stopped.refresh_from_db()
    assert (stopped.minutes, stopped.capped) == (150, False)


def test_a_capped_timer_stopped_with_htmx_sends_the_browser_to_correct_it(learner_client, learner):
    session = running_since(learner, hours=5)
    response = learner_client.post(stop_url(), **HTMX)
    assert response["HX-Redirect"] == reverse("progress:study-session", args=[session.pk])


def test_stopping_when_no_timer_runs_changes_nothing(learner_client, learner):
    response = learner_client.post(stop_url(), follow=True)
    assertContains(response, "No timer is running")
    assert not StudySession.objects.filter(user=learner).exists()


def test_the_timer_shows_the_learner_s_own_clock(learner_client, learner):
    Profile.objects.create(user=learner, time_zone="Pacific/Auckland")
    session = running_since(learner, minutes=5)
    local = session.started_at.astimezone(zoneinfo.ZoneInfo("Pacific/Auckland"))
    assert f"Studying since {local:%H:%M}" in section(learner_client.get(phase_url()))


# "I studied __ minutes"


def test_time_typed_in_is_recorded_for_today(learner_client, learner):
    response = learner_client.post(record_url(), {"minutes": "30", "day": ""})
    assertRedirects(response, f"{phase_url()}#study-time", fetch_redirect_response=False)
    session = StudySession.objects.get(user=learner)
    assert (session.minutes, session.day, session.domain.slug) == (
        30,
        timezone.localdate(),
        "core-ml",
    )
    assert session.started_at is None


def test_time_typed_in_with_htmx_answers_the_section(learner_client):
    response = learner_client.post(record_url(), {"minutes": "45"}, **HTMX)
    assert response.status_code == 200
    assert "45 min studied for this phase" in section(response)


def bad_inputs():
    today = timezone.localdate()
    minutes = "Enter the minutes you studied as a whole number from 1 to 600."
    return [
        ({"minutes": "0"}, minutes),
        ({"minutes": "601"}, minutes),
        ({"minutes": "2.5"}, minutes),
        ({"minutes": ""}, minutes),
        ({"minutes": "9" * 5000}, minutes),
        (
            {"minutes": "30", "day": (today + datetime.timedelta(days=1)).isoformat()},
            "still to come",
        ),
        (
            {"minutes": "30", "day": (today - datetime.timedelta(days=3)).isoformat()},
            "before you signed up",
        ),
        ({"minutes": "30", "day": "yesterday"}, "Enter the day as a date"),
        ({"minutes": "30", "domain": "core-ml"}, "Choose one of this phase"),
    ]


@pytest.mark.parametrize(("data", "message"), bad_inputs())
def test_bad_time_is_refused_with_the_message_on_the_form_and_nothing_saved(
    learner_client, learner, data, message
):
    learner.date_joined = timezone.now() - datetime.timedelta(days=1)
    learner.save(update_fields=["date_joined"])
    slug = PHASE_FIVE if "domain" in data else PHASE_ONE
    response = learner_client.post(record_url(slug), data)
    assert response.status_code == 400
    errors = " ".join(p.text for p in with_tag(response.content, "p") if "field-error" in p.classes)
    assert message.replace("'", "’") in errors.replace("'", "’")
    assert not StudySession.objects.filter(user=learner).exists()
    # Nothing lost: the form comes back with what was typed.
    if data["minutes"] == "601":
        assertContains(response, 'value="601"', status_code=400)


def test_a_day_since_sign_up_is_accepted(learner_client, learner):
    learner.date_joined = timezone.now() - datetime.timedelta(days=5)
    learner.save(update_fields=["date_joined"])
    day = timezone.localdate() - datetime.timedelta(days=2)
    learner_client.post(record_url(), {"minutes": "600", "day": day.isoformat()})
    assert StudySession.objects.get(user=learner).day == day


def test_an_unknown_phase_is_a_404(learner_client):
    assert learner_client.post(record_url("no-such-phase"), {"minutes": "5"}).status_code == 404
    assert learner_client.post(start_url("no-such-phase")).status_code == 404


def test_study_time_needs_a_login(client, syllabus):
    for url in (start_url(), stop_url(), record_url(), STUDY_TIME):
        response = client.post(url) if url != STUDY_TIME else client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"]


# Hours against the plan


def test_without_a_plan_the_phase_says_there_is_nothing_to_compare_with(learner_client):
    assert "You have no plan yet" in section(learner_client.get(phase_url()))


def test_the_phase_shows_hours_studied_against_the_plan_s_hours_by_today(learner_client, learner):
    make_plan(learner, days_ago=3)
    session_of(learner, 50)
    content = syllabus()
    learner.refresh_from_db()
    schedule = schedule_for(learner.study_plan, content)
    expected = planned_minutes(schedule, content, timezone.localdate())[(1, "core-ml")]
    text = section(learner_client.get(phase_url()))
    assert expected > 0
    assert (
        f"50 min studied for this phase; your plan expected {duration(expected)} by today" in text
    )
    assert f"of {schedule.slots[0].hours} h in all" in text


def test_the_dashboard_sets_each_domain_s_share_of_the_hours_beside_its_exam_share(
    learner_client, learner
):
    session_of(learner, 45)
    session_of(learner, 15, phase_slug="experimentation", domain_slug="experimentation")
    response = learner_client.get(reverse("progress:dashboard"))
    rows = {row[0]: row[1:] for row in table_rows(response.content, "time-shares")}
    # Each meter's own text, then the figure.
    assert rows["Core Machine Learning and AI Knowledge"] == ["75% 75% (45 min)", "20% 20%"]
    assert rows["Experimentation"] == ["25% 25% (15 min)", "25% 25%"]
    assert rows["Trustworthy AI"][0] == "0% 0% (0 min)"
    assertContains(response, "The guide's rule of thumb: study time should follow exam weight.")
    # An hour logged: the domain furthest under its exam share is named.
    assertContains(response, "Multimodal Data has 0% of your hours against 15% of the exam")


def test_the_study_time_page_sets_hours_beside_the_plan_s_per_domain_and_phase(
    learner_client, learner
):
    make_plan(learner, days_ago=3)
    session_of(learner, 45)
    response = learner_client.get(STUDY_TIME)
    domains = {row[0]: row[1:] for row in table_rows(response.content, "time-domains")}
    assert domains["Core Machine Learning and AI Knowledge"][0] == "45 min"
    assert domains["Experimentation"][:2] == ["0 min", "0 min"]  # phase 2 has not begun
    phases = {row[0]: row[1:] for row in table_rows(response.content, "time-phases")}
    assert phases["1. Core ML foundations"][0] == "45 min"


def test_under_an_hour_logged_the_dashboard_names_no_domain(learner_client, learner):
    session_of(learner, 59)
    assertNotContains(learner_client.get(reverse("progress:dashboard")), "furthest under")


def test_another_learner_s_time_is_not_counted(learner_client, learner):
    session_of(UserFactory(), 300)
    assert "0 min studied" in section(learner_client.get(phase_url()))


# The learner's sessions


def test_the_sessions_are_listed_newest_first_without_the_running_timer(learner_client, learner):
    today = timezone.localdate()
    learner.date_joined = timezone.now() - datetime.timedelta(days=5)
    learner.save(update_fields=["date_joined"])
    session_of(learner, 20, day=today - datetime.timedelta(days=2))
    session_of(learner, 35, day=today)
    start_timer(user=learner, phase_slug="experimentation", now=timezone.now())
    rows = table_rows(learner_client.get(STUDY_TIME).content, "session-table")
    assert [row[3] for row in rows] == ["35 min", "20 min"]


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_session_is_corrected_on_its_own_page(learner_client, learner, headers):
    learner.date_joined = timezone.now() - datetime.timedelta(days=3)
    learner.save(update_fields=["date_joined"])
    session = session_of(learner, 30, phase_slug=PHASE_FIVE, domain_slug="data-analysis")
    url = reverse("progress:study-session", args=[session.pk])
    form = learner_client.get(url, **headers)
    assertContains(form, 'value="30"')
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    data = {"minutes": "75", "domain": "performance-optimization", "day": yesterday.isoformat()}
    response = learner_client.post(url, data, **headers)
    assertRedirects(response, STUDY_TIME, fetch_redirect_response=False)
    session.refresh_from_db()
    assert (session.minutes, session.domain.slug, session.day) == (
        75,
        "performance-optimization",
        yesterday,
    )
    assertContains(learner_client.get(STUDY_TIME, **headers), "1 h 15 min")


def test_a_bad_correction_is_refused_and_changes_nothing(learner_client, learner):
    session = session_of(learner, 30)
    url = reverse("progress:study-session", args=[session.pk])
    response = learner_client.post(url, {"minutes": "0"})
    assertContains(response, "from 1 to 600", status_code=400)
    assertContains(response, "Your correction was not saved", status_code=400)
    assertContains(response, 'value="0"', status_code=400)  # what was typed, kept to fix
    session.refresh_from_db()
    assert session.minutes == 30


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_deleting_asks_first_then_deletes(learner_client, learner, headers):
    session = session_of(learner, 30)
    url = reverse("progress:study-session-delete", args=[session.pk])
    confirm = learner_client.get(url, **headers)
    assertContains(confirm, "Delete this study session?")
    assert StudySession.objects.filter(pk=session.pk).exists()
    response = learner_client.post(url, **headers)
    assertRedirects(response, STUDY_TIME, fetch_redirect_response=False)
    assert not StudySession.objects.filter(pk=session.pk).exists()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_another_learner_s_session_is_a_404_and_stays(learner_client, headers):
    theirs = session_of(UserFactory(), 30)
    for name in ("progress:study-session", "progress:study-session-delete"):
        url = reverse(name, args=[theirs.pk])
        assert learner_client.get(url, **headers).status_code == 404
        assert learner_client.post(url, {"minutes": "1"}, **headers).status_code == 404
    theirs.refresh_from_db()
    assert theirs.minutes == 30


@pytest.mark.parametrize("key", ["0", "abc", "9" * 30, "1" * 5000, "-1"])
def test_a_session_number_that_is_no_session_is_a_404(learner_client, key):
    assert learner_client.get(f"/time/{key}/").status_code == 404
    assert learner_client.post(f"/time/{key}/delete/").status_code == 404


def test_a_running_timer_is_not_edited_as_a_session(learner_client, learner):
    session, _ = start_timer(user=learner, phase_slug=PHASE_ONE, now=timezone.now())
    assert (
        learner_client.get(reverse("progress:study-session", args=[session.pk])).status_code == 404
    )
