"""A shortened mock exam in real Chromium, from start to the per-domain result, and the rules
that keep an open mock's key unseen: no drill while it is open, unanswered counted as wrong."""

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from progress.models import Attempt, AttemptQuestion
from tests.e2e.steps import log_in, main_nav

MOCK_LENGTH = 5
COUNTDOWN = re.compile(r"^\d+:\d\d$")
SCORE_NIL = re.compile(r"(^|\s)0%$")  # a score cell: a meter (with its own fallback text), 0%
# The range the true accuracy lies in with 80% odds, from a domain with too few questions in the
# attempt to be judged either way.
UNJUDGED = re.compile(r"^80% range \d+–\d+% too few questions here to judge$")
NO_WEAKEST = "No domain is likely under the 70% bar on this attempt alone"


@pytest.fixture
def short_mock(settings):
    # The live server runs in this process, so it reads the same settings object.
    settings.MOCK_QUESTIONS = MOCK_LENGTH
    settings.MOCK_MINUTES = 5


def open_practice(page: Page) -> None:
    main_nav(page, "Practice")
    expect(page.get_by_role("heading", level=1)).to_have_text("Practice")


def start_mock(page: Page) -> None:
    open_practice(page)
    page.get_by_role("button", name="Start a mock exam").click()
    expect(page.locator(".eyebrow")).to_contain_text(f"question 1 of {MOCK_LENGTH}")
    # The page's scripts (the keys, the countdown) have run: a key pressed before then is a
    # browser's plain key press, as for a learner whose page is still loading.
    page.wait_for_load_state("load")


def current_item(page: Page, attempt: Attempt) -> AttemptQuestion:
    """The question on screen, read from the page's own eyebrow: "question N of 5"."""
    eyebrow = page.locator(".eyebrow").text_content() or ""
    position = int(re.search(r"question (\d+) of", eyebrow).group(1))
    return AttemptQuestion.objects.select_related("question__domain").get(
        attempt=attempt, position=position
    )


def right_answer(item: AttemptQuestion) -> list[int]:
    return sorted(item.question.correct_options)


def wrong_answer(item: AttemptQuestion) -> list[int]:
    correct = right_answer(item)
    wrong = next(i for i in range(len(item.question.options)) if i not in correct)
    return [wrong] if len(correct) == 1 else [wrong, correct[0]]


def box(page: Page, item: AttemptQuestion, index: int):
    """The box of a stored option: its value is its place in the attempt's order, from 1."""
    return page.locator(f'input[name="option"][value="{item.order.index(index) + 1}"]')


def choose(page: Page, item: AttemptQuestion, indexes: list[int]) -> None:
    for index in indexes:
        box(page, item, index).check()


def expect_countdown_ticking(page: Page) -> None:
    value = page.locator("#countdown-value")
    expect(value).to_have_text(COUNTDOWN)  # the script has taken over from the server's text
    shown = value.inner_text()
    expect(value).not_to_have_text(shown, timeout=2_500)
    expect(value).to_have_text(COUNTDOWN)


def section(page: Page, heading: str):
    return page.locator("section").filter(has=page.get_by_role("heading", name=heading))


def test_a_short_mock_from_start_to_the_per_domain_result_and_history(
    page: Page, learner, short_mock
):
    log_in(page, learner.username)
    open_practice(page)
    expect(page.get_by_text(f"{MOCK_LENGTH} questions drawn by exam weight")).to_be_visible()

    page.get_by_role("button", name="Start a mock exam").click()
    expect(page.locator(".eyebrow")).to_contain_text(f"question 1 of {MOCK_LENGTH}")
    # The page's scripts (the keys, the countdown) have run: a key pressed before then is a
    # browser's plain key press, as for a learner whose page is still loading.
    page.wait_for_load_state("load")
    expect(page.get_by_role("timer")).to_contain_text("Time left")
    expect_countdown_ticking(page)
    attempt = Attempt.objects.get(user=learner)
    assert attempt.kind == Attempt.Kind.MOCK and attempt.questions.count() == MOCK_LENGTH

    missed = None
    for n in range(1, MOCK_LENGTH + 1):
        expect(page.locator(".eyebrow")).to_contain_text(f"question {n} of {MOCK_LENGTH}")
        item = current_item(page, attempt)
        boxes = page.locator('input[name="option"]')
        if len(right_answer(item)) == 2:
            expect(page.get_by_text("Choose 2.")).to_be_visible()
            expect(boxes.first).to_have_attribute("type", "checkbox")
        else:
            expect(boxes.first).to_have_attribute("type", "radio")
        if n == 2:
            # Flagging is a button of the answer's own form: the choice made first is kept.
            choose(page, item, right_answer(item))
            page.get_by_role("button", name="⚑ Save and flag to revisit").click()
            expect(page.get_by_role("button", name="Save and unflag")).to_be_visible()
            expect(page.get_by_role("link", name="Question 2, answered, flagged")).to_be_visible()
            for index in right_answer(item):
                expect(box(page, item, index)).to_be_checked()
            # After "Save and next" focus is on the next question's first option.
        if n == 1:
            # One wrong answer: its domain (one question in a five-question mock) is the weakest.
            missed = item.question.domain.name
            choose(page, item, wrong_answer(item))
        else:
            choose(page, item, right_answer(item))
        label = "Save and next" if n < MOCK_LENGTH else "Save and review"
        page.get_by_role("button", name=label).click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Before you submit")
    expect_countdown_ticking(page)
    expect(page.get_by_text(f"{MOCK_LENGTH} questions: 0 unanswered, 1 flagged.")).to_be_visible()
    expect(section(page, "Flagged to revisit").get_by_role("link")).to_have_text(["Question 2"])

    page.get_by_role("button", name="Submit the mock").click()

    expect(page.get_by_role("heading", level=1)).to_have_text(f"4 of {MOCK_LENGTH} right (80%)")
    expect(page.locator(".result-counts")).to_have_text("4 right 1 wrong")
    # One wrong answer in a domain asked once says little: no domain is judged on under 10 of
    # its questions, on the result as on the dashboard, and the lede says so.
    expect(page.locator(".lede")).to_contain_text(NO_WEAKEST)
    rows = section(page, "Score per domain").locator("tbody tr")
    expect(rows).to_have_count(len({i.question.domain_id for i in attempt.questions.all()}))
    expect(rows.filter(has=page.locator(".badge", has_text="Weakest"))).to_have_count(0)
    missed_row = rows.filter(has=page.get_by_role("rowheader", name=missed))
    expect(missed_row.locator("td")).to_have_text(["0", "1", "0", SCORE_NIL, UNJUDGED])
    attempt.refresh_from_db()
    assert attempt.submitted_at is not None

    page.get_by_role("link", name="All drills and mocks").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your drills and mocks")
    history = page.locator("tbody tr")
    expect(history).to_have_count(1)
    expect(history.get_by_role("rowheader")).to_contain_text("Timed mock exam")
    expect(history.locator("td").first).to_have_text("80%")
    expect(history.locator("td").nth(2)).to_have_text("—")  # no weakest domain to name
    expect(page.locator("svg polyline.line-overall")).to_have_count(1)
    expect(page.locator("svg circle.dot-weakest")).to_have_count(0)


def test_an_open_mock_refuses_drills_resumes_with_its_answers_and_counts_skipped_as_wrong(
    page: Page, learner, short_mock
):
    log_in(page, learner.username)
    start_mock(page)
    mock = Attempt.objects.get(user=learner)
    first = current_item(page, mock)
    choose(page, first, right_answer(first))
    page.get_by_role("button", name="Save and next").click()
    expect(page.locator(".eyebrow")).to_contain_text(f"question 2 of {MOCK_LENGTH} · 1 answered")

    # A drill now would show keys of the live mock's questions: refused, with the way back.
    page.goto("/practice/")
    page.get_by_label("Domain", exact=True).select_option(first.question.domain.slug)
    with page.expect_response(re.compile(r"/practice/drill/$")) as refused:
        page.get_by_role("button", name="Start the drill").click()
    assert refused.value.status == 409
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("Your mock exam is under way")
    assert Attempt.objects.filter(user=learner).count() == 1
    refusal.get_by_role("link", name="Back to your mock").click()

    expect(page).to_have_url(re.compile(rf"/practice/{mock.pk}/$"))
    expect(page.locator(".eyebrow")).to_contain_text(f"question 2 of {MOCK_LENGTH} · 1 answered")
    page.get_by_role("link", name="Question 1, answered").click()
    for index in right_answer(first):
        expect(box(page, first, index)).to_be_checked()
    page.get_by_role("link", name="Question 2, unanswered", exact=True).click()
    second = current_item(page, mock)
    choose(page, second, wrong_answer(second))
    page.get_by_role("button", name="Save and see flagged").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Before you submit")
    expect(page.get_by_text(f"{MOCK_LENGTH} questions: 3 unanswered, 0 flagged.")).to_be_visible()
    # More than half unanswered: the page asks first, with the way to discard it instead.
    expect(page.get_by_role("alert")).to_contain_text("More than half of this mock is unanswered")
    expect(
        page.get_by_role("button", name="Discard this mock (it will count nowhere)")
    ).to_be_visible()
    page.get_by_role("button", name="Hand in with 3 unanswered").click()

    # Three of five never answered: each scores as wrong, and is shown apart from the wrong one.
    expect(page.get_by_role("heading", level=1)).to_have_text(f"1 of {MOCK_LENGTH} right (20%)")
    expect(page.locator(".result-counts")).to_have_text(
        "1 right 1 wrong 3 skipped, counted as wrong"
    )
    answers = page.locator(".result-item")
    expect(answers.locator(".badge", has_text="Skipped")).to_have_count(3)
    expect(answers.locator(".badge", has_text="Wrong")).to_have_count(1)
    expect(page.locator(".lede")).to_contain_text(NO_WEAKEST)
    skipped = AttemptQuestion.objects.filter(attempt=mock, answered_at__isnull=True)
    skipped_domain = skipped.select_related("question__domain").first().question.domain.name
    skipped_row = (
        section(page, "Score per domain")
        .locator("tbody tr")
        .filter(has=page.get_by_role("rowheader", name=skipped_domain))
    )
    expect(skipped_row.locator("td")).to_have_text(["0", "0", "1", SCORE_NIL, UNJUDGED])

    # Closed, the mock counts: its skipped questions as wrong answers in the accuracy table.
    open_practice(page)
    accuracy_row = (
        section(page, "Covered and accurate, per domain")
        .locator("tbody tr")
        .filter(has=page.get_by_role("rowheader", name=skipped_domain))
    )
    expect(accuracy_row.locator("td").nth(1)).to_contain_text("0 of 1 right: 80% range 5–68%")

    # With the mock handed in, a drill starts.
    page.get_by_label("Domain", exact=True).select_option("core-ml")
    page.get_by_role("button", name="Start the drill").click()
    expect(page.locator(".eyebrow")).to_contain_text("question 1 of 10 · 0 answered")
    drill = Attempt.objects.get(user=learner, kind=Attempt.Kind.DRILL)
    answered = []
    for n in range(1, 4):
        item = current_item(page, drill)
        answered.append(item.question.prompt)
        choose(page, item, right_answer(item) if n != 2 else wrong_answer(item))
        page.get_by_role("button", name="Check my answer").click()
        expect(page.locator(".feedback")).to_have_text("Not quite." if n == 2 else "Right.")
        if n < 3:
            page.get_by_role("link", name="Next question").click()
            expect(page.locator(".eyebrow")).to_contain_text(
                f"question {n + 1} of 10 · {n} answered"
            )

    # The drill is finished early from its own page.
    page.get_by_role("button", name="Finish the drill now (3 answered)").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("2 of 3 right (67%)")
    expect(page.get_by_text("7 questions you did not answer are left out")).to_be_visible()
    shown = page.locator(".result-item")
    expect(shown).to_have_count(3)
    for prompt in answered:
        expect(shown.filter(has_text=prompt)).to_have_count(1)
    unseen = AttemptQuestion.objects.filter(attempt=drill, answered_at__isnull=True)
    html = page.content()
    for item in unseen.select_related("question"):
        assert item.question.prompt not in html
        assert item.question.explanation not in html

    page.get_by_role("link", name="All drills and mocks").click()
    history = page.locator("tbody tr")
    expect(history).to_have_count(2)
    expect(history.get_by_role("rowheader")).to_contain_text(
        ["Domain drill: Core ML", "Timed mock exam"]
    )
    for kind, label in (("drill", "Domain drill"), ("mock", "Timed mock exam")):
        page.get_by_label("Show").select_option(kind)
        page.get_by_role("button", name="Show").click()
        expect(page).to_have_url(re.compile(rf"\?kind={kind}$"))
        expect(history).to_have_count(1)
        expect(history.get_by_role("rowheader")).to_contain_text(label)


def test_reloading_the_mock_resumes_at_the_first_unanswered_question(
    page: Page, learner, short_mock
):
    log_in(page, learner.username)
    start_mock(page)
    attempt = Attempt.objects.get(user=learner)
    item = current_item(page, attempt)
    choose(page, item, right_answer(item))
    page.get_by_role("button", name="Save and next").click()
    expect(page.locator(".eyebrow")).to_contain_text("question 2 of")

    page.goto("/practice/")
    page.get_by_role("link", name=re.compile("^Resume your mock")).click()

    expect(page.locator(".eyebrow")).to_contain_text(f"question 2 of {MOCK_LENGTH} · 1 answered")
    assert Attempt.objects.filter(user=learner).count() == 1


def test_when_time_runs_out_the_page_moves_to_the_result_by_itself(page: Page, learner, short_mock):
    log_in(page, learner.username)
    start_mock(page)
    attempt = Attempt.objects.get(user=learner)
    Attempt.objects.filter(pk=attempt.pk).update(
        deadline=timezone.now() + datetime.timedelta(seconds=3)
    )

    page.reload()
    expect(page.locator("#countdown-value")).to_have_text(re.compile(r"^0:0[0-3]$"))

    expect(page.get_by_role("heading", level=1)).to_have_text(f"0 of {MOCK_LENGTH} right (0%)")
    expect(page.locator(".result-counts")).to_contain_text(
        f"{MOCK_LENGTH} skipped, counted as wrong"
    )
    attempt.refresh_from_db()
    assert attempt.submitted_at == attempt.deadline


def test_the_nudge_to_flag_and_move_on_appears_after_ninety_seconds(
    page: Page, learner, short_mock
):
    log_in(page, learner.username)
    page.clock.install()
    start_mock(page)
    nudge = page.locator("#nudge")
    expect(nudge).to_be_attached()
    expect(nudge).to_be_hidden()
    # mock.js is deferred: wait until it has run (it rewrites the countdown as m:ss), so its
    # 90-second timer exists before the fake clock moves.
    expect(page.locator("#countdown-value")).to_have_text(COUNTDOWN)

    page.clock.run_for(89_000)
    expect(nudge).to_be_hidden()
    page.clock.run_for(2_000)

    expect(nudge).to_be_visible()
    expect(nudge).to_contain_text("flag it and move on")


def test_a_choice_made_just_before_the_deadline_is_handed_in_and_the_page_says_so(
    page: Page, learner, short_mock
):
    log_in(page, learner.username)
    start_mock(page)
    attempt = Attempt.objects.get(user=learner)
    Attempt.objects.filter(pk=attempt.pk).update(
        deadline=timezone.now() + datetime.timedelta(seconds=4)
    )
    page.reload()
    item = current_item(page, attempt)

    # Chosen, never saved by a button: the choice is saved as it is made.
    with page.expect_response(re.compile(rf"/practice/{attempt.pk}/questions/1/$")) as saved:
        choose(page, item, right_answer(item))
    # Every tick is saved: a "choose two" ticked once as unanswered, then as an answer.
    assert saved.value.status == 200
    expect(page.locator("#answer-status")).to_have_text("Your answer is saved.")

    expect(page.get_by_role("alert")).to_contain_text(
        "Time is up: your answers were handed in.", timeout=10_000
    )
    expect(page.get_by_role("heading", level=1)).to_have_text(f"1 of {MOCK_LENGTH} right (20%)")
    item.refresh_from_db()
    assert item.is_correct is True


def test_keys_choose_save_and_flag_and_focus_lands_on_the_next_first_option(
    page: Page, learner, short_mock
):
    log_in(page, learner.username)
    start_mock(page)
    attempt = Attempt.objects.get(user=learner)
    expect(page.get_by_text("Keys: 1–")).to_be_visible()
    first = current_item(page, attempt)
    expect(page.locator('input[name="option"]').first).to_be_focused()

    # As many keys as the question asks for ("choose two": 1 and 2), then F saves and flags.
    keys = ["2"] if len(right_answer(first)) == 1 else ["1", "2"]
    for key in keys:
        page.keyboard.press(key)
    page.keyboard.press("f")
    expect(page.get_by_role("link", name=re.compile(r"^Question 1, .*flagged$"))).to_be_visible()
    for key in keys:
        expect(page.locator(f'input[name="option"][value="{key}"]')).to_be_checked()
    page.keyboard.press("n")
    expect(page.locator(".eyebrow")).to_contain_text("question 2 of")
    page.wait_for_load_state("load")
    expect(page.locator('input[name="option"]').first).to_be_focused()
    first.refresh_from_db()
    assert first.chosen == sorted(first.order[int(key) - 1] for key in keys) and first.flagged


def test_a_live_mock_can_be_discarded_and_then_counts_nowhere(page: Page, learner, short_mock):
    log_in(page, learner.username)
    start_mock(page)
    attempt = Attempt.objects.get(user=learner)
    item = current_item(page, attempt)
    choose(page, item, wrong_answer(item))
    page.get_by_role("button", name="Save and next").click()

    page.get_by_role("button", name="Discard this mock (it will count nowhere)").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Practice")
    expect(page.get_by_text("The timed mock exam was discarded: it counts nowhere")).to_be_visible()
    assert not Attempt.objects.filter(user=learner).exists()
    expect(page.get_by_role("button", name="Start a mock exam")).to_be_visible()
