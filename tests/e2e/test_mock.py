"""A shortened mock exam and a review in real Chromium: start to the per-domain result."""

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from phases.models import SelfCheck
from progress.models import Attempt, AttemptQuestion, CheckOff
from tests.factories import PASSWORD

MOCK_LENGTH = 5
COUNTDOWN = re.compile(r"^\d+:\d\d$")


@pytest.fixture
def short_mock(settings):
    # The live server runs in this process, so it reads the same settings object.
    settings.MOCK_QUESTIONS = MOCK_LENGTH
    settings.MOCK_MINUTES = 5


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Where you stand")


def main_nav(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name).click()


def current_item(page: Page, attempt: Attempt) -> AttemptQuestion:
    """The question on screen, read from the page's own eyebrow: "question N of 5"."""
    eyebrow = page.locator(".eyebrow").text_content()
    position = int(re.search(r"question (\d+) of", eyebrow).group(1))
    return AttemptQuestion.objects.select_related("question__domain").get(
        attempt=attempt, position=position
    )


def choose(page: Page, indexes: list[int]) -> None:
    for index in indexes:
        page.locator(f'input[name="option"][value="{index}"]').check()


def expect_countdown_ticking(page: Page) -> None:
    value = page.locator("#countdown-value")
    expect(value).to_have_text(COUNTDOWN)  # the script has taken over from the server's text
    shown = value.inner_text()
    expect(value).not_to_have_text(shown, timeout=2_500)
    expect(value).to_have_text(COUNTDOWN)


def test_a_short_mock_from_start_to_the_per_domain_result_and_history(
    page: Page, learner, short_mock
):
    log_in(page, learner.username)
    main_nav(page, "Practice")
    expect(page.get_by_role("heading", level=1)).to_have_text("Practice")
    expect(page.get_by_text(f"{MOCK_LENGTH} questions drawn by exam weight")).to_be_visible()

    page.get_by_role("button", name="Start a mock exam").click()
    expect(page.locator(".eyebrow")).to_contain_text(f"question 1 of {MOCK_LENGTH}")
    expect(page.get_by_role("timer")).to_contain_text("Time left")
    expect_countdown_ticking(page)
    attempt = Attempt.objects.get(user=learner)
    assert attempt.kind == Attempt.Kind.MOCK and attempt.questions.count() == MOCK_LENGTH

    missed = None
    for n in range(1, MOCK_LENGTH + 1):
        expect(page.locator(".eyebrow")).to_contain_text(f"question {n} of {MOCK_LENGTH}")
        item = current_item(page, attempt)
        correct = sorted(item.question.correct_options)
        boxes = page.locator('input[name="option"]')
        if len(correct) == 2:
            expect(page.get_by_text("Choose 2.")).to_be_visible()
            expect(boxes.first).to_have_attribute("type", "checkbox")
        else:
            expect(boxes.first).to_have_attribute("type", "radio")
        if n == 2:
            page.get_by_role("button", name="⚑ Flag to revisit").click()
            expect(page.get_by_role("button", name="Unflag this question")).to_be_visible()
            expect(page.get_by_role("link", name="Question 2, flagged")).to_be_visible()
        if n == 1:
            # One wrong answer: its domain (one question in a five-question mock) is the weakest.
            missed = item.question.domain.name
            wrong = next(i for i in range(len(item.question.options)) if i not in correct)
            choose(page, [wrong] if len(correct) == 1 else [wrong, correct[0]])
        else:
            choose(page, correct)
        label = "Save and next" if n < MOCK_LENGTH else "Save and review"
        page.get_by_role("button", name=label).click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Before you submit")
    expect_countdown_ticking(page)
    expect(page.get_by_text(f"{MOCK_LENGTH} questions: 0 unanswered, 1 flagged.")).to_be_visible()
    flagged = page.locator("section").filter(
        has=page.get_by_role("heading", name="Flagged to revisit")
    )
    expect(flagged.get_by_role("link")).to_have_text(["Question 2"])

    page.get_by_role("button", name="Submit the mock").click()

    expect(page.get_by_role("heading", level=1)).to_have_text(f"4 of {MOCK_LENGTH} right (80%)")
    expect(page.get_by_text(re.compile(f"of {MOCK_LENGTH} right"))).to_be_visible()
    expect(page.locator(".lede")).to_contain_text(f"Weakest domain in this attempt: {missed}")
    scores = page.locator("section").filter(
        has=page.get_by_role("heading", name="Score per domain")
    )
    rows = scores.locator("tbody tr")
    expect(rows).to_have_count(len({i.question.domain_id for i in attempt.questions.all()}))
    weakest = rows.filter(has=page.locator(".badge", has_text="Weakest"))
    expect(weakest).to_have_count(1)
    expect(weakest.get_by_role("rowheader")).to_contain_text(missed)
    expect(weakest.locator("td").first).to_have_text("0/1")
    attempt.refresh_from_db()
    assert attempt.submitted_at is not None

    page.get_by_role("link", name="All mocks").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your mock exams")
    history = page.locator("tbody tr")
    expect(history).to_have_count(1)
    expect(history.locator("td").first).to_have_text("80%")
    expect(history).to_contain_text(f"{missed} (0%)")
    expect(page.locator("svg polyline.line-overall")).to_have_count(1)


def test_reloading_the_mock_resumes_at_the_first_unanswered_question(
    page: Page, learner, short_mock
):
    log_in(page, learner.username)
    main_nav(page, "Practice")
    page.get_by_role("button", name="Start a mock exam").click()
    attempt = Attempt.objects.get(user=learner)
    item = current_item(page, attempt)
    choose(page, sorted(item.question.correct_options))
    page.get_by_role("button", name="Save and next").click()
    expect(page.locator(".eyebrow")).to_contain_text("question 2 of")

    page.goto("/practice/")
    page.get_by_role("link", name=re.compile("^Resume your mock")).click()

    expect(page.locator(".eyebrow")).to_contain_text(f"question 2 of {MOCK_LENGTH} · 1 answered")
    assert Attempt.objects.filter(user=learner).count() == 1


def test_when_time_runs_out_the_page_moves_to_the_result_by_itself(page: Page, learner, short_mock):
    log_in(page, learner.username)
    main_nav(page, "Practice")
    page.get_by_role("button", name="Start a mock exam").click()
    expect(page.locator(".eyebrow")).to_contain_text("question 1 of")
    attempt = Attempt.objects.get(user=learner)
    Attempt.objects.filter(pk=attempt.pk).update(
        deadline=timezone.now() + datetime.timedelta(seconds=3)
    )

    page.reload()
    expect(page.locator("#countdown-value")).to_have_text(re.compile(r"^0:0[0-3]$"))

    expect(page.get_by_role("heading", level=1)).to_have_text(f"0 of {MOCK_LENGTH} right (0%)")
    attempt.refresh_from_db()
    assert attempt.submitted_at == attempt.deadline


def test_the_nudge_to_flag_and_move_on_appears_after_ninety_seconds(
    page: Page, learner, short_mock
):
    log_in(page, learner.username)
    page.clock.install()
    main_nav(page, "Practice")
    page.get_by_role("button", name="Start a mock exam").click()
    expect(page.locator(".eyebrow")).to_contain_text("question 1 of")
    nudge = page.locator("#nudge")
    expect(nudge).to_be_attached()
    expect(nudge).to_be_hidden()
    # mock.js is deferred: wait until it has run (it rewrites the countdown as m:ss), so its
    # 90-second timer exists before the fake clock moves.
    expect(page.locator("#countdown-value")).to_have_text(re.compile(r"^\d+:\d\d$"))

    page.clock.run_for(89_000)
    expect(nudge).to_be_hidden()
    page.clock.run_for(2_000)

    expect(nudge).to_be_visible()
    expect(nudge).to_contain_text("flag it and move on")


CHECK = "p1-backprop"


def test_review_a_due_check_reveal_and_knew_it_empties_todays_queue(page: Page, learner):
    check = SelfCheck.objects.get(slug=CHECK)
    log_in(page, learner.username)
    page.goto(f"/study/{check.phase.slug}/")
    row = page.locator(f"#check-{CHECK}")
    row.get_by_role("button", name=re.compile("^Mark done:")).click()
    expect(row.get_by_role("button", name=re.compile("^Done:"))).to_be_visible()
    row.get_by_role("button", name="Shaky").click()
    expect(row.get_by_role("button", name="Shaky")).to_have_attribute("aria-pressed", "true")
    tick = CheckOff.objects.get(user=learner, self_check=check)
    assert (tick.confidence, tick.box) == ("shaky", 0)
    CheckOff.objects.filter(pk=tick.pk).update(due_on=timezone.localdate())

    page.reload()
    main_nav(page, "Review today (1)")
    expect(page.get_by_role("heading", level=1)).to_have_text("Review")
    card = page.locator("#review-card")
    expect(card.get_by_role("heading")).to_have_text("Review today: 1 left")
    expect(card.get_by_text(check.prompt)).to_be_visible()
    answer = card.get_by_text(check.answer)
    expect(answer).to_be_hidden()
    page.evaluate("window.__noReload = 1")

    card.get_by_text("Reveal the reference answer").click()
    expect(answer).to_be_visible()
    card.get_by_role("button", name="Knew it").click()

    expect(card.get_by_role("heading")).to_have_text("Nothing to review today")
    assert page.evaluate("window.__noReload") == 1  # swapped in place by htmx
    tick.refresh_from_db()
    assert tick.box == 1
    assert tick.due_on == timezone.localdate() + datetime.timedelta(days=3)


def test_review_without_javascript_knew_it_reloads_to_an_empty_queue(
    page_without_js: Page, learner
):
    page = page_without_js
    check = SelfCheck.objects.get(slug=CHECK)
    log_in(page, learner.username)
    page.goto(f"/study/{check.phase.slug}/")
    page.locator(f"#check-{CHECK}").get_by_role("button", name=re.compile("^Mark done:")).click()
    CheckOff.objects.filter(user=learner).update(due_on=timezone.localdate())

    page.goto("/review/")
    card = page.locator("#review-card")
    expect(card.get_by_text(check.prompt)).to_be_visible()
    card.get_by_role("button", name="Didn't").click()

    expect(page).to_have_url(re.compile(r"/review/$"))
    expect(card.get_by_role("heading")).to_have_text("Nothing to review today")
    tick = CheckOff.objects.get(user=learner)
    assert (tick.box, tick.confidence) == (0, "shaky")
    assert tick.due_on == timezone.localdate() + datetime.timedelta(days=1)
