"""The written exercise at the end of a phase, in Chromium: written and saved as the learner
types, its parts ticked until it is done, downloaded as Markdown; and the same without
JavaScript, by its buttons."""

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from progress.exercises.models import MAX_CHARS
from tests.e2e.steps import PHASE_ONE, log_in, mark_page, open_phase
from tests.e2e.steps import expect_same_document as expect_no_reload

PARTS = [
    "A written account, in your own words, of residual connections",
    "One multimodal loss function worked through with an example",
    "The early/intermediate/late fusion tradeoff table",
]
SAVED = re.compile(r"^Saved \d\d:\d\d$")


def exercise_box(page: Page):
    return page.get_by_label("Your exercise, in your own words")


def part(page: Page, words: str):
    return page.get_by_role("checkbox", name=words)


def checklist(page: Page):
    return page.locator("#exercise-parts")


def test_the_exercise_saves_as_it_is_typed_and_is_done_when_every_part_is_ticked(
    page: Page, learner
):
    log_in(page, "grace")
    open_phase(page, "core-ml-foundations", PHASE_ONE)
    status = page.locator("#exercise-saved")
    expect(status).to_have_text("Not saved yet")
    mark_page(page)

    exercise_box(page).press_sequentially("A skip path adds the block's input to its output.")

    expect(status).to_have_text(SAVED)
    expect(status).to_have_attribute("role", "status")  # read out as it changes
    expect_no_reload(page)
    page.reload()
    expect(exercise_box(page)).to_have_value("A skip path adds the block's input to its output.")

    # By keyboard: focus stays on the box just ticked when the checklist is swapped.
    part(page, PARTS[0]).focus()
    page.keyboard.press("Space")
    expect(checklist(page)).to_contain_text("1 of 3 parts ticked")
    expect(page.locator("#announcer")).to_have_text("1 of 3 parts ticked.")
    expect(part(page, PARTS[0])).to_be_checked()
    expect(part(page, PARTS[0])).to_be_focused()
    for words in PARTS[1:]:
        part(page, words).check()
        expect(part(page, words)).to_be_checked()
    expect(checklist(page)).to_contain_text(
        re.compile(r"✓ Exercise done on \w{3} \d{1,2} \w{3} \d{4}")
    )

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download as Markdown (.md)").click()
    download = download_info.value
    assert download.suggested_filename == "nca-genm-phase-1-exercise.md"
    text = Path(download.path()).read_text(encoding="utf-8")
    assert text.startswith("# Phase 1: Core ML foundations")
    for words in PARTS:
        assert f"- [x] {words}" in text
    assert "A skip path adds the block's input to its output." in text

    # Unticking a part: no longer done.
    part(page, PARTS[2]).uncheck()
    expect(checklist(page)).to_contain_text("2 of 3 parts ticked")


def test_without_javascript_the_save_button_keeps_the_text_and_a_part_is_ticked_by_its_button(
    page_without_js: Page, learner
):
    page = page_without_js
    log_in(page, "grace")
    open_phase(page, "core-ml-foundations", PHASE_ONE)

    exercise_box(page).fill("Fusion: early is fastest, late survives a missing modality.")
    page.get_by_role("button", name="Save", exact=True).click()

    expect(page).to_have_url(re.compile(r"/study/core-ml-foundations/#exercise$"))
    expect(exercise_box(page)).to_have_value(
        "Fusion: early is fastest, late survives a missing modality."
    )
    expect(page.locator("#exercise-saved")).to_have_text(SAVED)

    part(page, PARTS[2]).check()
    page.get_by_role("button", name="Save ticks").click()

    expect(page).to_have_url(re.compile(r"#exercise-parts$"))
    expect(part(page, PARTS[2])).to_be_checked()
    expect(part(page, PARTS[0])).not_to_be_checked()
    expect(checklist(page)).to_contain_text("1 of 3 parts ticked")


def test_without_javascript_a_text_over_the_cap_comes_back_whole_with_the_reason(
    page_without_js: Page, learner
):
    page = page_without_js
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, "grace")
    open_phase(page, "core-ml-foundations", PHASE_ONE)
    too_long = "word " * (MAX_CHARS // 5) + "!"
    # The box stops typing at the cap (maxlength): without it, as in a browser that ignores it,
    # the server is the one that refuses.
    exercise_box(page).evaluate("box => box.removeAttribute('maxlength')")
    exercise_box(page).fill(too_long)

    page.get_by_role("button", name="Save", exact=True).click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Your exercise was not saved")
    expect(page.get_by_role("alert")).to_contain_text(f"{len(too_long):,} characters long")
    expect(exercise_box(page)).to_have_value(too_long)
    page.get_by_role("link", name="Back to the phase, without saving").click()
    expect(exercise_box(page)).to_have_value("")  # nothing was saved


def test_an_autosave_the_server_refuses_says_why_where_saved_would_be(page: Page, learner):
    log_in(page, "grace")
    open_phase(page, "core-ml-foundations", PHASE_ONE)
    exercise_box(page).evaluate("box => box.removeAttribute('maxlength')")

    exercise_box(page).fill("y" * (MAX_CHARS + 1))

    expect(page.locator("#exercise-saved")).to_contain_text(
        f"Not saved: Your exercise is {MAX_CHARS + 1:,} characters long"
    )
    expect(exercise_box(page)).to_have_value("y" * (MAX_CHARS + 1))  # nothing lost
