"""The written exercise that ends each phase: written and saved on the phase page (plain forms
and htmx), its parts ticked until it is done, downloaded as Markdown, and kept through reloads of
the syllabus; bad input refused with a message and nothing lost."""

import datetime
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects

from phases.content import content_changed, syllabus
from phases.models import ExercisePart
from phases.snapshot import PartInfo, PhaseInfo
from progress.accounts.export import export_learner
from progress.exercises.models import MAX_CHARS, Exercise, ExerciseStatus, exercise_status, markdown
from progress.models import Profile
from tests.conftest import HTMX
from tests.factories import UserFactory, make_plan, tick_exercise_parts, write_exercise
from tests.html import element_by_id, elements, page_text

pytestmark = pytest.mark.django_db

PHASE_ONE = "core-ml-foundations"
PARTS = ["p1-ex-residual-connections", "p1-ex-multimodal-loss", "p1-ex-fusion-table"]
NOW = datetime.datetime(2026, 12, 3, 9, 42, tzinfo=datetime.UTC)


def phase_url(slug: str = PHASE_ONE) -> str:
    return reverse("progress:phase", args=[slug])


def save_url(slug: str = PHASE_ONE) -> str:
    return reverse("progress:exercise-save", args=[slug])


def parts_url(slug: str = PHASE_ONE) -> str:
    return reverse("progress:exercise-parts", args=[slug])


def download_url(slug: str = PHASE_ONE) -> str:
    return reverse("progress:exercise-download", args=[slug])


def phase_one():
    return syllabus().phase(PHASE_ONE)


def row(user) -> Exercise:
    return Exercise.objects.get(user=user, phase__slug=PHASE_ONE)


def checked(response) -> list[str]:
    return [
        e.attrs["value"]
        for e in elements(response.content)
        if e.tag == "input" and e.attrs.get("type") == "checkbox" and "checked" in e.attrs
    ]


# The phase page


def test_the_phase_page_ends_with_the_exercise_after_the_self_checks(learner_client):
    response = learner_client.get(phase_url())

    html = response.content.decode()
    assert html.index('id="checks-heading"') < html.index('id="exercise"') < html.index("pager")
    section = element_by_id(response.content, "exercise")
    assert "Written exercise" in section.text
    assert phase_one().practice_exercise in section.text
    form = [
        e
        for e in elements(response.content)
        if e.tag == "form" and e.attrs.get("action") == save_url()
    ]
    assert form and form[0].attrs["method"] == "post"
    textarea = element_by_id(response.content, "exercise-text")
    assert (textarea.tag, textarea.attrs["name"], textarea.attrs["maxlength"]) == (
        "textarea",
        "text",
        str(MAX_CHARS),
    )
    assert textarea.attrs["hx-trigger"].startswith("input changed delay:")
    assert element_by_id(response.content, "exercise-saved").attrs["role"] == "status"
    assert element_by_id(response.content, "exercise-saved").text == "Not saved yet"
    assert [
        e.attrs["value"] for e in elements(response.content) if e.attrs.get("name") == "part"
    ] == PARTS
    assert checked(response) == []
    assertContains(response, "0 of 3 parts ticked")
    assertContains(response, f'href="{download_url()}"')


def test_every_phase_has_its_own_exercise_with_its_parts(learner_client):
    for phase in syllabus().phases:
        response = learner_client.get(phase_url(phase.slug))

        assert len(phase.exercise_parts) >= 1
        for part in phase.exercise_parts:
            assertContains(response, f'value="{part.slug}"')


# Saving the text


def test_the_save_button_without_htmx_saves_and_returns_to_the_exercise(learner_client, learner):
    response = learner_client.post(save_url(), text_of(learner, "Skip paths carry the gradient."))

    assertRedirects(response, phase_url() + "#exercise", fetch_redirect_response=False)
    assert row(learner).text == "Skip paths carry the gradient."
    page = learner_client.get(phase_url())
    assert element_by_id(page.content, "exercise-text").text == "Skip paths carry the gradient."
    assert element_by_id(page.content, "exercise-saved").text.startswith("Saved ")


def text_of(user, text: str) -> dict:
    """A save of ``text`` as the page would send it: with the version it read (the one saved
    now; the page learns each new one from its save's answer)."""
    current = Exercise.objects.filter(user=user, phase__slug="core-ml-foundations").first()
    return {"text": text, "version": str(current.text_version if current else 0)}


def parts_of(user, parts) -> dict:
    current = Exercise.objects.filter(user=user, phase__slug="core-ml-foundations").first()
    return {"part": parts, "version": str(current.parts_version if current else 0)}


def test_autosave_with_htmx_answers_with_the_time_in_the_learners_zone(learner_client, learner):
    Profile.objects.create(user=learner, time_zone="Pacific/Auckland")

    response = learner_client.post(save_url(), text_of(learner, "A first draft."), **HTMX)

    assert response.status_code == 200
    saved = row(learner).saved_at.astimezone(zoneinfo.ZoneInfo("Pacific/Auckland"))
    assert response.content.decode().split("<input")[0].strip() == f"Saved {saved:%H:%M}"
    # The form learns the version it now stands at, out of band, for its next save.
    assert element_by_id(response.content, "exercise-version").attrs["value"] == "1"
    assert row(learner).text == "A first draft."


def test_a_second_save_replaces_the_text_in_the_same_row(learner_client, learner):
    learner_client.post(save_url(), text_of(learner, "One."), **HTMX)
    learner_client.post(save_url(), text_of(learner, "Two."), **HTMX)

    assert Exercise.objects.filter(user=learner).count() == 1
    assert row(learner).text == "Two."


def test_saving_an_empty_text_is_allowed(learner_client, learner):
    learner_client.post(save_url(), text_of(learner, "Something."))

    learner_client.post(save_url(), text_of(learner, ""))

    assert row(learner).text == ""


def test_a_text_over_the_cap_is_a_400_that_keeps_what_was_typed_and_saves_nothing(
    learner_client, learner
):
    learner_client.post(save_url(), text_of(learner, "The saved draft."))
    too_long = "x" * (MAX_CHARS + 1)

    response = learner_client.post(save_url(), text_of(learner, too_long))

    assert response.status_code == 400
    assertContains(response, f"{MAX_CHARS + 1:,} characters long", status_code=400)
    assert element_by_id(response.content, "exercise-text").text == too_long
    assert row(learner).text == "The saved draft."


def test_a_text_over_the_cap_with_htmx_is_a_400_that_says_why(learner_client, learner):
    response = learner_client.post(save_url(), text_of(learner, "x" * (MAX_CHARS + 1)), **HTMX)

    assert response.status_code == 400
    assert response.content.decode().startswith("Not saved: Your exercise is 50,001 characters")
    assert not Exercise.objects.filter(user=learner).exists()


@pytest.mark.parametrize(
    ("data", "words"),
    [({}, "field text"), ({"text": "a\x00b"}, "NUL character")],
)
def test_a_missing_text_or_a_nul_is_a_400_and_saves_nothing(learner_client, learner, data, words):
    for headers in ({}, HTMX):
        response = learner_client.post(save_url(), data, **headers)

        assert response.status_code == 400
        assert words in response.content.decode()
    assert not Exercise.objects.filter(user=learner).exists()


def test_the_text_is_exactly_the_cap_is_saved(learner_client, learner):
    response = learner_client.post(save_url(), text_of(learner, "y" * MAX_CHARS), **HTMX)

    assert response.status_code == 200
    assert len(row(learner).text) == MAX_CHARS


# Ticking the parts


def test_ticking_a_part_without_htmx_returns_to_the_checklist(learner_client, learner):
    response = learner_client.post(parts_url(), parts_of(learner, [PARTS[2]]))

    assertRedirects(response, phase_url() + "#exercise-parts", fetch_redirect_response=False)
    assert row(learner).ticked == [PARTS[2]]
    page = learner_client.get(phase_url())
    assert checked(page) == [PARTS[2]]
    assertContains(page, "1 of 3 parts ticked")


def test_ticking_with_htmx_answers_with_the_checklist(learner_client, learner):
    response = learner_client.post(parts_url(), parts_of(learner, PARTS[:2]), **HTMX)

    assert response.status_code == 200
    form = element_by_id(response.content, "exercise-parts")
    assert form.tag == "form"
    assert form.attrs["data-announce"] == "2 of 3 parts ticked."
    assert checked(response) == PARTS[:2]


def test_a_part_left_out_of_the_post_is_unticked(learner_client, learner):
    learner_client.post(parts_url(), parts_of(learner, PARTS))

    learner_client.post(parts_url(), parts_of(learner, [PARTS[0]]))

    assert row(learner).ticked == [PARTS[0]]
    assert row(learner).done_at is None


def test_the_exercise_is_done_with_its_date_once_every_part_is_ticked(learner_client, learner):
    Profile.objects.create(user=learner, time_zone="Pacific/Kiritimati")

    response = learner_client.post(parts_url(), parts_of(learner, PARTS), **HTMX)

    done_at = row(learner).done_at
    assert done_at is not None
    local = timezone.localtime(done_at, zoneinfo.ZoneInfo("Pacific/Kiritimati"))
    assert (
        element_by_id(response.content, "exercise-parts").attrs["data-announce"] == "Exercise done."
    )
    text = page_text(learner_client.get(phase_url()).content)
    assert f"✓ Exercise done on {local:%a} {local.day} {local:%b %Y}" in text


def test_ticking_the_same_parts_again_keeps_the_day_it_was_done(learner, syllabus):
    phase = phase_one()
    tick_exercise_parts(learner, phase, ticked=set(PARTS), now=NOW)

    tick_exercise_parts(learner, phase, ticked=set(PARTS), now=NOW + datetime.timedelta(days=2))

    assert row(learner).done_at == NOW


def test_an_unknown_part_is_a_400_and_changes_nothing(learner_client, learner):
    learner_client.post(parts_url(), parts_of(learner, [PARTS[0]]))

    for headers in ({}, HTMX):
        response = learner_client.post(
            parts_url(), {"part": [PARTS[1], "p2-ex-ab-test"]}, **headers
        )

        assert response.status_code == 400
        assert "no part 'p2-ex-ab-test'" in response.content.decode()
    assert row(learner).ticked == [PARTS[0]]


# Downloading it


def test_the_download_is_a_markdown_file_with_the_parts_as_a_checklist_and_the_text(
    learner_client, learner
):
    learner_client.post(
        save_url(), text_of(learner, "Residual connections carry the gradient.\r\n")
    )
    learner_client.post(parts_url(), parts_of(learner, [PARTS[0]]))

    response = learner_client.get(download_url())

    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="nca-genm-phase-1-exercise.md"'
    text = response.content.decode()
    assert text.startswith("# Phase 1: Core ML foundations: written exercise\n")
    assert "- [x] A written account, in your own words, of residual connections\n" in text
    assert "- [ ] One multimodal loss function worked through with an example\n" in text
    assert "- [ ] The early/intermediate/late fusion tradeoff table\n" in text
    assert text.endswith("## My answer\n\nResidual connections carry the gradient.\n")


def test_the_markdown_of_an_exercise_not_yet_written_says_so():
    phase = PhaseInfo(
        number=6,
        slug="trustworthy-ai",
        title="Trustworthy AI",
        goal="",
        how_examined="",
        practice_exercise="A one-page trust checklist.",
        domains=(),
        exercise_parts=(PartInfo("a", "Each principle"), PartInfo("b", "How you would disclose")),
    )

    text = markdown(ExerciseStatus(phase=phase, ticked=frozenset({"b"})))

    assert text.splitlines() == [
        "# Phase 6: Trustworthy AI: written exercise",
        "",
        "A one-page trust checklist.",
        "",
        "## Parts",
        "",
        "- [ ] Each principle",
        "- [x] How you would disclose",
        "",
        "## My answer",
        "",
        "(Nothing written yet.)",
    ]


# Only the learner's own, and only a phase that exists


def test_another_learners_exercise_is_never_shown_nor_changed(client, learner, syllabus):
    write_exercise(learner, phase_one(), text="Mine alone.", now=NOW)
    tick_exercise_parts(learner, phase_one(), ticked={PARTS[0]}, now=NOW)
    other = UserFactory()
    client.force_login(other)

    page = client.get(phase_url())
    download = client.get(download_url())
    client.post(save_url(), {"text": "Theirs."})
    client.post(parts_url(), {"part": PARTS})

    assertNotContains(page, "Mine alone.")
    assert checked(page) == []
    assert "Mine alone." not in download.content.decode()
    assert (row(learner).text, row(learner).ticked, row(learner).done_at) == (
        "Mine alone.",
        [PARTS[0]],
        None,
    )
    assert row(other).text == "Theirs."


@pytest.mark.parametrize("url", [save_url("phase-seven"), parts_url("phase-seven")])
def test_an_unknown_phase_is_a_404_for_every_write(learner_client, learner, url):
    assert learner_client.post(url, {"text": "x", "part": PARTS[0]}).status_code == 404
    assert not Exercise.objects.exists()


def test_an_unknown_phase_has_no_download(learner_client):
    assert learner_client.get(download_url("phase-seven")).status_code == 404


def test_the_writes_take_posts_only_and_every_url_needs_a_login(client, learner_client, syllabus):
    assert learner_client.get(save_url()).status_code == 405
    assert learner_client.get(parts_url()).status_code == 405
    client.logout()
    for response in (
        client.post(save_url(), {"text": "x"}),
        client.post(parts_url(), {"part": PARTS[0]}),
        client.get(download_url()),
    ):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))


# Where else it shows


def test_the_plan_shows_each_phases_exercise(learner_client, learner):
    make_plan(learner)
    tick_exercise_parts(learner, phase_one(), ticked=set(PARTS), now=timezone.now())
    write_exercise(learner, syllabus().phase("experimentation"), text="Draft.", now=NOW)

    response = learner_client.get(reverse("progress:plan"))

    cells = [
        e.text
        for e in elements(response.content)
        if e.attrs.get("data-label") == "Written exercise"
    ]
    assert cells[0].startswith("✓ Done")
    assert cells[1:3] == ["0/3 parts", "Not started"]


def test_the_dashboard_shows_todays_phases_exercise(learner_client, learner):
    make_plan(learner)
    tick_exercise_parts(learner, phase_one(), ticked={PARTS[0]}, now=timezone.now())

    response = learner_client.get(reverse("progress:dashboard"))

    # Named in the "today" box, which links nowhere: the dashboard's one action is its button.
    assert "Written exercise: 1/3 parts" in page_text(response.content)


def test_the_export_holds_every_exercise_with_its_text_parts_and_dates(learner, syllabus):
    write_exercise(learner, phase_one(), text="Skip paths.", now=NOW)
    tick_exercise_parts(learner, phase_one(), ticked=set(PARTS), now=NOW)

    (exported,) = export_learner(learner, now=NOW)["exercises"]

    assert exported == {
        "phase": PHASE_ONE,
        "text": "Skip paths.",
        "saved_at": NOW.isoformat(),
        "ticked": PARTS,
        "done_at": NOW.isoformat(),
        # Saved once and ticked once: each save's version, which a stale tab's save must match.
        "text_version": 1,
        "parts_version": 1,
    }


# Through reloads of the syllabus


def test_a_retired_part_leaves_the_checklist_and_keeps_the_learners_tick(learner, syllabus):
    tick_exercise_parts(learner, phase_one(), ticked={PARTS[0], PARTS[2]}, now=NOW)
    ExercisePart.objects.filter(slug=PARTS[2]).update(retired=True)
    content_changed()

    status = exercise_status(learner, phase_one())
    assert [part.slug for part, _ in status.parts] == PARTS[:2]
    assert (status.ticked_count, status.done) == (1, False)
    tick_exercise_parts(learner, phase_one(), ticked=set(PARTS[:2]), now=NOW)
    assert exercise_status(learner, phase_one()).done
    assert sorted(row(learner).ticked) == sorted(PARTS)  # the retired part's tick is kept

    ExercisePart.objects.filter(slug=PARTS[2]).update(retired=False)
    content_changed()
    assert exercise_status(learner, phase_one()).done


def test_a_text_with_a_nul_comes_back_without_it_to_save_again(learner_client, learner):
    response = learner_client.post(save_url(), text_of(learner, "Skip\x00 paths."))

    assert response.status_code == 400
    assert element_by_id(response.content, "exercise-text").text == "Skip paths."
    assert not Exercise.objects.filter(user=learner).exists()
