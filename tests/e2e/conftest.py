"""Real Chromium, driven by Playwright, against pytest-django's live server.

Debian's Chromium is used as installed (never `playwright install`): the tests skip without it
on a workstation, and fail without it in CI, where a silent skip would hide a broken journey.

The journeys make their learners as a learner would (the sign-up form) or through Django's own
user manager, and reach for no test factory: what they exercise is the app, end to end.
"""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django would otherwise refuse the
# database work that fixtures (flush, syllabus reload) do around each test.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright  # noqa: E402

from phases.models import Domain  # noqa: E402
from tests.conftest import load_syllabus  # noqa: E402
from tests.e2e.seasoned import Learner, make_seasoned  # noqa: E402
from tests.e2e.steps import PASSWORD  # noqa: E402

E2E_DIR = Path(__file__).resolve().parent
TIMEOUT_MS = 10_000
CHROMIUM_ARGS = [
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # A conftest hook sees every collected item, not only this folder's: mark ours alone.
    for item in items:
        if item.path.is_relative_to(E2E_DIR):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    executable = shutil.which("chromium")
    if executable is None:
        reason = "Chromium is not installed (no `chromium` on PATH): apt-get install -y chromium"
        if os.environ.get("CI"):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    expect.set_options(timeout=TIMEOUT_MS)
    browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def site(transactional_db, live_server) -> str:
    """The live server's base URL, with the syllabus in the database it serves.

    The live server only sees committed rows, hence `transactional_db`; its flush after every
    test empties the syllabus tables, so the content is put back here when it is missing (with
    a new content version, so no stale in-process snapshot survives), and the cache emptied.
    """
    if not Domain.objects.exists():
        load_syllabus()
    cache.clear()
    return live_server.url


@pytest.fixture
def learner(site: str):
    """A learner with an account and nothing else: no plan, no ticks, no attempts."""
    return get_user_model().objects.create_user(username="grace", password=PASSWORD)


@pytest.fixture
def seasoned(site: str, settings) -> Learner:
    """A learner three weeks into a standard plan who has used every page (seasoned.py)."""
    return make_seasoned(settings)


def _new_page(browser: Browser, base_url: str, **context_options) -> Iterator[Page]:
    # The browser's zone is proposed at sign-up: pin it, so no journey depends on the host's.
    context_options.setdefault("timezone_id", "UTC")
    context = browser.new_context(base_url=base_url, **context_options)
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    page = context.new_page()
    # A journey can look right while a script crashes or a background request fails.
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"uncaught JavaScript error: {error}"))
    # Our Content-Security-Policy must never block anything our own pages ask for.
    page.on(
        "console",
        lambda message: (
            problems.append(f"console: {message.text}")
            if message.type == "error" and "Content Security Policy" in message.text
            else None
        ),
    )
    page.on(
        "response",
        lambda response: (
            problems.append(f"HTTP {response.status} from {response.request.method} {response.url}")
            if response.status >= 500
            else None
        ),
    )
    yield page
    # Closed before the database flush, so no request of this test is still being served.
    context.close()
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture
def page(browser: Browser, site: str) -> Iterator[Page]:
    yield from _new_page(browser, site)


@pytest.fixture
def page_without_js(browser: Browser, site: str) -> Iterator[Page]:
    yield from _new_page(browser, site, java_script_enabled=False)
