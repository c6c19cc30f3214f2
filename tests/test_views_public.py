import re

import pytest
from django.urls import reverse
from django.utils.html import escape
from pytest_django.asserts import assertContains, assertNotContains

from phases.models import Domain, Phase, Topic
from tests.html import POLICY, directives, elements, page_text

pytestmark = pytest.mark.django_db

HEAVIEST_FIRST = [
    ("Experimentation", 25),
    ("Core Machine Learning and AI Knowledge", 20),
    ("Multimodal Data", 15),
    ("Software Development", 15),
    ("Data Analysis", 10),
    ("Performance Optimization", 10),
    ("Trustworthy AI", 5),
]
TRAPS = [
    "Gradient flow, not parameter reduction",
    "evidence of where weight went, not proof of reasoning",
    "provenance, watermarking, disclosure, detection",
]
PUBLISHED = ["ddpm-forward-reverse", "fid", "clip-shared-embedding-space"]


def test_home_lists_the_seven_domains_heaviest_first_with_weights(client, syllabus):
    response = client.get(reverse("phases:home"))

    assert response.status_code == 200
    listed = re.findall(
        r'class="domain-name">([^<]+)</span>\s*<span class="domain-weight">(\d+)%',
        response.text,
    )
    assert [(name, int(weight)) for name, weight in listed] == HEAVIEST_FIRST
    assert {name for name, _ in HEAVIEST_FIRST} == set(
        Domain.objects.values_list("name", flat=True)
    )


def test_home_invites_a_visitor_to_sign_up(client, syllabus):
    response = client.get(reverse("phases:home"))

    # The call to action in the page itself, not only the header's link.
    call_to_action = response.text.split('class="cta"', 1)[1].split("</p>", 1)[0]
    assert f'href="{reverse("account_signup")}"' in call_to_action
    assertContains(response, f'href="{reverse("phases:syllabus")}"')


def test_home_sends_a_signed_in_learner_to_the_dashboard(learner_client):
    response = learner_client.get(reverse("phases:home"))

    assertContains(response, f'href="{reverse("progress:dashboard")}"')
    assertNotContains(response, f'href="{reverse("account_signup")}"')


def test_home_shows_the_three_schedules_with_standard_recommended(client, syllabus):
    response = client.get(reverse("phases:home"))

    for name in ["Fast track", "Standard", "Extended"]:
        assertContains(response, f"<h3>{name}")
    assertContains(response, 'Standard <span class="badge">Recommended</span>', count=1)
    assertContains(response, "Recommended", count=1)


def test_syllabus_lists_every_phase_and_topic(client, syllabus):
    response = client.get(reverse("phases:syllabus"))

    assert response.status_code == 200
    for phase in Phase.objects.all():
        assertContains(response, f"Phase {phase.number}: {escape(phase.title)}")
        assertContains(response, escape(phase.goal))
        assertContains(response, escape(phase.practice_exercise))
    for topic in Topic.objects.all():
        assertContains(response, f'<h4 class="topic-title">{escape(topic.title)}', count=1)
        assertContains(response, escape(topic.summary))


def test_syllabus_shows_the_traps(client, syllabus):
    response = client.get(reverse("phases:syllabus"))

    for trap in TRAPS:
        assertContains(response, trap)
    for trap in Topic.objects.exclude(trap="").values_list("trap", flat=True):
        assertContains(response, escape(trap))


def test_syllabus_badges_exactly_the_published_guides(client, syllabus):
    response = client.get(reverse("phases:syllabus"))

    assertContains(response, "Published guide", count=3)
    for topic in Topic.objects.filter(slug__in=PUBLISHED):
        assertContains(
            response, f'{escape(topic.title)} <span class="badge">Published guide</span>'
        )


def test_syllabus_shows_each_phase_domains_with_weights(client, syllabus):
    response = client.get(reverse("phases:syllabus"))

    section = response.text.split('id="analysis-and-optimization"', 1)[1].split("</section>")[0]
    assert "Data Analysis · 10%" in section
    assert "Performance Optimization · 10%" in section
    assert "Trustworthy AI" not in section


@pytest.mark.parametrize(
    "url",
    [
        reverse("phases:home"),
        reverse("phases:syllabus"),
        reverse("account_login"),
        "/no-such-page/",
    ],
    ids=["home", "syllabus", "login", "not-found"],
)
def test_public_pages_carry_the_content_security_policy(client, syllabus, url):
    response = client.get(url)

    assert directives(response.headers["Content-Security-Policy"]) == POLICY
    assert "Content-Security-Policy-Report-Only" not in response.headers


def test_healthz_says_ok_without_touching_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"].startswith("text/plain")


def test_healthz_makes_no_query_for_a_logged_in_client_either(
    learner_client, django_assert_num_queries
):
    # A load balancer's check may carry a session cookie: still no session read, no user.
    assert "sessionid" in learner_client.cookies
    with django_assert_num_queries(0):
        response = learner_client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok"


def test_healthz_refuses_post(client):
    response = client.post("/healthz")

    assert response.status_code == 405


def test_unknown_url_is_not_found(client):
    assert client.get("/no-such-page/").status_code == 404


def test_home_query_count_is_pinned(client, syllabus, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        response = client.get(reverse("phases:home"))

    assert response.status_code == 200


def test_syllabus_query_count_is_pinned(client, syllabus, django_assert_max_num_queries):
    # However long the syllabus, four: the phases, then one prefetch each for their domains, the
    # domains' topics and the topics' sub-areas.
    with django_assert_max_num_queries(4):
        response = client.get(reverse("phases:syllabus"))

    assert response.status_code == 200


def test_the_home_pages_weight_bars_are_shares_of_the_whole_exam(client, syllabus):
    from phases.models import Domain

    response = client.get("/")

    fills = [e for e in elements(response.content) if "weight-bar-fill" in e.classes]
    weights = list(
        Domain.objects.order_by("-exam_weight", "study_order").values_list("exam_weight", flat=True)
    )
    assert [int(e.attrs["width"]) for e in fills] == weights  # of a track 100 wide
    assert "Each bar is the domain's share of the whole exam." in page_text(response.content)


def test_the_phone_menu_offers_the_dashboard(learner_client):
    response = learner_client.get(reverse("progress:plan-choose"))

    (more,) = [e for e in elements(response.content) if "nav-more" in e.classes]
    assert "Dashboard" in more.text
