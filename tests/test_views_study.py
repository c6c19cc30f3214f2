"""Phase pages and ticking a self-check done or not done, with and without htmx."""

import re

import pytest
from django.urls import reverse
from django.utils.html import escape
from pytest_django.asserts import assertContains, assertRedirects

from phases.models import Domain, Phase, SelfCheck, Topic
from progress.models import CheckOff
from tests.factories import element_by_id, elements, tick

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
DETAILS = re.compile(r"<details\b.*?</details>", re.DOTALL)


def phase_url(slug: str = PHASE_ONE) -> str:
    return reverse("progress:phase", args=[slug])


def toggle_url(slug: str = FIRST_CHECK) -> str:
    return reverse("progress:selfcheck-toggle", args=[slug])


def weighted_percent(done: dict[str, int]) -> int:
    """Exam-weighted readiness from {domain slug: checks done}, worked out from the syllabus."""
    total = 0.0
    for domain in Domain.objects.all():
        count = SelfCheck.objects.current().filter(domain=domain).count()
        total += domain.exam_weight * done.get(domain.slug, 0) / count
    return round(100 * total / sum(Domain.objects.values_list("exam_weight", flat=True)))


def text(html) -> str:
    return " ".join(element.text for element in elements(html) if element.depth == 0)


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


def test_phase_five_shows_the_topics_of_both_its_domains(learner_client):
    response = learner_client.get(phase_url("analysis-and-optimization"))

    for domain in ("data-analysis", "performance-optimization"):
        for topic in Topic.objects.filter(domain__slug=domain):
            assertContains(response, escape(topic.summary))


@pytest.mark.parametrize("slug", PHASE_SLUGS)
def test_each_self_check_shows_its_prompt_with_the_answer_hidden_in_details(learner_client, slug):
    checks = SelfCheck.objects.filter(phase__slug=slug)
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
        for slug in SelfCheck.objects.filter(phase__slug=PHASE_ONE).values_list("slug", flat=True)
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

    forms = [e for e in elements(response.content) if e.tag == "form" and "hx-post" in e.attrs]
    assert len(forms) == 7
    for form in forms:
        assert form.attrs["method"] == "post"
        assert form.attrs["action"] == form.attrs["hx-post"]
        names = {child.attrs.get("name") for child in form.children}
        assert {"csrfmiddlewaretoken", "done"} <= names


def test_unknown_phase_is_a_404(learner_client):
    assert learner_client.get(phase_url("phase-seven")).status_code == 404


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
    assert "nothing was changed" in response.text
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
    assert weighted_percent({"core-ml": 2}) == 7
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
