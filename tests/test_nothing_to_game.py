"""The verdict cannot be bought without knowledge: any fixed pattern of option values scores
about chance (the values are places in the attempt's own shuffle), ten early reviews of every
card buy no recall, and a mock that ran out of time is named where it drags a domain down."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from phases.models import Domain, SelfCheck
from progress.models import Attempt, AttemptQuestion, CheckOff
from progress.verdicts.figures import learner_state
from tests.factories import make_plan, tick
from tests.html import page_text

pytestmark = pytest.mark.django_db

SCORE = re.compile(r"(\d+) of (\d+) right")


def pattern_values(item: AttemptQuestion, pattern: str) -> list[str]:
    """What a learner who never reads the question sends: the lowest value(s), the highest, or
    the first shown, as many as the question asks for."""
    places = list(range(1, len(item.order) + 1))
    wanted = len(item.question.correct_options)
    if pattern == "highest":
        places.reverse()
    return [str(place) for place in sorted(places[:wanted])]


def sit(client, attempt: Attempt, pattern: str) -> tuple[int, int]:
    for item in AttemptQuestion.objects.filter(attempt=attempt).select_related("question"):
        response = client.post(
            reverse("progress:attempt-answer", args=[attempt.pk, item.position]),
            {"option": pattern_values(item, pattern)},
        )
        assert response.status_code == 302
    client.post(reverse("progress:attempt-submit", args=[attempt.pk]))
    result = client.get(reverse("progress:attempt-result", args=[attempt.pk]))
    right, total = SCORE.search(page_text(result.content)).groups()
    return int(right), int(total)


@pytest.mark.parametrize("pattern", ["lowest", "highest", "first shown"])
def test_a_whole_mock_answered_by_a_fixed_value_pattern_scores_about_chance(
    learner_client, learner, pattern
):
    right = total = 0
    for _ in range(2):
        learner_client.post(reverse("progress:mock-start"))
        mock = Attempt.objects.filter(user=learner, submitted_at__isnull=True).get()
        got, asked = sit(learner_client, mock, pattern)
        right, total = right + got, total + asked

    # Chance is about a quarter (four options; one in six for "choose two"). Half is far out of
    # reach of luck over 120 answers (under one in a million) and far below knowing them all.
    assert total == 120
    assert right / total < 0.5, (right, total)


@pytest.mark.parametrize("pattern", ["lowest", "highest"])
def test_a_drill_of_every_domain_answered_by_a_fixed_value_pattern_scores_about_chance(
    learner_client, learner, pattern
):
    right = total = 0
    for domain in Domain.objects.all():
        learner_client.post(reverse("progress:drill-start"), {"domain": domain.slug})
        drill = Attempt.objects.filter(user=learner, kind=Attempt.Kind.DRILL).latest("pk")
        got, asked = sit(learner_client, drill, pattern)
        right, total = right + got, total + asked

    assert total == 70
    assert right / total < 0.5, (right, total)


def weighted_recall(learner) -> float:
    return learner_state(learner, today=timezone.localdate()).report.weighted_recall


def test_ten_early_reviews_of_every_card_move_predicted_recall_by_less_than_a_point(
    learner_client, learner
):
    make_plan(learner, exam_in=30)
    slugs = list(SelfCheck.objects.current().values_list("slug", flat=True))
    tick(learner, *slugs)
    before = weighted_recall(learner)

    statuses = set()
    for _ in range(10):
        for slug in slugs:
            response = learner_client.post(
                reverse("progress:review-answer", args=[slug]), {"rating": "4"}
            )
            statuses.add(response.status_code)

    assert statuses == {409}
    assert abs(weighted_recall(learner) - before) < 0.01
    assert set(CheckOff.objects.filter(user=learner).values_list("reviews", flat=True)) == {1}


def test_a_mock_that_timed_out_is_named_where_it_drags_a_domain_down(
    learner_client, learner, settings
):
    make_plan(learner)
    learner_client.post(reverse("progress:mock-start"))
    mock = Attempt.objects.get(user=learner)
    items = list(AttemptQuestion.objects.filter(attempt=mock).select_related("question"))
    for item in items[:5]:
        learner_client.post(
            reverse("progress:attempt-answer", args=[mock.pk, item.position]),
            {"option": pattern_values(item, "lowest")},
        )
    Attempt.objects.filter(pk=mock.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=settings.MOCK_MINUTES + 1),
        deadline=timezone.now() - datetime.timedelta(minutes=1),
    )

    result = learner_client.get(reverse("progress:attempt-result", args=[mock.pk]))
    assert "Time is up: your answers were handed in." in page_text(result.content)
    dashboard = page_text(learner_client.get(reverse("progress:dashboard")).content)

    assert re.search(r"\d+ of them skipped in your mock of \d+ \w+, counted as wrong", dashboard)
