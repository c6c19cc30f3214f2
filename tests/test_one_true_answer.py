"""One true answer: the dashboard's one next action, words that match their numbers, mocks told
straight (right, answered, skipped; one weakest-domain rule), and the smaller points a new
learner met, each through real HTTP on the real syllabus."""

import datetime
import random
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from phases.models import Domain
from progress.models import Attempt, AttemptQuestion, StudySession
from progress.planning import placement
from progress.practice import scoring, services
from progress.verdicts.figures import rules
from tests.conftest import HTMX
from tests.factories import make_plan, practise, shown, tick, wrong_option
from tests.html import element_by_id, page_text, table_rows, with_class

DASHBOARD = reverse("progress:dashboard")


def primary_buttons(html: bytes) -> list[str]:
    """The words of every primary (not quiet, not small) button or button-styled link."""
    return [
        element.text
        for element in with_class(html, "button")
        if "button-quiet" not in element.classes and "button-small" not in element.classes
    ]


def mock_for(learner, *, seed: int = 3) -> Attempt:
    return services.start_mock(user=learner, now=timezone.now(), rng=random.Random(seed))


def answer_right(learner, mock: Attempt, items: list[AttemptQuestion]) -> None:
    for item in items:
        services.answer(
            user=learner,
            attempt=mock,
            item=item,
            chosen=sorted(item.question.correct_options),
            now=timezone.now(),
        )


def answer_wrong(learner, mock: Attempt, items: list[AttemptQuestion]) -> None:
    for item in items:
        services.answer(
            user=learner,
            attempt=mock,
            item=item,
            chosen=[wrong_option(item.question)],
            now=timezone.now(),
        )


def items_of(mock: Attempt) -> list[AttemptQuestion]:
    return list(mock.questions.select_related("question__domain").order_by("position"))


# One next action


def test_the_placement_draws_too_few_of_any_domain_for_an_accuracy_verdict(syllabus):
    weights = dict(Domain.objects.values_list("slug", "exam_weight"))
    counts = scoring.mock_counts(weights, placement.QUESTIONS, dict.fromkeys(weights, 1000))

    assert max(counts.values()) < rules().min_answers


def test_a_placement_all_wrong_names_no_domain_by_accuracy(learner_client, learner):
    make_plan(learner)
    placed = services.start_mock(
        user=learner, now=timezone.now(), rng=random.Random(1), is_placement=True
    )
    answer_wrong(learner, placed, items_of(placed))
    services.submit(user=learner, attempt=placed, now=timezone.now())

    response = learner_client.get(DASHBOARD)

    accuracy = [row[4] for row in table_rows(response.content, "domain-table")]
    assert not any("likely under" in cell for cell in accuracy)
    assert all("too few answers to tell yet" in cell for cell in accuracy if "right" in cell)
    assert "Lagging domain" not in page_text(response.content)


@pytest.mark.parametrize("moment", ["day one", "after a placement", "after a partial mock"])
def test_the_dashboard_offers_exactly_one_primary_action(learner_client, learner, moment):
    make_plan(learner)
    if moment == "after a placement":
        placed = services.start_mock(
            user=learner, now=timezone.now(), rng=random.Random(1), is_placement=True
        )
        answer_wrong(learner, placed, items_of(placed)[:1])
        services.submit(user=learner, attempt=placed, now=timezone.now())
    if moment == "after a partial mock":
        mock = mock_for(learner)
        answer_right(learner, mock, items_of(mock)[:11])
        services.submit(user=learner, attempt=mock, now=timezone.now())

    response = learner_client.get(DASHBOARD)

    assert len(primary_buttons(response.content)) == 1
    (action,) = with_class(response.content, "next-action")
    assert action.text  # the verdict's one action
    focus = element_by_id(response.content, "focus-heading")
    assert focus.text  # the card beside it explains, with no button of its own
    card_text = page_text(response.content).split(focus.text, 1)[1].split("Domains by exam", 1)[0]
    assert "Drill " not in card_text and "Study next" not in card_text


# Words that match their numbers


def test_covered_says_it_is_weighted_by_exam_share_with_the_plain_count_beside_it(
    learner_client, learner
):
    make_plan(learner)
    tick(learner, "p1-residual-gradient-flow")

    text = page_text(learner_client.get(DASHBOARD).content)

    assert re.search(r"\d+% covered, weighted by exam share \(1 of \d+ self-checks done\)", text)


def test_a_settling_verdict_names_the_estimated_rate_it_uses(learner_client, learner):
    make_plan(learner)
    # 10 of 12 right: a plain rate of 83%, an estimated rate of 11/14, 79% (the posterior mean).
    practise(learner, "core-ml", right=10, wrong=2)

    text = page_text(learner_client.get(DASHBOARD).content)

    assert "10 of 12 right: 80% range" in text
    assert "at your estimated rate, 79%, would settle it as likely at least 70%" in text


# Mocks told straight


def test_a_partial_mock_is_right_answered_skipped_per_domain_and_its_reason_says_skipped(
    learner_client, learner
):
    make_plan(learner)
    mock = mock_for(learner)
    items = items_of(mock)
    answer_right(learner, mock, items[:11])
    services.submit(user=learner, attempt=mock, now=timezone.now())

    result = learner_client.get(reverse("progress:attempt-result", args=[mock.pk]))
    dashboard = page_text(learner_client.get(DASHBOARD).content)

    rows = {row[0].split(" Weakest")[0]: row for row in table_rows(result.content)}
    for domain in Domain.objects.all():
        asked = [item for item in items if item.question.domain_id == domain.pk]
        answered = [item for item in asked if item in items[:11]]
        right, answered_text, skipped = rows[domain.name][1:4]
        assert (int(right), int(answered_text), int(skipped)) == (
            len(answered),
            len(answered),
            len(asked) - len(answered),
        )
    day = timezone.localdate()
    assert re.search(rf"\d+ of them skipped in your mock of {day.day} {day:%b}", dashboard)


@pytest.mark.parametrize("how", ["all right", "all wrong", "partial", "timed out"])
def test_a_result_never_says_what_its_table_contradicts(learner_client, learner, how):
    mock = mock_for(learner)
    items = items_of(mock)
    if how == "all right":
        answer_right(learner, mock, items)
    elif how == "all wrong":
        answer_wrong(learner, mock, items)
    elif how == "partial":
        answer_right(learner, mock, items[:11])
    if how == "timed out":
        answer_right(learner, mock, items[:20])
        Attempt.objects.filter(pk=mock.pk).update(
            deadline=timezone.now() - datetime.timedelta(seconds=1)
        )
    else:
        services.submit(user=learner, attempt=mock, now=timezone.now())

    result = learner_client.get(reverse("progress:attempt-result", args=[mock.pk]))

    (lede,) = with_class(result.content, "lede")
    rows = table_rows(result.content)
    bar = rules().accurate_percent
    under = [
        row[0]
        for row in rows
        if "too few questions" not in row[5] and int(re.search(r"–(\d+)%", row[5]).group(1)) < bar
    ]
    weakest = [row[0] for row in rows if row[0].endswith("Weakest")]
    if under:
        assert len(weakest) == 1
        assert lede.text.startswith(f"Weakest domain: {weakest[0].removesuffix(' Weakest')}")
    else:
        assert weakest == []
        assert lede.text.startswith(f"No domain is likely under the {bar}% bar")
    history = learner_client.get(reverse("progress:practice-history"))
    (row,) = table_rows(history.content)
    assert row[3] == (f"{weakest[0].removesuffix(' Weakest')}" if weakest else "—") or row[
        3
    ].startswith(weakest[0].removesuffix(" Weakest"))
    dots = with_class(history.content, "dot-weakest")
    assert len(dots) == (1 if weakest else 0)


def test_handing_in_a_mostly_blank_mock_asks_first(learner_client, learner):
    mock = mock_for(learner)
    answer_right(learner, mock, items_of(mock)[:5])
    submit = reverse("progress:attempt-submit", args=[mock.pk])

    asked = learner_client.post(submit)
    page = learner_client.get(reverse("progress:attempt-flagged", args=[mock.pk]))
    handed_in = learner_client.post(submit, {"confirmed": "1"})

    assert asked.url == reverse("progress:attempt-flagged", args=[mock.pk])
    assert "More than half of this mock is unanswered" in page_text(page.content)
    assert "Hand in with 55 unanswered" in page_text(page.content)
    assert handed_in.url == reverse("progress:attempt-result", args=[mock.pk])
    mock.refresh_from_db()
    assert mock.submitted_at is not None


# Choose two, over HTTP (the browser's side: tests/e2e/test_choose_two.py)


def choose_two(mock: Attempt) -> AttemptQuestion:
    return next(item for item in items_of(mock) if len(item.question.correct_options) == 2)


def test_a_first_tick_of_a_choose_two_is_kept_as_unanswered_and_shown_again(
    learner_client, learner
):
    mock = mock_for(learner)
    item = choose_two(mock)
    first = sorted(item.question.correct_options)[:1]
    url = reverse("progress:attempt-answer", args=[mock.pk, item.position])

    saved = learner_client.post(url, {"option": shown(item, first), "autosave": "1"}, **HTMX)
    page = learner_client.get(reverse("progress:attempt", args=[mock.pk]), {"q": item.position})

    assert saved.status_code == 200
    assert "Kept as unanswered" in saved.text
    item.refresh_from_db()
    assert (item.chosen, item.answered_at, item.is_correct) == (first, None, None)
    assert f'value="{shown(item, first)[0]}" checked' in page.text
    assert "qnav-partial" in page.text


def test_a_third_tick_is_refused_in_place_and_changes_nothing(learner_client, learner):
    mock = mock_for(learner)
    item = choose_two(mock)
    url = reverse("progress:attempt-answer", args=[mock.pk, item.position])
    three = [*item.question.correct_options, wrong_option(item.question)]

    refused = learner_client.post(url, {"option": shown(item, three), "autosave": "1"}, **HTMX)

    assert refused.status_code == 422
    assert "<html" not in refused.text
    assert "choose exactly 2. Nothing was changed." in refused.text
    item.refresh_from_db()
    assert item.chosen is None and item.answered_at is None


# The smaller points


def test_a_timer_stopped_within_half_a_minute_records_nothing(learner_client, learner):
    phase = "core-ml-foundations"
    learner_client.post(reverse("progress:timer-start", args=[phase]))

    stopped = learner_client.post(
        reverse("progress:timer-stop", args=[phase]), {"domain": "core-ml"}, follow=True
    )

    assert "under half a minute, so no time was recorded" in page_text(stopped.content)
    assert not StudySession.objects.filter(user=learner).exists()


def test_the_running_timer_is_polled_by_its_own_line_not_the_page(learner_client, learner):
    phase = "core-ml-foundations"
    learner_client.post(reverse("progress:timer-start", args=[phase]))
    status = reverse("progress:timer-status", args=[phase])

    page = learner_client.get(reverse("progress:phase", args=[phase]))
    line = learner_client.get(status, **HTMX)
    StudySession.objects.filter(user=learner).delete()
    stopped = learner_client.get(status, **HTMX)

    assert f'hx-get="{status}"' in page.text
    assert line.status_code == 200 and "Studying since" in line.text
    assert len(line.content) < 2_000 < len(page.content)
    assert stopped.status_code == 286  # htmx stops polling


def test_the_activity_calendar_outlines_the_days_before_sign_up(learner_client, learner):
    make_plan(learner)

    response = learner_client.get(DASHBOARD)

    before = [cell for cell in with_class(response.content, "before") if cell.tag == "rect"]
    assert len(before) > 7 * 10  # a new learner's twelve weeks are not an empty box
    assert "before you signed up" in page_text(response.content)


def test_a_short_notice_day_never_asks_more_than_its_hours(learner_client, learner):
    today = timezone.localdate()
    response = learner_client.get(
        reverse("progress:plan-preview"),
        {
            "intensity": "standard",
            "start_date": today.isoformat(),
            "exam_date": (today + datetime.timedelta(days=4)).isoformat(),
        },
    )

    days = with_class(response.content, "day-card")
    assert days
    for day in days:
        hours = [int(h) for h in re.findall(r": (\d+) h", day.text)]
        assert sum(hours) <= 3, day.text


def test_smaller_words(client, learner_client, learner):
    home = page_text(client.get(reverse("phases:home")).content)
    review = page_text(learner_client.get(reverse("progress:review")).content)
    phase = learner_client.get(reverse("progress:phase", args=["core-ml-foundations"]))

    assert "ordered by exam weight" not in home
    assert "one you said “Not yet” to with the phase page's Got it, Shaky or Not yet" in review
    assert 'href="#checks-heading"' in phase.text  # the self-checks, one jump away


def test_a_right_answer_is_not_marked_like_a_wrong_one(learner_client, learner):
    drill = services.start_drill(
        user=learner,
        domain=Domain.objects.get(slug="core-ml"),
        now=timezone.now(),
        rng=random.Random(2),
    )
    item = items_of(drill)[0]
    learner_client.post(
        reverse("progress:attempt-answer", args=[drill.pk, item.position]),
        {"option": shown(item, sorted(item.question.correct_options))},
    )

    page = learner_client.get(reverse("progress:attempt", args=[drill.pk]), {"q": 1})

    (yours,) = [b for b in with_class(page.content, "badge") if b.text == "Your answer"]
    assert "badge-behind" not in yours.classes
