"""The dashboard is cached per learner; it must never show a figure older than their last act."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from phases.models import SelfCheck
from progress import services
from progress.views import CSRF_HOLE
from tests.factories import UserFactory, make_plan, tick

pytestmark = pytest.mark.django_db

DASHBOARD = reverse("progress:dashboard")


def weighted(response) -> str:
    return re.search(r'class="big-figure">(\d+)%', response.text).group(1)


def test_a_tick_shows_on_the_next_dashboard(learner_client, learner):
    make_plan(learner)
    assert weighted(learner_client.get(DASHBOARD)) == "0"

    learner_client.post(
        reverse("progress:selfcheck-toggle", args=["p1-backprop"]),
        {"done": "1"},
        HTTP_HX_REQUEST="true",
    )
    after_tick = learner_client.get(DASHBOARD)
    assert weighted(after_tick) == "3"  # 1 of 6 core-ml checks x 20% = 3.3%
    assert "1 of 42 self-checks done" in after_tick.text

    learner_client.post(reverse("progress:selfcheck-toggle", args=["p1-backprop"]), {"done": "0"})
    assert weighted(learner_client.get(DASHBOARD)) == "0"


def test_a_tick_written_elsewhere_retires_the_cached_page(learner_client, learner):
    # Another server process shares only the database: the version read with the user is what
    # tells this process its copy is stale.
    make_plan(learner)
    learner_client.get(DASHBOARD)
    services.set_done(
        user=learner, self_check_id=SelfCheck.objects.get(slug="p2-fid-direction").pk, done=True
    )
    assert "1 of 42 self-checks done" in learner_client.get(DASHBOARD).text


def test_changing_the_plan_shows_on_the_next_dashboard(learner_client, learner):
    make_plan(learner, intensity="standard")
    assert "Standard schedule" in learner_client.get(DASHBOARD).text

    learner_client.post(
        reverse("progress:plan-choose"),
        {"intensity": "extended", "start_date": learner.study_plan.start_date.isoformat()},
    )
    assert "Extended schedule" in learner_client.get(DASHBOARD).text


def test_each_request_gets_its_own_working_csrf_token(learner):
    make_plan(learner)
    tick(learner, "p1-backprop")
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.force_login(learner)
    second.force_login(learner)
    first.get(DASHBOARD)  # fills the cache
    page = second.get(DASHBOARD)  # served from it

    assert CSRF_HOLE not in page.text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    header_token = re.search(r'"x-csrftoken": "([^"]+)"', page.text).group(1)
    assert token == header_token
    logout = second.post(reverse("logout"), {"csrfmiddlewaretoken": token})
    assert logout.status_code == 302


def test_one_learners_cached_page_is_never_served_to_another(learner_client, learner):
    make_plan(learner)
    tick(learner, "p1-backprop", "p1-multimodal-loss")
    learner_client.get(DASHBOARD)
    other = UserFactory()
    make_plan(other)
    other_client = Client()
    other_client.force_login(other)
    assert "0 of 42 self-checks done" in other_client.get(DASHBOARD).text


def test_a_page_with_a_message_is_not_kept(learner_client, learner):
    learner_client.post(
        reverse("progress:plan-choose"),
        {"intensity": "standard", "start_date": timezone.localdate().isoformat()},
    )
    # The success message shows once, on the next page that renders messages.
    assert "Your schedule is saved." in learner_client.get(DASHBOARD).text
    assert "Your schedule is saved." not in learner_client.get(DASHBOARD).text
