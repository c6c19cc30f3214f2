"""Every page, public and learner, at a phone's width and a laptop's, checked by axe-core in real
Chromium: no serious or critical violation, and at 390 px nothing scrolls sideways.

The learner has used every part of the app (a plan under way, ticks in several phases, reviews
due, a finished drill, a handed-in mock and an open one with a flag), so the pages show their
full tables, charts and badges rather than their empty states.
"""

import datetime
import random
from dataclasses import dataclass

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from phases.models import Domain, Intensity, SelfCheck
from progress.models import Attempt, CheckOff
from progress.services.plan import save_plan
from progress.services.practice import answer, flag, start_drill, start_mock, submit
from progress.services.study import set_done
from tests.e2e.steps import PASSWORD, log_in

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
BLOCKING = {"serious", "critical"}
TICKED = 14  # self-checks, every one due for review today
PUBLIC_PAGES = [
    "/",
    "/syllabus/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
]


@dataclass
class Learner:
    username: str
    drill: Attempt
    open_drill: Attempt
    user: object = None
    mock: Attempt | None = None

    def open_a_mock(self) -> None:
        """A live mock with a flag: once it is open no drill page opens, so it comes last."""
        now = timezone.now()
        self.mock = start_mock(user=self.user, now=now, rng=random.Random(8))
        _answer_half(self.user, self.mock, now, leave=4)
        first = self.mock.questions.get(position=1)
        flag(user=self.user, attempt=self.mock, item=first, flagged=True, now=now)


def _answer_half(user, attempt: Attempt, now: datetime.datetime, *, leave: int = 0) -> None:
    """Answer every question but the last ``leave``, alternately right and wrong."""
    items = list(attempt.questions.select_related("question").order_by("position"))
    for index, item in enumerate(items[: len(items) - leave]):
        correct = sorted(item.question.correct_options)
        wrong = [i for i in range(len(item.question.options)) if i not in correct][:1]
        chosen = correct if index % 2 == 0 else wrong + correct[1:]
        answer(user=user, attempt=attempt, item=item, chosen=chosen, now=now)


@pytest.fixture
def seasoned(site: str, settings) -> Learner:
    """A learner three weeks into a standard plan who has used every page."""
    settings.MOCK_QUESTIONS = 8
    user = get_user_model().objects.create_user(username="margaret", password=PASSWORD)
    today = timezone.localdate()
    now = timezone.now()
    rng = random.Random(7)
    save_plan(
        user=user,
        intensity=Intensity.objects.get(is_default=True),
        start_date=today - datetime.timedelta(days=21),
        exam_date=today + datetime.timedelta(days=30),
        today=today,
    )
    checks = list(SelfCheck.objects.current().order_by("phase__number", "order"))
    for check in checks[::2][:TICKED]:
        set_done(user=user, self_check_id=check.pk, done=True)
    CheckOff.objects.filter(user=user).update(due=now)  # the review queue has cards
    drill = start_drill(user=user, domain=Domain.objects.get(slug="core-ml"), now=now, rng=rng)
    _answer_half(user, drill, now)
    submit(user=user, attempt=drill, now=now)
    open_drill = start_drill(
        user=user, domain=Domain.objects.get(slug="experimentation"), now=now, rng=rng
    )
    _answer_half(user, open_drill, now, leave=len(open_drill.questions.all()) - 1)
    handed_in = start_mock(user=user, now=now, rng=rng)
    _answer_half(user, handed_in, now, leave=3)
    submit(user=user, attempt=handed_in, now=now)
    return Learner(username=user.username, drill=drill, open_drill=open_drill, user=user)


def learner_pages(learner: Learner) -> list[str]:
    return [
        "/dashboard/",
        "/plan/",
        "/plan/choose/",
        "/study/core-ml-foundations/",
        "/study/experimentation/",
        "/review/",
        "/practice/",
        f"/practice/{learner.open_drill.pk}/?q=1",  # answered: the key and the explanation
        f"/practice/{learner.open_drill.pk}/?q=2",
        f"/practice/{learner.drill.pk}/result/",
        f"/practice/{learner.drill.pk}/result/?show=wrong",
        "/practice/history/",
        # The report form, for the drill's first question (answered, so its key was shown).
        f"/questions/{learner.drill.questions.get(position=1).question.slug}/report/",
        "/account/",
        "/accounts/email/",
        "/accounts/password/change/",
        "/accounts/logout/",
    ]


def mock_pages(learner: Learner) -> list[str]:
    assert learner.mock is not None
    return [
        "/practice/",
        f"/practice/{learner.mock.pk}/?q=1",
        f"/practice/{learner.mock.pk}/?q=8",
        f"/practice/{learner.mock.pk}/flagged/",
    ]


def describe(violation: dict) -> str:
    nodes = "\n".join(
        f"      {node['target']}: {(node.get('failureSummary') or '').splitlines()[-1:]}"
        for node in violation["nodes"][:5]
    )
    return f"  {violation['id']} ({violation['impact']}): {violation['help']}\n{nodes}"


def overflow(page: Page) -> str | None:
    """None when the page fits its viewport's width, else the widest culprits."""
    return page.evaluate(
        """() => {
            const width = window.innerWidth;
            if (document.documentElement.scrollWidth <= width) return null;
            const wide = [...document.querySelectorAll("body *")]
                .filter((el) => el.getBoundingClientRect().right > width + 0.5)
                .slice(0, 5)
                .map((el) => `${el.tagName.toLowerCase()}.${el.className}`
                    + ` right=${Math.round(el.getBoundingClientRect().right)}`);
            return `scrollWidth ${document.documentElement.scrollWidth} > ${width}: `
                + wide.join(", ");
        }"""
    )


def header_lines(page: Page) -> int:
    """How many lines the header's brand, readiness figure and links take."""
    return page.evaluate(
        """() => {
            const boxes = [...document.querySelectorAll(
                ".site-header .brand, .site-header .header-readiness, .site-nav > ul > li")]
                .map((el) => el.getBoundingClientRect())
                .filter((box) => box.width > 0 && box.height > 0)
                .sort((a, b) => a.top - b.top);
            const lines = [];
            for (const box of boxes) {
                const line = lines.find((l) => box.top < l.bottom && box.bottom > l.top);
                if (line) line.bottom = Math.max(line.bottom, box.bottom);
                else lines.push({ top: box.top, bottom: box.bottom });
            }
            return lines.length;
        }"""
    )


def audit(page: Page, paths: list[str], *, phone: bool) -> list[str]:
    """Visit each path; return what is wrong with each, in words."""
    axe = Axe()
    problems = []
    for path in paths:
        response = page.goto(path)
        assert response is not None and response.ok, f"{path}: HTTP {response and response.status}"
        found = [
            violation
            for violation in axe.run(page).response["violations"]
            if violation["impact"] in BLOCKING
        ]
        if found:
            problems.append(f"{path}:\n" + "\n".join(describe(v) for v in found))
        if phone and (wide := overflow(page)):
            problems.append(f"{path}: scrolls sideways at {PHONE['width']} px: {wide}")
        if phone and (lines := header_lines(page)) > 2:
            problems.append(f"{path}: the header takes {lines} lines at {PHONE['width']} px")
    return problems


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390px", "1280px"])
def test_every_page_passes_axe_and_fits_the_screen(page: Page, seasoned: Learner, viewport: dict):
    phone = viewport is PHONE
    page.set_viewport_size(viewport)
    problems = audit(page, PUBLIC_PAGES, phone=phone)
    log_in(page, seasoned.username)
    problems += audit(page, learner_pages(seasoned), phone=phone)
    seasoned.open_a_mock()
    problems += audit(page, mock_pages(seasoned), phone=phone)
    assert not problems, "\n".join(problems)


def test_on_a_phone_account_and_log_out_are_under_more(page: Page, seasoned: Learner):
    page.set_viewport_size(PHONE)
    log_in(page, seasoned.username)
    nav = page.get_by_role("navigation", name="Main")
    account = nav.get_by_role("link", name="Account")
    expect(account).to_be_hidden()
    expect(nav.get_by_role("link", name="Plan", exact=True)).to_be_visible()
    expect(nav.get_by_role("link", name=f"Review ({TICKED})")).to_be_visible()

    nav.get_by_text("More").click()
    expect(account).to_be_visible()
    assert overflow(page) is None
    violations = Axe().run(page).response["violations"]
    assert not [v for v in violations if v["impact"] in BLOCKING], violations
    nav.get_by_role("button", name="Log out").click()
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()

    page.set_viewport_size(LAPTOP)
    log_in(page, seasoned.username)
    expect(nav.get_by_role("link", name="Account")).to_be_visible()
    expect(nav.get_by_text("More")).to_be_hidden()
    expect(nav.get_by_role("link", name=f"Review today ({TICKED})")).to_be_visible()
