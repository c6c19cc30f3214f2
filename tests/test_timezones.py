"""Each learner's own time zone: "today", review days, the plan's phase, the dashboard's cache
day and the mock's deadline follow it; it is set at sign-up and on the account page.

The clock is frozen at chosen instants (``django.utils.timezone.now``, which ``localdate()``,
``localtime()`` and every view read), so the date line falls where each test needs it.
"""

import datetime
import zoneinfo

import pytest
from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from phases import content as syllabus_content
from phases.models import Intensity, Phase
from phases.schedule import lay_out
from progress.accounts.forms import TimeZoneForm, time_zone_choices
from progress.accounts.time_zone import set_time_zone
from progress.models import CheckOff, Profile, StudyPlan
from progress.planning.services import save_plan
from progress.timezones import zone_names
from tests.factories import PASSWORD, UserFactory, answer_from_memory
from tests.html import element_by_id, elements, page_text, with_class, with_tag

pytestmark = pytest.mark.django_db

AUCKLAND = "Pacific/Auckland"
LOS_ANGELES = "America/Los_Angeles"
UTC = datetime.UTC

# Two instants on 15-16 January 2026 (Auckland on NZDT, UTC+13; Los Angeles on PST, UTC-8).
# At both, Auckland's date is 16 January and Los Angeles's 15 January; UTC's is the 15th at the
# first and the 16th at the second, so a server counting days in UTC is wrong for one of them.
AUCKLAND_TODAY = datetime.date(2026, 1, 16)
LOS_ANGELES_TODAY = datetime.date(2026, 1, 15)
INSTANTS = [
    pytest.param(datetime.datetime(2026, 1, 15, 12, 0, tzinfo=UTC), id="utc-15-jan-noon"),
    pytest.param(datetime.datetime(2026, 1, 16, 3, 0, tzinfo=UTC), id="utc-16-jan-3am"),
]

ACCOUNT = reverse("progress:account")
TIME_ZONE = reverse("progress:account-time-zone")
DASHBOARD = reverse("progress:dashboard")
REVIEW = reverse("progress:review")


@pytest.fixture
def freeze(monkeypatch):
    """Stop the clock at ``instant`` for the app and the test alike."""

    def at(instant: datetime.datetime) -> None:
        monkeypatch.setattr(timezone, "now", lambda: instant)

    return at


def learner_in(zone: str | None):
    user = UserFactory()
    if zone is not None:
        set_time_zone(user=user, time_zone=zone)
    return user


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def phase_one_ends_on(last_day: datetime.date) -> datetime.date:
    """The start date that makes a standard plan's phase 1 end on ``last_day``."""
    standard = Intensity.objects.get(slug="standard")
    content = syllabus_content.syllabus()
    slots = lay_out(content.phase_hours["standard"], standard.hours_per_week, last_day).slots
    return last_day - datetime.timedelta(days=slots[0].days - 1)


def plan_with_phase_one_ending(user, last_day: datetime.date) -> StudyPlan:
    return save_plan(
        user=user,
        intensity=Intensity.objects.get(slug="standard"),
        start_date=phase_one_ends_on(last_day),
        exam_date=None,
        today=last_day,
    )


def today_in_plan(response) -> str:
    """The dashboard's "Today in your plan" box."""
    return " ".join(element.text for element in with_class(response.content, "today-phase"))


# Across the date line


@pytest.mark.parametrize("instant", INSTANTS)
def test_auckland_and_los_angeles_learners_are_in_different_phases_at_the_same_instant(
    syllabus, freeze, instant
):
    freeze(instant)
    auckland, los_angeles = learner_in(AUCKLAND), learner_in(LOS_ANGELES)
    # The same plan for both: phase 1 ends on 15 January, phase 2 starts on the 16th.
    for user in (auckland, los_angeles):
        plan_with_phase_one_ending(user, LOS_ANGELES_TODAY)
    phase_two = Phase.objects.get(number=2)

    in_auckland = client_for(auckland).get(DASHBOARD)
    in_los_angeles = client_for(los_angeles).get(DASHBOARD)

    assert "the calendar has you in phase 2 today" in page_text(in_auckland.content)
    assert f"Phase 2: {phase_two.title}" in today_in_plan(in_auckland)
    assert "the calendar has you in phase 1 today" in page_text(in_los_angeles.content)
    assert today_in_plan(in_los_angeles).startswith("Today in your plan About 2 hours: phase 1,")


@pytest.mark.parametrize("instant", INSTANTS)
def test_a_review_due_on_the_16th_is_due_in_auckland_and_not_yet_in_los_angeles(
    syllabus, freeze, instant
):
    freeze(instant)
    auckland, los_angeles = learner_in(AUCKLAND), learner_in(LOS_ANGELES)
    # One moment for both: 22:00 on the 16th in Auckland, 01:00 on the 16th in Los Angeles.
    due = datetime.datetime(2026, 1, 16, 9, 0, tzinfo=UTC)
    clients = {user: client_for(user) for user in (auckland, los_angeles)}
    for user, client in clients.items():
        # Ticked through the learner's own request: the tick is the card's first review, and
        # fixes the learner's review day in their own zone (progress.memory.review_days).
        assert answer_from_memory(client, "p1-backprop").status_code == 302
        CheckOff.objects.filter(user=user).update(due=due)
    assert Profile.objects.get(user=auckland).review_day == AUCKLAND_TODAY
    assert Profile.objects.get(user=los_angeles).review_day == LOS_ANGELES_TODAY

    in_auckland = clients[auckland].get(REVIEW)
    in_los_angeles = clients[los_angeles].get(REVIEW)

    assert element_by_id(in_auckland.content, "review-heading").text == "Review today: 1 left"
    assert element_by_id(in_auckland.content, "header-review").text == "Review today (1)"
    assert element_by_id(in_los_angeles.content, "review-heading").text == (
        "Nothing to review today"
    )
    assert element_by_id(in_los_angeles.content, "header-review").text == "Review today (0)"


def test_the_start_date_offered_for_a_new_plan_is_the_learners_today(syllabus, freeze):
    freeze(INSTANTS[0].values[0])
    for zone, today in ((AUCKLAND, AUCKLAND_TODAY), (LOS_ANGELES, LOS_ANGELES_TODAY)):
        page = client_for(learner_in(zone)).get(reverse("progress:plan-choose"))
        assert f'name="start_date" value="{today.isoformat()}"' in page.text


def test_a_learner_without_a_profile_or_with_an_unknown_zone_sees_the_sites_days(syllabus, freeze):
    instant = INSTANTS[1].values[0]  # the 16th in UTC and Auckland, the 15th in Los Angeles
    freeze(instant)
    no_profile = learner_in(None)
    unknown = learner_in(None)
    Profile.objects.create(user=unknown, time_zone="Mars/Olympus_Mons")
    for user in (no_profile, unknown):
        plan_with_phase_one_ending(user, LOS_ANGELES_TODAY)

        page = client_for(user).get(DASHBOARD)

        assert page.status_code == 200
        # The site's zone is UTC, where it is already the 16th: phase 2.
        assert settings.TIME_ZONE == "UTC"
        assert "the calendar has you in phase 2 today" in page_text(page.content)


def test_no_learners_zone_outlives_their_request(learner, learner_client):
    set_time_zone(user=learner, time_zone=AUCKLAND)

    assert learner_client.get(ACCOUNT).status_code == 200

    assert timezone.get_current_timezone_name() == settings.TIME_ZONE


# The mock's deadline


def test_the_mock_deadline_is_shown_in_the_learners_time(syllabus, freeze):
    instant = datetime.datetime(2026, 1, 15, 20, 10, tzinfo=UTC)
    freeze(instant)
    client = client_for(learner_in("Asia/Kolkata"))
    deadline = (instant + datetime.timedelta(minutes=settings.MOCK_MINUTES)).astimezone(
        zoneinfo.ZoneInfo("Asia/Kolkata")
    )
    in_utc = (instant + datetime.timedelta(minutes=settings.MOCK_MINUTES)).strftime("%H:%M")
    assert deadline.strftime("%H:%M") != in_utc

    attempt_page = client.post(reverse("progress:mock-start"), follow=True)
    practice_page = client.get(reverse("progress:practice"))

    assert f"(ends at {deadline:%H:%M})" in page_text(attempt_page.content)
    assert f"(ends {deadline:%H:%M})" in page_text(practice_page.content)
    assert f"ends at {in_utc}" not in page_text(attempt_page.content)


# Sign-up


def sign_up(client: Client, **extra: str):
    data = {"username": "ravi", "password1": PASSWORD, "password2": PASSWORD, **extra}
    return client.post(reverse("account_signup"), data)


def test_signup_stores_the_zone_the_browser_proposed(client, syllabus):
    response = sign_up(client, time_zone="Asia/Kolkata")

    assert response.status_code == 302
    assert Profile.objects.get(user__username="ravi").time_zone == "Asia/Kolkata"


@pytest.mark.parametrize("sent", [None, "", "Mars/Olympus_Mons", "Asia/Kolkata\x00", "x" * 5000])
def test_signup_without_a_zone_we_know_uses_the_sites_and_still_signs_up(client, syllabus, sent):
    response = sign_up(client, **({} if sent is None else {"time_zone": sent}))

    assert response.status_code == 302
    assert Profile.objects.get(user__username="ravi").time_zone == ""


def test_the_signup_form_asks_the_browser_for_its_zone_without_an_inline_script(client, syllabus):
    page = client.get(reverse("account_signup"))

    field = next(
        el for el in with_tag(page.content, "input") if el.attrs.get("name") == "time_zone"
    )
    assert field.attrs.get("type") == "hidden" and "data-browser-time-zone" in field.attrs
    scripts = [
        el
        for el in with_tag(page.content, "script")
        if "timezone.js" in (el.attrs.get("src") or "")
    ]
    assert len(scripts) == 1
    assert all(el.attrs.get("src") for el in with_tag(page.content, "script"))


# The account page


def zone_options(response) -> list[tuple[str, bool]]:
    select = next(
        el for el in with_tag(response.content, "select") if el.attrs["name"] == "time_zone"
    )
    return [(option.attrs["value"] or "", "selected" in option.attrs) for option in select.children]


def test_the_account_page_lists_every_zone_sorted_with_the_learners_selected(client, syllabus):
    client.force_login(learner_in(AUCKLAND))

    options = zone_options(client.get(ACCOUNT))

    names = [value for value, _ in options if value]
    assert names == sorted(names) == list(zone_names())
    assert {AUCKLAND, LOS_ANGELES, "Asia/Kolkata", "UTC"} <= set(names)
    assert [value for value, selected in options if selected] == [AUCKLAND]


def test_changing_the_zone_on_the_account_page_moves_today(syllabus, freeze):
    freeze(INSTANTS[0].values[0])
    user = learner_in(LOS_ANGELES)
    plan_with_phase_one_ending(user, LOS_ANGELES_TODAY)
    client = client_for(user)
    assert "the calendar has you in phase 1 today" in page_text(client.get(DASHBOARD).content)

    response = client.post(TIME_ZONE, {"time_zone": AUCKLAND})

    assert response.status_code == 302 and response["Location"] == ACCOUNT
    assert Profile.objects.get(user=user).time_zone == AUCKLAND
    # The account page's clock is the real one ({% now %} reads no frozen clock).
    before = datetime.datetime.now(zoneinfo.ZoneInfo(AUCKLAND))
    account = page_text(client.get(ACCOUNT).content)
    after = datetime.datetime.now(zoneinfo.ZoneInfo(AUCKLAND))
    assert f"Your time zone is now {AUCKLAND}." in account
    assert any(
        f"there it is {at:%H:%M} on {at:%A} {at.day} {at:%B}" in account for at in (before, after)
    )
    assert "the calendar has you in phase 2 today" in page_text(client.get(DASHBOARD).content)


@pytest.mark.parametrize(
    ("data", "initial"),
    [(None, {"time_zone": AUCKLAND}), (None, {}), ({"time_zone": "Mars/Olympus_Mons"}, None)],
)
def test_the_zone_select_is_the_one_django_would_render(data, initial):
    # TimeZoneSelect builds its options once per process; the page must not tell the difference.
    class DjangosOwn(forms.Form):
        time_zone = forms.ChoiceField(
            label="Your time zone", required=False, choices=time_zone_choices()
        )

    def outline(form) -> list[tuple[str, dict, str]]:
        return [
            (el.tag, el.attrs, el.text if el.tag == "option" else "")
            for el in elements(str(form["time_zone"]))
        ]

    ours, theirs = TimeZoneForm(data, initial=initial), DjangosOwn(data, initial=initial)
    if data is not None:
        assert not ours.is_valid() and not theirs.is_valid()
    assert outline(ours) == outline(theirs)
    assert len(elements(str(ours["time_zone"]))) == len(zone_names()) + 2


def test_a_learner_without_a_profile_can_choose_a_zone(client, syllabus):
    user = learner_in(None)
    client.force_login(user)

    assert client.post(TIME_ZONE, {"time_zone": "Asia/Kolkata"}).status_code == 302

    assert Profile.objects.get(user=user).time_zone == "Asia/Kolkata"


def test_choosing_the_sites_zone_again_clears_the_learners(client, syllabus):
    user = learner_in(AUCKLAND)
    client.force_login(user)

    response = client.post(TIME_ZONE, {"time_zone": ""}, follow=True)

    assert Profile.objects.get(user=user).time_zone == ""
    assert "Your time zone is now the site's." in page_text(response.content)


@pytest.mark.parametrize(
    "sent",
    ["Mars/Olympus_Mons", "pacific/auckland", "localtime", "Asia/Kolkata\x00", "x" * 5000],
)
def test_a_zone_name_we_do_not_know_is_refused_and_changes_nothing(client, syllabus, sent):
    user = learner_in(AUCKLAND)
    plan_with_phase_one_ending(user, timezone.localdate())
    client.force_login(user)

    response = client.post(TIME_ZONE, {"time_zone": sent})

    assert response.status_code == 400
    text = page_text(response.content)
    assert "That is not a time zone we know" in text
    assert "Your time zone was not changed." in text
    assert f"shown in {AUCKLAND} time" in text
    assert Profile.objects.get(user=user).time_zone == AUCKLAND


def test_a_post_without_the_field_chooses_the_sites_zone(client, syllabus):
    # An absent field is the empty choice, the first in the list, never a crash.
    user = learner_in(AUCKLAND)
    client.force_login(user)

    assert client.post(TIME_ZONE, {}).status_code == 302
    assert Profile.objects.get(user=user).time_zone == ""


def test_the_time_zone_form_needs_a_login_and_a_post(client, syllabus):
    assert client.post(TIME_ZONE, {"time_zone": AUCKLAND})["Location"].startswith(
        reverse("account_login")
    )
    client.force_login(learner_in(None))
    assert client.get(TIME_ZONE).status_code == 405


# Queries


def user_queries(queries: CaptureQueriesContext) -> list[str]:
    table = get_user_model()._meta.db_table
    return [q["sql"] for q in queries.captured_queries if f'"{table}"."id"' in q["sql"]]


@pytest.mark.parametrize("url", [DASHBOARD, REVIEW, ACCOUNT, reverse("progress:practice")])
def test_the_zone_costs_no_query_the_profile_comes_with_the_user(syllabus, url):
    with_zone, without = learner_in(AUCKLAND), learner_in(None)
    counts = {}
    for user in (with_zone, without):
        plan_with_phase_one_ending(user, timezone.localdate())
        client = client_for(user)
        client.get(url)  # the syllabus snapshot is built on a first visit
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        loads = user_queries(queries)
        assert len(loads) == 1, loads
        assert Profile._meta.db_table in loads[0]
        counts[user.pk] = len(queries)
    assert counts[with_zone.pk] == counts[without.pk]
