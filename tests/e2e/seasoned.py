"""The learner who has used every part of the app, and the pages the whole-site checks visit.

The learner has a plan under way, ticks in several phases, reviews due, a finished drill, a
handed-in mock and an open one with a flag, one written exercise done and one begun, so the
pages show their full tables, charts and badges rather than their empty states.
tests/e2e/test_accessibility.py walks these pages in Chromium, tests/e2e/test_valid_html.py hands
them to the Nu Html Checker.
"""

import datetime
import random
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from phases.content import syllabus
from phases.models import Domain, Intensity, SelfCheck
from progress.memory.ticks import Outcome, set_done
from progress.models import Attempt, CheckOff, QuestionCard, StudyPlan
from progress.planning.services import save_plan
from progress.practice.services import answer, flag, start_drill, start_mock, submit
from progress.study_time.services import record_session, start_timer, stop_timer
from tests.e2e.steps import PASSWORD
from tests.factories import days_later, settle_revealed, tick_exercise_parts, write_exercise

TICKED = 14  # self-checks, every one due for review today
PUBLIC_PAGES = [
    "/",
    "/syllabus/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/how-well-we-predict/",
]

DAY = datetime.timedelta(days=1)


@dataclass
class Learner:
    username: str
    drill: Attempt
    open_drill: Attempt
    user: object = None
    mock: Attempt | None = None
    session_id: int = 0  # a study session the timer capped

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


def make_seasoned(settings) -> Learner:
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
    days_later(user)
    drill = start_drill(user=user, domain=Domain.objects.get(slug="core-ml"), now=now, rng=rng)
    _answer_half(user, drill, now)
    submit(user=user, attempt=drill, now=now)
    handed_in = start_mock(user=user, now=now, rng=rng)
    _answer_half(user, handed_in, now, leave=3)
    submit(user=user, attempt=handed_in, now=now)
    # After the mock: starting one hands in every open drill, and the drill's page would then
    # redirect to its result.
    open_drill = start_drill(
        user=user, domain=Domain.objects.get(slug="experimentation"), now=now, rng=rng
    )
    _answer_half(user, open_drill, now, leave=len(open_drill.questions.all()) - 1)
    # Study time: typed in, a timer left running and capped, and one running on phase 5 (whose
    # page then asks which of its two domains the time was for).
    for days_ago, minutes in ((20, 95), (3, 40)):
        day = today - datetime.timedelta(days=days_ago)
        record_session(
            user=user,
            phase_slug="core-ml-foundations",
            domain_slug="core-ml",
            day=day,
            minutes=minutes,
        )
    start_timer(user=user, phase_slug="experimentation", now=now - datetime.timedelta(hours=5))
    capped = stop_timer(user=user, domain_slug="experimentation", now=now)
    start_timer(user=user, phase_slug="analysis-and-optimization", now=now)
    # Phase 1's written exercise done, phase 2's begun.
    content = syllabus()
    for slug, ticked in (("core-ml-foundations", None), ("experimentation", 1)):
        phase = content.phase(slug)
        assert phase is not None
        write_exercise(user, phase, text=f"My notes on {phase.title}.", now=now)
        parts = {part.slug for part in phase.exercise_parts[:ticked]}
        tick_exercise_parts(user, phase, ticked=parts, now=now)
    return Learner(
        username=user.username,
        drill=drill,
        open_drill=open_drill,
        user=user,
        session_id=capped.pk if capped else 0,
    )


def learner_pages(learner: Learner) -> list[str]:
    return [
        "/dashboard/",
        "/plan/",
        "/plan/choose/",
        *plan_previews(),
        "/study/core-ml-foundations/",
        "/study/experimentation/",
        "/study/analysis-and-optimization/",  # a timer running, two domains to choose from
        "/time/",
        f"/time/{learner.session_id}/",
        f"/time/{learner.session_id}/delete/",
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
        "/outcome/",
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


def plan_previews() -> list[str]:
    """The choose page's preview for an exam too near for any intensity (the fitted plan) and
    for one too near even for that (the short-notice plan), as the page without htmx serves it."""
    today = timezone.localdate()
    return [
        f"/plan/preview/?intensity=standard&start_date={today}&exam_date={today + days}"
        for days in (datetime.timedelta(days=9), datetime.timedelta(days=2))
    ]


def make_short_notice() -> tuple[object, list[str]]:
    """A learner two days before the exam on a short-notice plan, placement handed in; and the
    pages that show them: the day-by-day plan, the placement's result, the choose page."""
    user = get_user_model().objects.create_user(username="hedy", password=PASSWORD)
    today = timezone.localdate()
    now = timezone.now()
    save_plan(
        user=user,
        intensity=Intensity.objects.get(is_default=True),
        start_date=today,
        exam_date=today + datetime.timedelta(days=2),
        today=today,
        kind=StudyPlan.Kind.SHORT_NOTICE,
    )
    placement = start_mock(user=user, now=now, rng=random.Random(9), is_placement=True)
    _answer_half(user, placement, now)
    submit(user=user, attempt=placement, now=now)
    return user, ["/plan/", f"/practice/{placement.pk}/result/", "/plan/choose/"]


RETRIEVAL_PHASE = "/study/core-ml-foundations/"
REVEALED = "p1-backprop"  # revealed, the outcome still to say


def answering_learner() -> Any:
    """A learner part-way through answering from memory: one check said "not yet" today (back
    tomorrow), one yesterday (due again today), and a question missed in a drill, due first."""
    user = get_user_model().objects.create_user(username="hopper", password=PASSWORD)
    now = timezone.now()
    for slug, when in (("p1-training-stability", now), ("p1-fusion-tradeoff", now - DAY)):
        settle_revealed(
            user,
            self_check_id=SelfCheck.objects.get(slug=slug).pk,
            outcome=Outcome.NOT_YET,
            answer="",
            now=when,
        )
    drill = start_drill(
        user=user, domain=Domain.objects.get(slug="core-ml"), now=now, rng=random.Random(3)
    )
    _answer_half(user, drill, now, leave=len(drill.questions.all()) - 2)
    submit(user=user, attempt=drill, now=now)
    QuestionCard.objects.filter(user=user).update(
        due=now - 2 * DAY,
        last_review=now - 3 * DAY,
        last_review_day=timezone.localdate(now - 3 * DAY),
        missed_at=now - 3 * DAY,
    )
    days_later(user)
    return user
