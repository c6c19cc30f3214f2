"""Each number that defines the product is written once: templates read it from the settings,
the rules or the syllabus, never as their own text."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from studyplan.templatetags.limits import rate_words
from tests.factories import mock_for

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# A template's own words: what is left once its tags and comments, then its HTML tags, are out.
TEMPLATE_TAGS = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
HTML_TAGS = re.compile(r"<[^>]*>", re.S)
# A quantity: a figure with its unit, or a count of the syllabus's parts in words.
UNITS = (
    "%|per ?cent|seconds?|minutes?|hours?|h|days?|weeks?|questions?|answers?|cards?|reviews?|"
    "phases?|domains?|topics?|schedules?|checks?|self-checks?|emails?|mails?|tries|attempts?"
)
QUANTITY = re.compile(
    rf"\b(?:\d+(?:[.,]\d+)?|two|three|four|five|six|seven|eight|nine|ten)\s*(?:{UNITS})\b",
    re.I,
)


def template_words(path: Path) -> str:
    return HTML_TAGS.sub(" ", TEMPLATE_TAGS.sub(" ", path.read_text()))


@pytest.mark.parametrize(
    "path",
    sorted(p for p in TEMPLATES.rglob("*") if p.suffix in {".html", ".txt"}),
    ids=lambda path: str(path.relative_to(TEMPLATES)),
)
def test_no_template_states_a_quantity_of_its_own(path):
    # Every figure a page or mail states comes from its context: a setting, a rule, the syllabus.
    quantities = QUANTITY.findall(template_words(path))

    assert quantities == [], f"{path.name} states {quantities} in its own words"


def test_the_scan_sees_a_quantity_in_a_templates_words(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(
        '<p data-n="90 seconds">{{ n }} seconds, {% if n > 1 %}90 seconds{% endif %} of the '
        "Seven domains, keys 1–{{ n }}</p>"
    )

    assert QUANTITY.findall(template_words(page)) == ["90 seconds", "Seven domains"]


def test_rate_limits_read_as_words():
    assert rate_words("10/h/ip,1/15m/key") == [
        "10 an hour from one network",
        "1 every 15 minutes for one address",
    ]
    assert rate_words("20/m/ip") == ["20 a minute from one network"]
    assert rate_words("3/2d/user, nonsense") == ["3 every 2 days for one account"]


def test_the_reset_page_states_the_limit_in_settings(client, db, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "reset_password": "2/30m/key"}

    page = client.get(reverse("account_reset_password"))

    assert "Reset emails are limited to 2 every 30 minutes for one address:" in page.text


def test_a_refused_reset_states_the_limits_in_settings(client, db, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "reset_password": "1/h/ip"}
    url = reverse("account_reset_password")
    client.post(url, {"email": "someone@example.com"})

    refused = client.post(url, {"email": "someone@example.com"})

    assert refused.status_code == 429
    assert "Reset emails are limited to 1 an hour from one network" in refused.text


def test_the_mock_pages_state_the_flag_time_in_settings(learner_client, learner, settings):
    settings.MOCK_FLAG_SECONDS = 75
    practice = learner_client.get(reverse("progress:practice"))
    mock = mock_for(learner)

    question = learner_client.get(reverse("progress:attempt", args=[mock.pk]))

    assert "Flag anything unresolved at 75 seconds" in practice.text
    assert "75 seconds on this one" in question.text
    assert 'data-seconds="75"' in question.text
