"""Studying: the phase pages, ticking a self-check done or not done, and saying how well it is
known, with and without htmx."""

import datetime
import random
import re

import fsrs
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import escape
from pytest_django.asserts import assertContains, assertRedirects

from phases.content import content_changed
from phases.models import Domain, Intensity, Phase, PhaseHours, SelfCheck, Topic
from phases.schedule import lay_out
from progress.models import CheckOff
from progress.services.review import review_check
from progress.services.study import set_done
from tests.factories import UserFactory, make_plan, tick
from tests.html import element_by_id, elements, without_csrf

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PHASE_ONE = "core-ml-foundations"
PHASE_SLUGS = [
    "core-ml-foundations",
    "experimentation",
    "multimodal-data",
    "software-and-sdk-stack",
    "analysis-and-optimization",
    "trustworthy-ai",
]
FIRST_CHECK = "p1-residual-gradient-flow"
STUDY = reverse("progress:study")
DETAILS = re.compile(r"<details\b.*?</details>", re.DOTALL)


def phase_url(slug: str = PHASE_ONE) -> str:
    return reverse("progress:phase", args=[slug])


def toggle_url(slug: str = FIRST_CHECK) -> str:
    return reverse("progress:selfcheck-toggle", args=[slug])


def check_id(slug: str = FIRST_CHECK) -> int:
    return SelfCheck.objects.get(slug=slug).pk


# A fixed moment in the recent past: "three days ago" is then the same instant wherever a test
# reads it, the tick it set up and the assertion alike.
NOW = timezone.now()


def words(text: str) -> list[str]:
    return text.split()


def days_ago(n: int) -> datetime.datetime:
    return NOW - datetime.timedelta(days=n)


def weighted_percent(done: dict[str, int]) -> int:
    """Exam-weighted readiness from {domain slug: checks done}, worked out from the syllabus."""
    total = 0.0
    for domain in Domain.objects.all():
        count = SelfCheck.objects.current().filter(domain=domain).count()
        total += domain.exam_weight * done.get(domain.slug, 0) / count
    return round(100 * total / sum(Domain.objects.values_list("exam_weight", flat=True)))


# The phase page


@pytest.mark.parametrize("slug", PHASE_SLUGS)
def test_phase_page_shows_goal_exam_style_exercise_topics_and_traps(learner_client, slug):
    phase = Phase.objects.get(slug=slug)

    response = learner_client.get(phase_url(slug))

    assert response.status_code == 200
    for words in (phase.title, phase.goal, phase.how_examined, phase.practice_exercise):
        assertContains(response, escape(words))
    topics = Topic.objects.filter(domain__phases=phase)
    assert topics.exists()
    for topic in topics:
        assertContains(response, escape(topic.title))
        assertContains(response, escape(topic.summary))
        if topic.trap:
            assertContains(response, escape(topic.trap))


@pytest.mark.parametrize("slug", PHASE_SLUGS)
def test_topics_and_their_sources_come_before_the_self_checks(learner_client, slug):
    response = learner_client.get(phase_url(slug))

    html = response.content.decode()
    first_check = html.index('id="checks-heading"')
    assert html.index('id="topics-heading"') < first_check
    first_row = html.index('class="check', first_check)
    for topic in Topic.objects.filter(domain__phases__slug=slug):
        assert 1 <= len(topic.sources) <= 3
        for source in topic.sources:
            link = f'href="{escape(source["url"])}"'
            assert link in html, (topic.slug, source["url"])
            assert html.index(link) < first_check < first_row
            assertContains(response, escape(source["title"]))


def test_a_papers_link_names_its_title_and_arxiv_identifier(learner_client):
    response = learner_client.get(phase_url("experimentation"))

    links = [
        element
        for element in elements(response.content.decode())
        if element.tag == "a" and element.attrs.get("href") == "https://arxiv.org/abs/1706.08500"
    ]
    assert links
    assert {link.text for link in links} == {
        "GANs Trained by a Two Time-Scale Update Rule Converge to a Local Nash Equilibrium "
        "(arXiv:1706.08500)"
    }
    sources = element_by_id(response.content.decode(), "topics-heading")
    assert sources.text == "Topics"
    assertContains(response, "<strong>Sources:</strong>", html=False)


def test_phase_five_shows_the_topics_of_both_its_domains(learner_client):
    response = learner_client.get(phase_url("analysis-and-optimization"))

    for domain in ("data-analysis", "performance-optimization"):
        for topic in Topic.objects.filter(domain__slug=domain):
            assertContains(response, escape(topic.summary))


@pytest.mark.parametrize("slug", PHASE_SLUGS)
def test_each_self_check_shows_its_prompt_with_the_answer_hidden_in_details(learner_client, slug):
    checks = SelfCheck.objects.current().filter(phase__slug=slug)
    assert checks.count() >= 5

    response = learner_client.get(phase_url(slug))

    html = response.content.decode()
    answers = " ".join(DETAILS.findall(html))
    outside_answers = DETAILS.sub("", html)
    for check in checks:
        row = element_by_id(html, f"check-{check.slug}")
        assert " ".join(check.prompt.split()) in row.text
        assert escape(check.answer) in answers
        assert escape(check.answer) not in outside_answers


def test_phase_page_lists_the_checks_of_the_phase_only(learner_client):
    response = learner_client.get(phase_url(PHASE_ONE))

    rows = {e.attrs["id"] for e in elements(response.content) if "check" in e.classes}
    assert rows == {
        f"check-{slug}"
        for slug in SelfCheck.objects.current()
        .filter(phase__slug=PHASE_ONE)
        .values_list("slug", flat=True)
    }
    assert len(rows) == 7


def test_phase_page_marks_ticked_checks_done_and_counts_them(learner_client, learner):
    tick(learner, FIRST_CHECK, "p1-fusion-tradeoff")

    response = learner_client.get(phase_url())

    assert "Done" in element_by_id(response.content, f"check-{FIRST_CHECK}").text
    assert "Mark done" in element_by_id(response.content, "check-p1-backprop").text
    assert "2 of 7" in element_by_id(response.content, "phase-progress").text


def test_every_tick_form_works_without_javascript(learner_client):
    response = learner_client.get(phase_url())

    forms = [
        e
        for e in elements(response.content)
        if e.tag == "form" and "hx-post" in e.attrs and "/checks/" in e.attrs["action"]
    ]
    assert len(forms) == 7
    for form in forms:
        assert form.attrs["method"] == "post"
        assert form.attrs["action"] == form.attrs["hx-post"]
        names = {child.attrs.get("name") for child in form.children}
        assert {"csrfmiddlewaretoken", "done"} <= names


def test_unknown_phase_is_a_404(learner_client):
    assert learner_client.get(phase_url("phase-seven")).status_code == 404


# /study/: today's phase


def days_until_phase(number: int) -> int:
    standard = Intensity.objects.get(slug="standard")
    hours = PhaseHours.objects.filter(intensity=standard).order_by("phase__number")
    plan = lay_out(
        hours.values_list("phase__number", "hours"), standard.hours_per_week, timezone.localdate()
    )
    return (plan.slots[number - 1].start - plan.start).days


def test_study_opens_the_phase_the_calendar_has_the_learner_in_today(learner_client, learner):
    make_plan(learner, days_ago=days_until_phase(3))

    response = learner_client.get(STUDY)

    assertRedirects(response, phase_url("multimodal-data"))


@pytest.mark.parametrize("days_ago", [None, -5, 400], ids=["no-plan", "not-started", "finished"])
def test_study_opens_phase_one_outside_a_running_plan(learner_client, learner, days_ago):
    if days_ago is not None:
        make_plan(learner, days_ago=days_ago)

    assertRedirects(learner_client.get(STUDY), phase_url(PHASE_ONE))


# Ticking without htmx


def test_ticking_done_records_it_and_redirects_back_to_the_check(learner_client, learner):
    response = learner_client.post(toggle_url(), {"done": "1"})

    assertRedirects(response, f"{phase_url()}#check-{FIRST_CHECK}", fetch_redirect_response=False)
    assert list(
        CheckOff.objects.filter(user=learner).values_list("self_check__slug", flat=True)
    ) == [FIRST_CHECK]


def test_ticking_twice_leaves_one_check_off(learner_client, learner):
    learner_client.post(toggle_url(), {"done": "1"})
    response = learner_client.post(toggle_url(), {"done": "1"})

    assert response.status_code == 302
    assert CheckOff.objects.filter(user=learner).count() == 1


def test_unticking_removes_the_check_off(learner_client, learner):
    tick(learner, FIRST_CHECK, "p1-backprop")

    response = learner_client.post(toggle_url(), {"done": "0"})

    assert response.status_code == 302
    assert list(
        CheckOff.objects.filter(user=learner).values_list("self_check__slug", flat=True)
    ) == ["p1-backprop"]


def test_unticking_a_check_never_ticked_is_harmless(learner_client, learner):
    response = learner_client.post(toggle_url(), {"done": "0"})

    assertRedirects(response, f"{phase_url()}#check-{FIRST_CHECK}", fetch_redirect_response=False)
    assert not CheckOff.objects.exists()


@pytest.mark.parametrize("form", [{}, {"done": ""}, {"done": "yes"}, {"done": "2"}])
def test_a_post_that_does_not_say_done_or_not_is_refused_and_changes_nothing(
    learner_client, learner, form
):
    # Our forms always say done=1 or done=0; anything else is not a learner's click.
    tick(learner, FIRST_CHECK)

    response = learner_client.post(toggle_url(), form)

    assert response.status_code == 400
    assert "Nothing was changed." in response.text
    assert CheckOff.objects.filter(user=learner).count() == 1


def test_after_the_redirect_the_phase_page_shows_the_tick(learner_client):
    response = learner_client.post(toggle_url(), {"done": "1"}, follow=True)

    assert response.status_code == 200
    assert "Done" in element_by_id(response.content, f"check-{FIRST_CHECK}").text
    assert "1 of 7" in element_by_id(response.content, "phase-progress").text


def test_next_on_our_own_site_is_followed(learner_client):
    dashboard = reverse("progress:dashboard")

    response = learner_client.post(toggle_url(), {"done": "1", "next": dashboard})

    assertRedirects(response, dashboard, fetch_redirect_response=False)


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/phish",
        "//evil.example/phish",
        "http://testserver.evil.example/",
        "javascript:alert(1)",
    ],
)
def test_next_to_another_site_is_ignored(learner_client, target):
    response = learner_client.post(toggle_url(), {"done": "1", "next": target})

    assertRedirects(response, f"{phase_url()}#check-{FIRST_CHECK}", fetch_redirect_response=False)


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_toggle_refuses_get(learner_client, headers):
    response = learner_client.get(toggle_url(), {"done": "1"}, **headers)

    assert response.status_code == 405
    assert not CheckOff.objects.exists()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_toggle_of_an_unknown_self_check_is_a_404(learner_client, headers):
    response = learner_client.post(toggle_url("p9-no-such-check"), {"done": "1"}, **headers)

    assert response.status_code == 404
    assert not CheckOff.objects.exists()


def test_a_retired_self_check_cannot_be_ticked(learner_client):
    SelfCheck.objects.filter(slug=FIRST_CHECK).update(retired=True)
    content_changed()

    response = learner_client.post(toggle_url(), {"done": "1"})

    assert response.status_code == 404
    assert not CheckOff.objects.exists()


# Ticking with htmx


def test_htmx_tick_answers_with_the_row_and_out_of_band_progress(learner_client, learner):
    tick(learner, "p1-backprop")

    response = learner_client.post(toggle_url(), {"done": "1"}, **HTMX)

    assert response.status_code == 200
    assert b"<html" not in response.content
    assert len(response.content) < 4096
    assert CheckOff.objects.filter(user=learner).count() == 2

    row = element_by_id(response.content, f"check-{FIRST_CHECK}")
    assert row.depth == 0
    assert "Done" in row.text
    assert "Mark done" not in row.text

    progress = element_by_id(response.content, "phase-progress")
    assert progress.depth == 0
    assert progress.attrs.get("hx-swap-oob") == "true"
    assert "2 of 7" in progress.text

    header = element_by_id(response.content, "header-readiness")
    assert header.depth == 0
    assert header.attrs.get("hx-swap-oob") == "true"
    # Core ML: 2 of 6 done, weight 20 of 100.
    assert "7%" in header.text


def test_htmx_untick_answers_with_the_row_to_tick_again_and_lower_figures(learner_client, learner):
    tick(learner, FIRST_CHECK, "p1-backprop", "p1-fusion-tradeoff")

    response = learner_client.post(toggle_url(), {"done": "0"}, **HTMX)

    row = element_by_id(response.content, f"check-{FIRST_CHECK}")
    assert "Mark done" in row.text
    assert "2 of 7" in element_by_id(response.content, "phase-progress").text
    expected = weighted_percent({"core-ml": 1, "multimodal-data": 1})
    assert f"{expected}%" in element_by_id(response.content, "header-readiness").text
    assert not CheckOff.objects.filter(user=learner, self_check__slug=FIRST_CHECK).exists()


def test_htmx_tick_twice_gives_the_same_answer_and_one_check_off(learner_client, learner):
    first = learner_client.post(toggle_url(), {"done": "1"}, **HTMX)
    second = learner_client.post(toggle_url(), {"done": "1"}, **HTMX)

    assert CheckOff.objects.filter(user=learner).count() == 1
    for response in (first, second):
        assert "1 of 7" in element_by_id(response.content, "phase-progress").text


def test_htmx_untick_of_a_check_never_ticked_is_harmless(learner_client):
    response = learner_client.post(toggle_url(), {"done": "0"}, **HTMX)

    assert response.status_code == 200
    assert "Mark done" in element_by_id(response.content, f"check-{FIRST_CHECK}").text
    assert "0 of 7" in element_by_id(response.content, "phase-progress").text
    assert not CheckOff.objects.exists()


def test_htmx_tick_row_posts_back_the_opposite(learner_client):
    response = learner_client.post(toggle_url(), {"done": "1"}, **HTMX)

    row = element_by_id(response.content, f"check-{FIRST_CHECK}")
    (form,) = [child for child in row.children if child.tag == "form"]
    (done,) = [child for child in form.children if child.attrs.get("name") == "done"]
    assert done.attrs["value"] == "0"
    assert form.attrs["hx-post"] == toggle_url()
    assert form.attrs["hx-target"] == f"#check-{FIRST_CHECK}"


def test_htmx_tick_in_phase_five_counts_that_phase(learner_client, learner):
    tick(learner, FIRST_CHECK)

    response = learner_client.post(toggle_url("p5-attention-maps"), {"done": "1"}, **HTMX)

    assert "1 of 8" in element_by_id(response.content, "phase-progress").text
    expected = weighted_percent({"core-ml": 1, "data-analysis": 1})
    assert f"{expected}%" in element_by_id(response.content, "header-readiness").text


@pytest.mark.parametrize("seed", range(6))
def test_htmx_tick_answer_shows_the_figures_the_whole_page_shows(learner_client, learner, seed):
    """The tick answer works its figures out without the plan or the memories; after any ticks,
    they read as the phase page and its header do on the next load."""
    make_plan(learner, days_ago=3)
    chooser = random.Random(seed)
    checks = list(SelfCheck.objects.current().select_related("phase"))
    tick(learner, *(check.slug for check in chooser.sample(checks, chooser.randint(0, 20))))
    check = chooser.choice(checks)

    answer = learner_client.post(
        toggle_url(check.slug), {"done": chooser.choice(["0", "1"])}, **HTMX
    )
    page = learner_client.get(phase_url(check.phase.slug))

    for part in ("phase-progress", "header-readiness", f"check-{check.slug}"):
        assert words(element_by_id(answer.content, part).text) == words(
            element_by_id(page.content, part).text
        ), part


# The pieces of a tick answer are kept by the state they show and shared between learners


def browser_of(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def htmx_untick(client: Client) -> str:
    """Untick the first check with htmx, as the page's script does: the token in the header."""
    page = client.get(phase_url())
    token = re.search(r'"x-csrftoken": "([^"]+)"', page.text).group(1)
    response = client.post(toggle_url(), {"done": "0"}, HTTP_X_CSRFTOKEN=token, **HTMX)
    assert response.status_code == 200
    return response.text


def form_token(answer: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', answer).group(1)


def test_two_learners_in_one_state_get_the_same_tick_answer_each_with_a_working_token(learner):
    other = UserFactory()
    for user in (learner, other):
        tick(user, FIRST_CHECK)
    first, second = browser_of(learner), browser_of(other)

    filled = htmx_untick(first)
    second_answer = htmx_untick(second)  # the same state: the same pieces, rendered anew
    tick(other, FIRST_CHECK)
    fresh = htmx_untick(second)

    assert without_csrf(second_answer) == without_csrf(fresh) == without_csrf(filled)
    # Each answer's token is its own browser's: a plain post with it is let through.
    assert form_token(second_answer) != form_token(filled)
    ticked = second.post(
        toggle_url(), {"done": "1", "csrfmiddlewaretoken": form_token(second_answer)}
    )
    assert ticked.status_code == 302
    assert CheckOff.objects.filter(user=other, self_check__slug=FIRST_CHECK).exists()


def test_a_tick_answer_never_shows_another_learners_figures(learner_client, learner):
    tick(learner, "p1-backprop", "p1-fusion-tradeoff")
    mine = learner_client.post(toggle_url(), {"done": "1"}, **HTMX)
    other = UserFactory()
    theirs = browser_of(other)
    theirs.handler.enforce_csrf_checks = False
    answer = theirs.post(toggle_url(), {"done": "1"}, **HTMX)

    assert "3 of 7" in element_by_id(mine.content, "phase-progress").text
    assert "1 of 7" in element_by_id(answer.content, "phase-progress").text
    expected = weighted_percent({"core-ml": 1})
    assert f"{expected}%" in element_by_id(answer.content, "header-readiness").text


def test_a_content_edit_shows_in_the_next_tick_answer(learner_client):
    learner_client.post(toggle_url(), {"done": "0"}, **HTMX)
    check = SelfCheck.objects.get(slug=FIRST_CHECK)
    check.prompt = "Why do residual connections keep gradients alive? (edited)"
    check.save()  # an admin save: the content version moves

    answer = learner_client.post(toggle_url(), {"done": "0"}, **HTMX)

    assert "(edited)" in element_by_id(answer.content, f"check-{FIRST_CHECK}").text


# A tick is the card's first review; confidence re-rates it


def confidence_url(slug: str = FIRST_CHECK) -> str:
    return reverse("progress:selfcheck-confidence", args=[slug])


# FSRS as the app runs it, without fuzz: stability and difficulty are fuzz-free, the due date not.
FSRS = fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def first_review(rating: fsrs.Rating, when: datetime.datetime) -> fsrs.Card:
    card, _ = FSRS.review_card(fsrs.Card(card_id=0, due=when), rating, when)
    return card


def card_of(user, slug: str = FIRST_CHECK) -> CheckOff:
    return CheckOff.objects.get(user=user, self_check__slug=slug)


def schedule_of(user, slug: str = FIRST_CHECK) -> tuple:
    row = card_of(user, slug)
    return row.confidence, row.memory, row.reviews


def days_out(row: CheckOff) -> float:
    return (row.due - row.last_review) / datetime.timedelta(days=1)


def assert_first_review(row: CheckOff, rating: fsrs.Rating) -> None:
    """The card is scheduled as FSRS schedules a new card's first review at the tick."""
    expected = first_review(rating, row.done_at)
    assert row.reviews == 1
    assert row.last_review == row.done_at
    assert row.state == fsrs.State.Review
    assert row.stability == pytest.approx(expected.stability)
    assert row.difficulty == pytest.approx(expected.difficulty)


def test_a_plain_tick_is_a_first_review_rated_knew_it(learner_client, learner):
    learner_client.post(toggle_url(), {"done": "1"})

    row = card_of(learner)
    assert row.confidence == ""
    assert_first_review(row, fsrs.Rating.Good)
    # FSRS's Good on a new card: back in about two days (fuzz moves a longer interval only).
    assert 1 <= days_out(row) <= 4


def test_saying_shaky_re_rates_the_tick_as_hard(learner_client, learner):
    tick(learner, FIRST_CHECK)
    plain = card_of(learner)

    response = learner_client.post(confidence_url(), {"confidence": "shaky"})

    assertRedirects(response, f"{phase_url()}#check-{FIRST_CHECK}", fetch_redirect_response=False)
    row = card_of(learner)
    assert row.confidence == "shaky"
    assert_first_review(row, fsrs.Rating.Hard)
    assert row.stability < plain.stability
    assert days_out(row) == 1  # FSRS's Hard on a new card: tomorrow


def test_saying_solid_re_rates_the_tick_as_easy(learner_client, learner):
    tick(learner, FIRST_CHECK)
    plain = card_of(learner)

    learner_client.post(confidence_url(), {"confidence": "solid"})

    row = card_of(learner)
    assert row.confidence == "solid"
    assert_first_review(row, fsrs.Rating.Easy)
    assert row.stability > plain.stability
    assert row.due > plain.due
    # FSRS's Easy on a new card: eight days, fuzzed into 6 to 11 (fsrs draws a whole number of
    # days from 6 to 10 plus a fraction, then rounds).
    assert 6 <= days_out(row) <= 11


def test_changing_ones_mind_before_a_review_re_rates_the_same_tick(learner_client, learner):
    # Solid then shaky: the card is scheduled afresh from the tick, not pushed out twice.
    set_done(user=learner, self_check_id=check_id(), done=True, now=days_ago(3))

    learner_client.post(confidence_url(), {"confidence": "solid"})
    learner_client.post(confidence_url(), {"confidence": "shaky"})

    row = card_of(learner)
    assert row.done_at == days_ago(3)
    assert_first_review(row, fsrs.Rating.Hard)
    assert row.due == days_ago(2)


def test_saying_the_same_confidence_twice_changes_nothing(learner_client, learner):
    tick(learner, FIRST_CHECK)
    learner_client.post(confidence_url(), {"confidence": "solid"})
    before = schedule_of(learner)

    response = learner_client.post(confidence_url(), {"confidence": "solid"})

    assert response.status_code == 302
    assert schedule_of(learner) == before


def test_after_a_review_a_confidence_only_relabels_the_check(learner_client, learner):
    set_done(user=learner, self_check_id=check_id(), done=True, now=days_ago(5))
    review_check(user=learner, self_check_id=check_id(), rating=fsrs.Rating.Good, now=days_ago(3))
    reviewed = card_of(learner)
    assert reviewed.reviews == 2

    # Switching back and forth buys no memory: reviews happen on the Review page, when due.
    for confidence in ("shaky", "solid", "shaky", "solid", "shaky"):
        learner_client.post(confidence_url(), {"confidence": confidence})

    row = card_of(learner)
    assert row.confidence == "shaky"
    assert (row.memory, row.reviews) == (reviewed.memory, reviewed.reviews)


def test_saying_shaky_with_htmx_answers_the_row_with_shaky_pressed(learner_client, learner):
    tick(learner, FIRST_CHECK)

    response = learner_client.post(confidence_url(), {"confidence": "shaky"}, **HTMX)

    assert response.status_code == 200
    row = element_by_id(response.content, f"check-{FIRST_CHECK}")
    assert row.depth == 0 and row.tag == "li"
    chips = {e.text: e for e in elements(response.content) if "chip" in e.classes}
    assert chips["Shaky"].attrs["aria-pressed"] == "true"
    assert "chip-on" in chips["Shaky"].classes
    assert chips["Solid"].attrs["aria-pressed"] == "false"
    # The row still says done, and its tick button still unticks.
    assertContains(response, 'aria-pressed="true" aria-label="Done:')
    # It says when the card comes back, as FSRS's Hard scheduled it.
    assert_first_review(card_of(learner), fsrs.Rating.Hard)
    due_day = timezone.localdate(card_of(learner).due)
    assert f"Back for review on {date_format(due_day, 'D j M')}." in row.text


def test_the_phase_page_shows_the_confidence_chips_only_on_ticked_checks(learner_client, learner):
    tick(learner, FIRST_CHECK)
    learner_client.post(confidence_url(), {"confidence": "solid"})

    response = learner_client.get(phase_url())

    row = element_by_id(response.content, f"check-{FIRST_CHECK}")
    pressed = [
        e.text
        for e in elements(response.content)
        if "chip" in e.classes and e.attrs.get("aria-pressed") == "true"
    ]
    assert pressed == ["Solid"]
    assert "How well do you know it?" in row.text
    assert (
        "How well do you know it?" not in element_by_id(response.content, "check-p1-backprop").text
    )


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_confidence_on_an_unticked_check_is_refused_and_ticks_nothing(learner_client, headers):
    response = learner_client.post(confidence_url(), {"confidence": "shaky"}, **headers)

    assert response.status_code == 400
    assert not CheckOff.objects.exists()


@pytest.mark.parametrize("value", ["", "SHAKY", "unsure", "solid "])
def test_a_confidence_that_is_not_shaky_or_solid_is_refused(learner_client, learner, value):
    tick(learner, FIRST_CHECK)
    before = schedule_of(learner)

    response = learner_client.post(confidence_url(), {"confidence": value})

    assert response.status_code == 400
    assert schedule_of(learner) == before


def test_confidence_on_an_unknown_check_is_a_404(learner_client):
    response = learner_client.post(confidence_url("no-such-check"), {"confidence": "shaky"})

    assert response.status_code == 404


def test_confidence_only_changes_my_own_tick(learner_client, learner):
    other = UserFactory()
    tick(other, FIRST_CHECK)
    tick(learner, FIRST_CHECK)
    before = schedule_of(other)

    learner_client.post(confidence_url(), {"confidence": "shaky"})

    assert schedule_of(other) == before
    assert schedule_of(learner)[0] == "shaky"


def test_an_htmx_tick_then_an_htmx_rating_answers_the_rated_row(learner_client, learner):
    # All over HTTP, as a browser with htmx does it: the second answer is drawn from the row the
    # first one wrote, never from an earlier state of it.
    ticked = learner_client.post(toggle_url(), {"done": "1"}, **HTMX)
    assert "Done" in element_by_id(ticked.content, f"check-{FIRST_CHECK}").text

    rated = learner_client.post(confidence_url(), {"confidence": "shaky"}, **HTMX)

    row = element_by_id(rated.content, f"check-{FIRST_CHECK}")
    chips = {e.text: e for e in elements(rated.content) if "chip" in e.classes}
    assert chips["Shaky"].attrs["aria-pressed"] == "true"
    assert chips["Solid"].attrs["aria-pressed"] == "false"
    due_day = timezone.localdate(card_of(learner).due)
    assert f"Back for review on {date_format(due_day, 'D j M')}." in row.text
    page = learner_client.get(phase_url())
    pressed = [
        e.text
        for e in elements(page.content)
        if "chip" in e.classes and e.attrs.get("aria-pressed") == "true"
    ]
    assert pressed == ["Shaky"]
