"""Every page a visitor and a learner reach is valid HTML to the W3C Nu Html Checker.

The pages are the accessibility walk's (seasoned.py), every phase's page, the not-found page and
a reminder's unsubscribe page, as an anonymous visitor and as the learner who has used every part
of the app. They are rendered over Django's test client (no browser: the checker reads the markup
as served), written to files and checked in one run of vnu.jar, which `make install-dev` installs
into .nu/ from npm. The one thing let through is htmx's `hx-*` attributes, which the checker
reports as not allowed.
"""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from phases.models import Phase
from progress.accounts.reminders import unsubscribe_token
from progress.exercises.models import MAX_CHARS
from progress.models import QuestionCard
from tests.e2e.seasoned import (
    PUBLIC_PAGES,
    RETRIEVAL_PHASE,
    REVEALED,
    Learner,
    answering_learner,
    learner_pages,
    make_short_notice,
    mock_pages,
)

ROOT = Path(__file__).resolve().parents[2]
VNU_JAR = ROOT / ".nu" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
# "Attribute “hx-post” not allowed on element “button” at this point."
EXERCISE = "/study/core-ml-foundations/exercise/"
HTMX_ATTRIBUTE = re.compile(r"^Attribute “hx-[a-z-]+” not allowed on element “[a-z0-9]+”")


def render(
    client: Client, paths: list[str], folder: Path, pages: dict[str, str], *, status: int = 200
) -> None:
    """Write each page to its own file in ``folder``; ``pages`` maps the file's name to the path."""
    for path in paths:
        response = client.get(path)
        assert response.status_code == status, f"{path}: HTTP {response.status_code}"
        file = folder / f"page-{len(pages):02d}.html"
        file.write_bytes(response.content)
        pages[file.name] = path


def vnu_command() -> list[str]:
    """How to run the checker. Without Java or the jar: a skip on a workstation, a failure in CI
    (the CI variable), where a silent skip would hide invalid pages, as for Chromium."""
    java = shutil.which("java")
    reason = None
    if java is None:
        reason = "No java for the Nu Html Checker: apt-get install default-jre-headless"
    elif not VNU_JAR.is_file():
        reason = f"The Nu Html Checker is not installed ({VNU_JAR}): run make install-dev"
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    return [java, "-jar", str(VNU_JAR), "--format", "json", "--skip-non-html"]


def vnu(command: list[str], files: list[str]) -> list[dict]:
    """The checker's messages for ``files`` (its JSON report goes to stderr)."""
    result = subprocess.run(
        [*command, *files], capture_output=True, text=True, timeout=300, check=False
    )
    try:
        return json.loads(result.stderr)["messages"]
    except (ValueError, KeyError):
        pytest.fail(f"vnu.jar exited {result.returncode} without a report: {result.stderr[:2000]}")


def describe(message: dict, pages: dict[str, str]) -> str:
    url = message.get("url", "?")  # file:/tmp/…/page-03.html
    where = pages.get(url.rsplit("/", 1)[-1], url)
    line = message.get("lastLine", "?")
    extract = " ".join(message.get("extract", "").split())
    return f"{where} line {line}: {message['type']}: {message['message']}\n    {extract}"


def test_every_page_is_valid_html(client: Client, seasoned: Learner, tmp_path: Path):
    command = vnu_command()
    pages: dict[str, str] = {}
    # Beyond the walk: the pages a link in a reminder and a mistyped address lead to.
    render(client, PUBLIC_PAGES, tmp_path, pages)
    render(
        client, [f"/reminders/unsubscribe/{unsubscribe_token(seasoned.user.pk)}/"], tmp_path, pages
    )
    render(client, ["/no-such-page/"], tmp_path, pages, status=404)
    client.force_login(seasoned.user)
    render(client, learner_pages(seasoned), tmp_path, pages)
    # Every phase's page, not only the walk's two: each has its own topics and checks.
    walked = set(learner_pages(seasoned))
    phases = [f"/study/{slug}/" for slug in Phase.objects.values_list("slug", flat=True)]
    render(client, [path for path in phases if path not in walked], tmp_path, pages)
    render(client, ["/no-such-page/"], tmp_path, pages, status=404)
    # A refused form, its messages in place: "I studied 0 minutes".
    refused = client.post("/study/core-ml-foundations/time/", {"minutes": "0"})
    assert refused.status_code == 400
    (tmp_path / f"page-{len(pages):02d}.html").write_bytes(refused.content)
    pages[f"page-{len(pages):02d}.html"] = "/study/core-ml-foundations/time/ (refused)"
    # A written exercise refused for its length: the page that keeps what was typed.
    too_long = client.post(EXERCISE, {"text": "x" * (MAX_CHARS + 1)})
    assert too_long.status_code == 400
    (tmp_path / f"page-{len(pages):02d}.html").write_bytes(too_long.content)
    pages[f"page-{len(pages):02d}.html"] = f"POST {EXERCISE} (too long)"
    seasoned.open_a_mock()
    render(client, mock_pages(seasoned), tmp_path, pages)
    # A short-notice learner: the day-by-day plan and the placement's result.
    hedy, short_notice_pages = make_short_notice()
    client.force_login(hedy)
    render(client, short_notice_pages, tmp_path, pages)

    messages = vnu(command, [str(tmp_path / name) for name in pages])
    problems = [
        describe(message, pages)
        for message in messages
        if message["type"] != "info" and not HTMX_ATTRIBUTE.match(message.get("message", ""))
    ]
    assert not problems, f"{len(problems)} from the Nu Html Checker:\n" + "\n".join(problems)


def test_answering_from_memory_is_valid_html(client: Client, site: str, tmp_path: Path):
    """The states of retrieval, then the rating: a revealed row and "not yet" rows on a phase
    page; on the Review page a missed question asked again, its verdict, and a "not yet" card
    revealed."""
    command = vnu_command()
    client.force_login(answering_learner())
    pages: dict[str, str] = {}
    client.post(f"/study/checks/{REVEALED}/reveal/", {"answer": "Loss, then gradients."})
    render(client, [RETRIEVAL_PHASE, "/review/"], tmp_path, pages)
    card = QuestionCard.objects.get(user__username="hopper")
    places = [str(place) for place in range(1, len(card.question.correct_options) + 1)]
    assert client.post(f"/review/questions/{card.pk}/", {"option": places}).status_code == 302
    render(client, ["/review/"], tmp_path, pages)  # the verdict, once
    revealed = client.post("/review/reveal/", {"answer": "Early, late or in between."})
    (tmp_path / "page-revealed.html").write_bytes(revealed.content)
    pages["page-revealed.html"] = "/review/reveal/ (a not-yet card)"

    messages = vnu(command, [str(tmp_path / name) for name in pages])
    problems = [
        describe(message, pages)
        for message in messages
        if message["type"] != "info" and not HTMX_ATTRIBUTE.match(message.get("message", ""))
    ]
    assert not problems, f"{len(problems)} from the Nu Html Checker:\n" + "\n".join(problems)
