"""Studying: the phase pages, ticking a self-check done or not done, and saying how well it is
known, with and without htmx."""

import datetime
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from pytest_django.asserts import assertContains, assertRedirects

from phases.content import content_changed
from phases.models import Domain, Intensity, Phase, PhaseHours, SelfCheck, SubArea, Topic
from phases.schedule import lay_out
from progress.models import CheckOff
from tests.conftest import HTMX
from tests.factories import UserFactory, answer_from_memory, make_plan, tick
from tests.html import element_by_id, elements, without_csrf

pytestmark = pytest.mark.django_db

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


def standing(user):
    """The learner's standing ticks: an untick keeps the card's row, with unticked_at set."""
    return CheckOff.objects.filter(user=user).ticked()


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


@pytest.mark.parametrize("path", ["phase", "syllabus"])
def test_each_topic_names_the_exam_s_sub_areas_asked_inside_it(learner_client, path):
    slug = "multimodal-data"
    url = phase_url(slug) if path == "phase" else reverse("phases:syllabus")
    response = learner_client.get(url)
    assert response.status_code == 200

    html = response.content.decode()
    subareas = SubArea.objects.filter(topic__domain__phases__slug=slug).select_related("topic")
    assert subareas.exists()
    for subarea in subareas:
        topic = element_by_id(html, f"topic-{subarea.topic.slug}")
        assert "Also asked here: " in topic.text
        assert subarea.title in topic.text, (subarea.topic.slug, subarea.title)


def test_phase_five_shows_the_topics_of_both_its_domains(learner_client):
    response = learner_client.get(phase_url("analysis-and-optimization"))

    for domain in ("data-analysis", "performance-optimization"):
        for topic in Topic.objects.filter(domain__slug=domain):
            assertContains(response, escape(topic.summary))


@pytest.mark.parametrize("slug", PHASE_SLUGS)
def test_no_reference_answer_is_on_the_page_until_it_is_revealed_or_ticked(
    learner_client, learner, slug
):
    checks = list(SelfCheck.objects.current().filter(phase__slug=slug))
    assert len(checks) >= 5
    tick(learner, checks[0].slug)

    html = learner_client.get(phase_url(slug)).content.decode()

    answers = " ".join(DETAILS.findall(html))
    outside_answers = DETAILS.sub("", html)
    for check in checks:
        row = element_by_id(html, f"check-{check.slug}")
        assert " ".join(check.prompt.split()) in row.text
        assert escape(check.answer) not in outside_answers
    # A ticked check keeps its reference answer, folded away.
    assert escape(checks[0].answer) in answers
    for check in checks[1:]:
        assert escape(check.answer) not in answers


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
    assert (
        "Reveal the reference answer" in element_by_id(response.content, "check-p1-backprop").text
    )
    assert "2 of 7" in element_by_id(response.content, "phase-progress").text


def test_every_reveal_form_works_without_javascript(learner_client):
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
        assert form.attrs["action"].endswith("/reveal/")
        names = {child.attrs.get("name") for child in form.children}
        assert {"csrfmiddlewaretoken", "answer"} <= names


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
    response = answer_from_memory(learner_client, FIRST_CHECK)

    assertRedirects(response, f"{phase_url()}#check-{FIRST_CHECK}", fetch_redirect_response=False)
    assert list(
        CheckOff.objects.filter(user=learner).values_list("self_check__slug", flat=True)
    ) == [FIRST_CHECK]


def test_ticking_twice_leaves_one_check_off(learner_client, learner):
    answer_from_memory(learner_client, FIRST_CHECK)
    response = answer_from_memory(learner_client, FIRST_CHECK)

    assert response.status_code == 302
    assert CheckOff.objects.filter(user=learner).count() == 1
    assert standing(learner).count() == 1


def test_unticking_takes_the_tick_away_and_keeps_the_card(learner_client, learner):
    tick(learner, FIRST_CHECK, "p1-backprop")
    before = CheckOff.objects.get(user=learner, self_check__slug=FIRST_CHECK)

    response = learner_client.post(toggle_url(), {"done": "0"})

    assert response.status_code == 302
    assert list(standing(learner).values_list("self_check__slug", flat=True)) == ["p1-backprop"]
    # The card and its history stay, marked unticked: only the untick changed on it.
    after = CheckOff.objects.get(user=learner, self_check__slug=FIRST_CHECK)
    assert after.unticked_at is not None
    assert (after.done_at, after.due, after.stability, after.reviews) == (
        before.done_at,
        before.due,
        before.stability,
        before.reviews,
    )
    assert CheckOff.objects.filter(user=learner).count() == 2


def test_unticking_a_check_never_ticked_is_harmless(learner_client, learner):
    response = learner_client.post(toggle_url(), {"done": "0"})

    assertRedirects(response, f"{phase_url()}#check-{FIRST_CHECK}", fetch_redirect_response=False)
    assert not CheckOff.objects.exists()


# done=1 too: a tick is how an answer from memory went, said after the reveal.
@pytest.mark.parametrize("form", [{}, {"done": ""}, {"done": "yes"}, {"done": "2"}, {"done": "1"}])
def test_a_post_that_does_not_say_done_or_not_is_refused_and_changes_nothing(
    learner_client, learner, form
):
    # The untick form says done=0; anything else is not a learner's click.
    tick(learner, FIRST_CHECK)

    response = learner_client.post(toggle_url(), form)

    assert response.status_code == 400
    assert "Nothing was changed." in response.text
    assert CheckOff.objects.filter(user=learner).count() == 1
    assert standing(learner).count() == 1  # not unticked either


def test_after_the_redirect_the_phase_page_shows_the_tick(learner_client):
    response = answer_from_memory(learner_client, FIRST_CHECK, follow=True)

    assert response.status_code == 200
    assert "Done" in element_by_id(response.content, f"check-{FIRST_CHECK}").text
    assert "1 of 7" in element_by_id(response.content, "phase-progress").text


def test_next_on_our_own_site_is_followed(learner_client):
    dashboard = reverse("progress:dashboard")

    response = answer_from_memory(learner_client, FIRST_CHECK, next=dashboard)

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
    response = answer_from_memory(learner_client, FIRST_CHECK, next=target)

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

    response = answer_from_memory(learner_client, FIRST_CHECK)

    assert response.status_code == 404
    assert not CheckOff.objects.exists()


# Ticking with htmx


def test_htmx_tick_answers_with_the_row_and_out_of_band_progress(learner_client, learner):
    tick(learner, "p1-backprop")

    response = answer_from_memory(learner_client, FIRST_CHECK, **HTMX)

    assert response.status_code == 200
    assert b"<html" not in response.content
    assert len(response.content) < 4096
    assert CheckOff.objects.filter(user=learner).count() == 2
    assert standing(learner).count() == 2

    row = element_by_id(response.content, f"check-{FIRST_CHECK}")
    assert row.depth == 0
    assert "Done" in row.text
    assert "Reveal the reference answer" not in row.text

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
    assert "Reveal the reference answer" in row.text
    assert "2 of 7" in element_by_id(response.content, "phase-progress").text
    expected = weighted_percent({"core-ml": 1, "multimodal-data": 1})
    assert f"{expected}%" in element_by_id(response.content, "header-readiness").text
    assert not standing(learner).filter(self_check__slug=FIRST_CHECK).exists()
    # The card stays, unticked.
    assert CheckOff.objects.get(user=learner, self_check__slug=FIRST_CHECK).unticked_at


def test_htmx_tick_twice_gives_the_same_answer_and_one_check_off(learner_client, learner):
    first = answer_from_memory(learner_client, FIRST_CHECK, **HTMX)
    second = answer_from_memory(learner_client, FIRST_CHECK, **HTMX)

    assert CheckOff.objects.filter(user=learner).count() == 1
    assert standing(learner).count() == 1
    for response in (first, second):
        assert "1 of 7" in element_by_id(response.content, "phase-progress").text


def test_htmx_untick_of_a_check_never_ticked_is_harmless(learner_client):
    response = learner_client.post(toggle_url(), {"done": "0"}, **HTMX)

    assert response.status_code == 200
    assert (
        "Reveal the reference answer"
        in element_by_id(response.content, f"check-{FIRST_CHECK}").text
    )
    assert "0 of 7" in element_by_id(response.content, "phase-progress").text
    assert not CheckOff.objects.exists()


def test_htmx_tick_row_posts_back_the_opposite(learner_client):
    response = answer_from_memory(learner_client, FIRST_CHECK, **HTMX)

    row = element_by_id(response.content, f"check-{FIRST_CHECK}")
    (form,) = [child for child in row.children if child.tag == "form"]
    (done,) = [child for child in form.children if child.attrs.get("name") == "done"]
    assert done.attrs["value"] == "0"
    assert form.attrs["hx-post"] == toggle_url()
    assert form.attrs["hx-target"] == f"#check-{FIRST_CHECK}"


def test_htmx_tick_in_phase_five_counts_that_phase(learner_client, learner):
    tick(learner, FIRST_CHECK)

    response = answer_from_memory(learner_client, "p5-attention-maps", **HTMX)

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

    if chooser.random() < 0.5:
        answer = answer_from_memory(learner_client, check.slug, **HTMX)
    else:
        answer = learner_client.post(toggle_url(check.slug), {"done": "0"}, **HTMX)
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
    tick(other, FIRST_CHECK)
    unticked = second.post(
        toggle_url(), {"done": "0", "csrfmiddlewaretoken": form_token(second_answer)}
    )
    assert unticked.status_code == 302
    assert not standing(other).filter(self_check__slug=FIRST_CHECK).exists()
    # Unticked, not deleted: its card stays, marked.
    assert CheckOff.objects.get(user=other, self_check__slug=FIRST_CHECK).unticked_at


def test_a_tick_answer_never_shows_another_learners_figures(learner_client, learner):
    tick(learner, "p1-backprop", "p1-fusion-tradeoff")
    mine = answer_from_memory(learner_client, FIRST_CHECK, **HTMX)
    other = UserFactory()
    theirs = browser_of(other)
    theirs.handler.enforce_csrf_checks = False
    answer = answer_from_memory(theirs, FIRST_CHECK, **HTMX)

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
