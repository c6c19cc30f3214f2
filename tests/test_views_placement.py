"""The placement and the plans it shapes, through their pages: 15 questions by exam weight in 15
minutes, judged on the server; strong domains shorten their phases on the plan page, which says
why; when too few days are left for any fitted plan, a short-notice plan, day by day."""

import datetime
from collections import Counter

import pytest
from django.urls import reverse
from django.utils import timezone
from pytest_django.asserts import assertRedirects

from phases.models import Intensity
from progress.models import Attempt, AttemptQuestion, StudyPlan
from progress.planning.services import save_plan
from tests.conftest import HTMX, days, today
from tests.factories import UserFactory, items_of, make_plan, mock_for, shown, wrong_option
from tests.html import element_by_id, page_text, table_rows, with_class

pytestmark = pytest.mark.django_db

PLACEMENT = reverse("progress:placement-start")
CHOOSE = reverse("progress:plan-choose")
PREVIEW = reverse("progress:plan-preview")
PLAN = reverse("progress:plan")
# 15 questions by exam weight: largest remainders first, ties in slug order.
PLACEMENT_15 = {
    "experimentation": 4,
    "core-ml": 3,
    "multimodal-data": 2,
    "software-development": 2,
    "data-analysis": 2,
    "performance-optimization": 1,
    "trustworthy-ai": 1,
}


def started(response) -> Attempt:
    assert response.status_code == 302
    attempt = Attempt.objects.get(pk=int(response.url.rstrip("/").split("/")[-1]))
    assertRedirects(
        response, reverse("progress:attempt", args=[attempt.pk]), fetch_redirect_response=False
    )
    return attempt


def hand_in(client, attempt: Attempt, *, right_in: set[str]) -> None:
    """Answer every question, right in the domains ``right_in``, wrong elsewhere; hand in."""
    for item in items_of(attempt):
        right = item.question.domain.slug in right_in
        indices = (
            item.question.correct_options
            if right
            else [wrong_option(item.question), *sorted(item.question.correct_options)[1:]]
        )
        url = reverse("progress:attempt-answer", args=[attempt.pk, item.position])
        client.post(url, {"option": shown(item, indices)})
    client.post(reverse("progress:attempt-submit", args=[attempt.pk]))


def choice(slug: str, start: datetime.date, exam: datetime.date | None, **extra) -> dict:
    return {
        "intensity": slug,
        "start_date": start.isoformat(),
        "exam_date": exam.isoformat() if exam else "",
        **extra,
    }


# The placement


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_the_placement_draws_fifteen_questions_by_exam_weight_timed_fifteen_minutes(
    learner_client, headers
):
    before = timezone.now()
    attempt = started(learner_client.post(PLACEMENT, **headers))

    assert attempt.placement and attempt.kind == Attempt.Kind.MOCK
    items = items_of(attempt)
    assert Counter(item.question.domain.slug for item in items) == PLACEMENT_15
    assert before + datetime.timedelta(minutes=15) <= attempt.deadline
    assert attempt.deadline - attempt.started_at == datetime.timedelta(minutes=15)
    page = learner_client.get(reverse("progress:attempt", args=[attempt.pk]))
    assert page_text(page.content).startswith("Placement: question 1")
    # Nothing on the page tells the right option: the server judges.
    assert b"option-correct" not in page.content
    assert b'class="explanation"' not in page.content  # a prompt may say "explanation"


def test_a_second_start_resumes_the_open_placement(learner_client):
    first = started(learner_client.post(PLACEMENT))
    again = started(learner_client.post(PLACEMENT))

    assert again.pk == first.pk
    assert Attempt.objects.filter(placement=True).count() == 1


def test_the_placement_is_a_post(learner_client):
    assert learner_client.get(PLACEMENT).status_code == 405
    assert not Attempt.objects.exists()


def test_an_open_mock_comes_first_and_the_learner_is_told(learner_client):
    mock = started(learner_client.post(reverse("progress:mock-start")))

    response = learner_client.post(PLACEMENT, follow=True)

    assert response.redirect_chain[0][0] == reverse("progress:attempt", args=[mock.pk])
    assert "Finish your open mock exam first" in page_text(response.content)
    assert not Attempt.objects.filter(placement=True).exists()


def test_handing_in_the_placement_shapes_the_plan_and_says_which_domains_are_strong(
    learner_client, learner
):
    make_plan(learner, exam_in=90)
    attempt = started(learner_client.post(PLACEMENT))

    hand_in(learner_client, attempt, right_in={"core-ml", "experimentation"})
    result = learner_client.get(reverse("progress:attempt-result", args=[attempt.pk]))

    (section,) = with_class(result.content, "placement-result")
    # Heaviest first, as every per-domain list.
    assert "Strong: Experimentation, Core Machine Learning and AI Knowledge." in section.text
    assert "every one of its placement questions right" in section.text
    plan = StudyPlan.objects.get(user=learner)
    assert plan.placement["core-ml"] == [3, 3]
    assert plan.placement["multimodal-data"] == [0, 2]


def test_strong_domains_shorten_their_phases_and_the_plan_says_why(learner_client, learner):
    make_plan(learner, exam_in=90)
    before = {row[0]: row[3] for row in table_rows(learner_client.get(PLAN).content)}
    hand_in(learner_client, started(learner_client.post(PLACEMENT)), right_in={"core-ml"})

    response = learner_client.get(PLAN)

    rows = {row[0].split(" h shorter")[0]: row for row in table_rows(response.content)}
    phase_one = next(row for title, row in rows.items() if title.startswith("1. Core ML"))
    assert phase_one[0].endswith(
        "3 h shorter: your placement showed you strong in "
        "Core Machine Learning and AI Knowledge (3 of 3 right)."
    )
    assert phase_one[3] == "3 h"
    assert before["1. Core ML foundations"] == "6 h"
    two = [row for title, row in rows.items() if title.startswith("2. ")][0]
    assert two[3] == before["2. Experimentation"]


def test_the_choose_page_offers_the_placement_to_any_learner_and_names_strong_domains(
    learner_client, learner
):
    response = learner_client.get(CHOOSE)
    (offer,) = with_class(response.content, "placement-offer")
    assert "Take a 15-minute placement" in offer.text
    assert "a rule of thumb" in offer.text

    hand_in(learner_client, started(learner_client.post(PLACEMENT)), right_in={"experimentation"})
    again = learner_client.get(CHOOSE)

    (offer,) = with_class(again.content, "placement-offer")
    assert "strong in Experimentation" in offer.text
    rows = table_rows(again.content, "preview-table")
    why = "shorter: your placement showed you strong in Experimentation (4 of 4 right)"
    assert why in rows[1][0]


def test_a_plan_saved_after_the_placement_keeps_its_results(learner_client, learner):
    hand_in(learner_client, started(learner_client.post(PLACEMENT)), right_in={"core-ml"})

    learner_client.post(CHOOSE, choice("standard", today(), None))

    assert StudyPlan.objects.get(user=learner).placement["core-ml"] == [3, 3]


def test_another_learners_placement_is_a_404(learner_client):
    other = UserFactory()
    make_plan(other)
    theirs = mock_for(other)
    theirs.placement = True
    theirs.save(update_fields=["placement"])

    for name in ("progress:attempt", "progress:attempt-result"):
        assert learner_client.get(reverse(name, args=[theirs.pk])).status_code == 404


# Short notice


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_two_days_before_the_exam_the_preview_offers_a_short_notice_plan(learner_client, headers):
    response = learner_client.post(
        PREVIEW, choice("fast-track", today(), today() + days(2)), **headers
    )

    assert response.status_code == 200
    (offer,) = with_class(response.content, "short-notice")
    assert "A short-notice plan: 2 days, day by day" in offer.text
    assert len(with_class(response.content, "day-card")) == 2
    assert "Save it and take the 15-minute placement" in offer.text
    text = element_by_id(response.content, "preview").text
    assert "2 days before your exam are too few" in text
    assert "move your exam date" not in text.lower()


def test_saving_the_short_notice_plan_starts_the_placement_then_the_plan_goes_day_by_day(
    learner_client, learner
):
    exam = today() + days(2)

    response = learner_client.post(
        f"{CHOOSE}?then=placement", choice("standard", today(), exam, fit="short")
    )

    attempt = started(response)
    assert attempt.placement
    plan = StudyPlan.objects.get(user=learner)
    assert (plan.short_notice, plan.fitted, plan.exam_date) == (True, False, exam)

    hand_in(learner_client, attempt, right_in={"core-ml", "data-analysis"})
    page = learner_client.get(PLAN)

    (lede,) = with_class(page.content, "short-notice-plan")
    assert "the 2 days from" in lede.text
    assert "the share of your placement's questions you missed" in lede.text
    day_cards = with_class(page.content, "day-card")
    assert len(day_cards) == 2
    # Experimentation, all missed (25), comes first; core ML, all right, last.
    assert "2. Experimentation" in day_cards[0].text
    assert "1. Core ML foundations" in day_cards[-1].text
    assert "too late" not in page_text(page.content)


def test_the_short_notice_plan_saved_without_a_placement_goes_by_exam_weight(
    learner_client, learner
):
    response = learner_client.post(
        CHOOSE, choice("standard", today(), today() + days(1), fit="short"), follow=True
    )

    assertRedirects(response, PLAN)
    assert "Your short-notice plan is saved" in page_text(response.content)
    (day,) = with_class(response.content, "day-card")
    assert "2. Experimentation" in day.text
    assert len(with_class(response.content, "placement-offer")) == 1


def test_a_short_notice_plan_is_refused_when_a_fitted_plan_can_work(learner_client, learner):
    response = learner_client.post(
        CHOOSE, choice("standard", today(), today() + days(9), fit="short")
    )

    assert response.status_code == 400
    assert "A plan fitted to your exam date still works" in page_text(response.content)
    assert not StudyPlan.objects.filter(user=learner).exists()


def test_a_short_notice_plan_with_the_exam_today_is_refused_with_a_message(learner_client, learner):
    response = learner_client.post(CHOOSE, choice("standard", today(), today(), fit="short"))

    assert response.status_code == 400
    assert "There is no day left before your exam to plan." in page_text(response.content)
    assert not StudyPlan.objects.filter(user=learner).exists()


def test_a_fit_value_that_is_no_choice_is_a_400(learner_client, learner):
    response = learner_client.post(
        CHOOSE, choice("standard", today(), today() + days(2), fit="shortish")
    )

    assert response.status_code == 400
    assert "short notice (short)" in page_text(response.content)
    assert not StudyPlan.objects.filter(user=learner).exists()


def test_a_short_notice_plan_runs_over_the_days_left_when_its_start_has_passed(
    learner_client, learner
):
    start, exam = today() - days(4), today() + days(2)

    response = learner_client.post(PREVIEW, choice("standard", start, exam), **HTMX)
    (offer,) = with_class(response.content, "short-notice")
    assert "A short-notice plan: 2 days, day by day" in offer.text
    learner_client.post(CHOOSE, choice("standard", start, exam, fit="short"))

    plan = StudyPlan.objects.get(user=learner)
    assert (plan.start_date, plan.short_notice) == (today(), True)
    assert len(with_class(learner_client.get(PLAN).content, "day-card")) == 2


def test_a_short_notice_plan_keeps_its_dates_when_the_intensity_changes(learner):
    start, exam = today() - days(1), today() + days(2)
    save_plan(
        user=learner,
        intensity=Intensity.objects.get(slug="standard"),
        start_date=start,
        exam_date=exam,
        today=today(),
        kind=StudyPlan.Kind.SHORT_NOTICE,
    )
    save_plan(
        user=learner,
        intensity=Intensity.objects.get(slug="fast-track"),
        start_date=start,
        exam_date=exam,
        today=today(),
        kind=StudyPlan.Kind.SHORT_NOTICE,
    )

    assert StudyPlan.objects.get(user=learner).start_date == start


def test_the_placements_answers_are_judged_on_the_server(learner_client, learner):
    attempt = started(learner_client.post(PLACEMENT))
    hand_in(learner_client, attempt, right_in=set(PLACEMENT_15))

    assert AttemptQuestion.objects.filter(attempt=attempt, is_correct=True).count() == 15
