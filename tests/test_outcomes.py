"""Outcomes: the learner records how the exam went, kept with what the app said as the exam day
ended; theirs to change, export and delete; counted in the public figures only when they opt in,
and the public page shows nothing from fewer than 10 learners or a cell under 5."""

import datetime

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from progress.accounts import reminders
from progress.accounts.export import export_learner
from progress.memory.ticks import set_done
from progress.models import CheckOff, ExamOutcome, Profile
from progress.outcomes.figures import MIN_CELL, MIN_LEARNERS, public_figures
from progress.outcomes.services import record_outcome, said
from tests.conftest import today
from tests.factories import UserFactory, make_plan
from tests.html import page_text, with_class

pytestmark = pytest.mark.django_db

OUTCOME = reverse("progress:outcome")
DELETE = reverse("progress:outcome-delete")
ACCOUNT = reverse("progress:account")
DASHBOARD = reverse("progress:dashboard")
HOW_WELL = reverse("progress:how-well")


def days_ago(n: int) -> datetime.date:
    return today() - datetime.timedelta(days=n)


def test_the_day_after_the_exam_the_learner_is_asked_records_sees_exports_and_deletes(
    learner_client, learner
):
    make_plan(learner, days_ago=40, exam_in=-1)
    dashboard = learner_client.get(DASHBOARD)
    (ask,) = with_class(dashboard.content, "outcome-ask")
    assert "How did your exam go?" in ask.text

    form = learner_client.get(OUTCOME)
    assert f'value="{days_ago(1).isoformat()}"' in form.text  # the exam date, prefilled
    response = learner_client.post(
        OUTCOME,
        {"sat_on": days_ago(1).isoformat(), "passed": "yes", "score_core-ml": "74"},
        follow=True,
    )

    text = page_text(response.content)
    assert "Your result is recorded. It is not counted in the public figures" in text
    assert f"Sat on {days_ago(1):%a} {days_ago(1).day} {days_ago(1):%b %Y}: passed" in text
    assert "this app said not ready yet" in text
    outcome = ExamOutcome.objects.get(user=learner)
    assert (outcome.passed, outcome.domain_scores, outcome.counted) == (
        True,
        {"core-ml": 74},
        False,
    )
    assert with_class(learner_client.get(DASHBOARD).content, "outcome-ask") == []
    (exported,) = export_learner(learner, now=timezone.now())["exam_outcome"]
    assert exported["domain_scores"] == {"core-ml": 74}
    assert exported["said"]["as_of"] == days_ago(1).isoformat()

    learner_client.post(DELETE)
    assert not ExamOutcome.objects.filter(user=learner).exists()
    assert "Record my result" in page_text(learner_client.get(ACCOUNT).content)


def test_what_the_app_said_is_as_of_the_exam_day_not_the_day_of_recording(learner):
    make_plan(learner, days_ago=40, exam_in=-5)
    exam = days_ago(5)
    before = timezone.now() - datetime.timedelta(days=8)
    set_done(user=learner, self_check_id=_check("p1-backprop"), done=True, now=before)
    set_done(
        user=learner, self_check_id=_check("p1-validation-vs-test"), done=True, now=timezone.now()
    )

    figures = said(learner, exam)

    assert CheckOff.objects.filter(user=learner).count() == 2
    core = figures["domains"]["core-ml"]
    assert core["covered"] == pytest.approx(1 / 6, abs=1e-4)  # one tick by then, of six
    assert figures["ready"] is False
    assert figures["as_of"] == exam.isoformat()


def _check(slug: str) -> int:
    from phases.models import SelfCheck

    return SelfCheck.objects.get(slug=slug).pk


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"sat_on": (today() + datetime.timedelta(days=1)).isoformat()}, "has not come yet"),
        ({"passed": ""}, "Say whether you passed."),
        ({"passed": "maybe"}, "Say whether you passed: yes or no."),
        ({"score_core-ml": "101"}, "Enter a whole percent, 0 to 100, or leave it empty."),
        ({"sat_on": "yesterday"}, "Enter the day as a date"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_saves_nothing(
    learner_client, learner, fields, message
):
    data = {"sat_on": days_ago(1).isoformat(), "passed": "no"} | fields

    response = learner_client.post(OUTCOME, data)

    assert response.status_code == 400
    assert message in page_text(response.content)
    assert not ExamOutcome.objects.filter(user=learner).exists()


# The public page, with generated learners


def generated(ready: bool, passed: bool, *, counted: bool = True, score: int | None = None):
    user = UserFactory()
    domains = {"core-ml": {"accuracy_range": [60, 80]}}
    return ExamOutcome.objects.create(
        user=user,
        sat_on=days_ago(3),
        passed=passed,
        domain_scores={"core-ml": score} if score is not None else {},
        counted=counted,
        said={"ready": ready, "recall": 0.9 if passed else 0.6, "domains": domains},
        recorded_at=timezone.now(),
        updated_at=timezone.now(),
    )


def test_below_the_floor_the_public_page_says_not_enough_results_yet(client, syllabus):
    for _ in range(MIN_LEARNERS - 1):
        generated(True, True)
    for _ in range(5):
        generated(True, False, counted=False)  # not opted in: counts nowhere

    text = page_text(client.get(HOW_WELL).content)

    assert "Not enough results yet: fewer than 10 learners have counted theirs." in text
    assert "Pass rate" not in text


def test_above_the_floor_the_right_counts_and_no_cell_under_five(client, syllabus):
    for _ in range(6):
        generated(True, True, score=75)
    for _ in range(4):
        generated(True, False, score=50)  # a cell under 5: not shown
    for _ in range(5):
        generated(False, True, score=90)
    for _ in range(5):
        generated(False, False)
    generated(False, False, counted=False, score=10)

    response = client.get(HOW_WELL)

    text = page_text(response.content)
    assert "20 learners counted their result." in text
    rows = {row[0]: row[1:] for row in _rows(response.content, "outcome-cells")}
    assert rows["Ready to book"] == ["6", "not enough results yet", "not enough results yet"]
    assert rows["Not ready yet"][:2] == ["5", "5"]
    assert rows["Not ready yet"][2].startswith("50% (80% range ")
    # Recall: 11 passed (mean 90%), 9 did not: fewer than 10, not shown.
    assert "90% among those who passed" in text
    assert "not enough results yet among those who did not" in text
    domains = {row[0]: row[1:] for row in _rows(response.content, "outcome-domains")}
    # 15 score reports for Core ML, six inside the app's 60-80% range and nine outside: shown.
    core = domains["Core Machine Learning and AI Knowledge"]
    assert core == ["15", "73%", "70%", "6 of 15"]
    assert all(
        row == ["not enough results yet"] for name, row in domains.items() if name != core_name()
    )


def core_name() -> str:
    return "Core Machine Learning and AI Knowledge"


def _rows(html: bytes, css_class: str) -> list[list[str]]:
    from tests.html import table_rows

    return table_rows(html, css_class)


def test_the_figures_hide_a_cell_under_five_even_when_the_total_is_large():
    rows = [({"ready": True}, True, {})] * 30 + [({"ready": True}, False, {})] * 4
    figures = public_figures(rows, [])

    assert figures.enough
    assert figures.cell(True, True) == 30
    assert figures.cell(True, False) is None
    assert not figures.ready.shown
    assert MIN_CELL == 5


def test_one_mail_asks_the_day_after_the_exam(syllabus):
    learner = UserFactory()
    EmailAddress.objects.create(user=learner, email=learner.email, primary=True, verified=True)
    make_plan(learner, days_ago=30, exam_in=-1)
    unconfirmed = UserFactory()
    make_plan(unconfirmed, days_ago=30, exam_in=-1)

    def run():
        return [
            reminders.send_outcome_ask(user=user, now=timezone.now())
            for user in reminders.learners_to_ask_outcome(today())
        ]

    (message,) = run()
    assert message.subject == "NCA-GENM: how did your exam go?"
    assert message.to == [learner.email]
    assert "Record your result: http" in message.body
    assert run() == []  # the only one
    assert len(mail.outbox) == 1
    assert Profile.objects.get(user=learner).outcome_asked_on == today()


def test_a_learner_who_recorded_is_not_asked(syllabus):
    learner = UserFactory()
    EmailAddress.objects.create(user=learner, email=learner.email, primary=True, verified=True)
    make_plan(learner, days_ago=30, exam_in=-2)
    record_outcome(
        user=learner,
        sat_on=days_ago(2),
        passed=False,
        domain_scores={},
        counted=False,
        now=timezone.now(),
    )

    assert list(reminders.learners_to_ask_outcome(today())) == []


def test_staff_see_the_public_figures_above_the_outcomes_in_the_admin(client, syllabus):
    staff = UserFactory(is_staff=True, is_superuser=True)
    for _ in range(6):
        generated(True, True)
    for _ in range(5):
        generated(True, False)
    client.force_login(staff)

    page = page_text(client.get(reverse("admin:progress_examoutcome_changelist")).content)

    assert "11 learners counted their result. Ready to book: passed 6 of 11" in page
