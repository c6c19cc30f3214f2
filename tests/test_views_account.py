"""The account page: a learner's data is theirs to take away (JSON export) and to delete."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from progress.models import Attempt, AttemptQuestion, CheckOff, StudyPlan
from tests.factories import PASSWORD, UserFactory, make_plan, mock_for, practise, tick

pytestmark = pytest.mark.django_db

EXPORT = reverse("progress:account-export")
DELETE = reverse("progress:account-delete")


@pytest.fixture
def two_learners(syllabus):
    me, other = UserFactory(), UserFactory()
    make_plan(me, intensity="standard", exam_in=40)
    make_plan(other, intensity="extended")
    tick(me, "p1-backprop", "p2-fid-direction")
    tick(other, "p3-clip-training", "p4-sdk-verbs", "p1-backprop")
    for learner in (me, other):
        practise(learner, "core-ml", right=2, wrong=1)
        mock_for(learner)
    return me, other


def test_the_account_page_offers_export_and_deletion(learner_client):
    page = learner_client.get(reverse("progress:account"))
    assert page.status_code == 200
    assert "Download my data (JSON)" in page.text
    assert "Delete my account and data" in page.text


def test_export_holds_my_plan_and_ticks_and_nobody_elses(client, two_learners):
    me, other = two_learners
    client.force_login(me)
    response = client.get(EXPORT)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["account"]["username"] == me.username
    assert data["plan"]["intensity"] == "standard"
    assert data["plan"]["exam_date"] == me.study_plan.exam_date.isoformat()
    assert sorted(t["self_check"] for t in data["ticks"]) == ["p1-backprop", "p2-fid-direction"]
    assert all(t["done_at"] for t in data["ticks"])
    assert other.username not in response.text
    assert "p3-clip-training" not in response.text


def test_export_without_a_plan_or_ticks_is_still_complete(learner_client, learner):
    data = learner_client.get(EXPORT).json()
    assert data["account"]["username"] == learner.username
    assert data["plan"] is None
    assert data["ticks"] == []


def test_deleting_needs_a_post(learner_client):
    assert learner_client.get(DELETE).status_code == 405


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"password": "not-my-password", "confirm": "on"}, "That is not your password"),
        ({"password": PASSWORD}, "Tick the box to confirm"),
        ({}, "This field is required."),
    ],
)
def test_deletion_without_confirmation_deletes_nothing(client, two_learners, form, message):
    me, _ = two_learners
    client.force_login(me)
    response = client.post(DELETE, form)

    assert response.status_code == 400
    assert message in response.text
    assert get_user_model().objects.filter(pk=me.pk).exists()
    assert CheckOff.objects.filter(user=me).count() == 2
    assert StudyPlan.objects.filter(user=me).exists()
    assert Attempt.objects.filter(user=me).count() == 2


def test_deleting_my_account_leaves_none_of_my_rows_and_all_of_theirs(client, two_learners):
    me, other = two_learners
    client.force_login(me)
    response = client.post(DELETE, {"password": PASSWORD, "confirm": "on"}, follow=True)

    assert response.redirect_chain[-1][0] == reverse("phases:home")
    assert "have been deleted" in response.text
    assert not get_user_model().objects.filter(pk=me.pk).exists()
    assert not CheckOff.objects.filter(user_id=me.pk).exists()
    assert not StudyPlan.objects.filter(user_id=me.pk).exists()
    assert not Attempt.objects.filter(user_id=me.pk).exists()
    assert not AttemptQuestion.objects.filter(attempt__user_id=me.pk).exists()
    assert CheckOff.objects.filter(user=other).count() == 3
    assert StudyPlan.objects.filter(user=other).exists()
    assert Attempt.objects.filter(user=other).count() == 2
    # And the session is over.
    assert client.get(reverse("progress:dashboard")).status_code == 302
