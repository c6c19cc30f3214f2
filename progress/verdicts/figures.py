"""A learner's figures: the syllabus snapshot plus this learner's plan, ticks and practice answers.

The plan and the content version come with request.user (see progress.auth); the ticks and the
answers are one small query each that starts from the learner, so nothing here can reach another
learner's rows.
"""

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from phases.schedule import PhaseSlot, Schedule
from phases.snapshot import CheckInfo, PhaseInfo, Syllabus
from progress.auth import learner_syllabus
from progress.memory import scheduling as memory
from progress.memory.review_log import logged_reviews
from progress.memory.scheduler import fsrs
from progress.memory.scheduling import MEMORY_COLUMNS, Memory
from progress.models import CheckOff, Confidence, NotYet, StudyPlan
from progress.planning.schedules import plan_of, recall_day, schedule_for
from progress.summary.keep import newest_answers, summary_of, window_answers
from progress.timezones import end_of_day
from progress.verdicts import readiness
from progress.verdicts.rules import Rules


def rules() -> Rules:
    return Rules(
        recall=settings.RECALL_THRESHOLD,
        accurate=settings.ACCURACY_THRESHOLD,
        window=settings.ACCURACY_WINDOW,
        confidence=settings.ACCURACY_CONFIDENCE,
        min_answers=settings.ACCURACY_MIN_ANSWERS,
    )


@dataclass(frozen=True)
class PhaseProgress:
    done: int
    total: int

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


@cache
def check_url(action: str, slug: str) -> str:
    # Reversed once per process: a phase page shows a form or two per check.
    return reverse(f"progress:selfcheck-{action}", args=[slug])


@dataclass(frozen=True)
class CheckRow:
    check: CheckInfo
    done: bool
    confidence: str
    due: datetime.datetime | None = None  # when its next review falls due, once ticked
    not_yet_due: datetime.datetime | None = None  # when a "not yet" brings it back
    revealed: bool = False  # the reference answer asked for, the outcome still to be said
    answer: str = ""  # what the learner typed before the reveal

    @property
    def next_review(self) -> datetime.date | None:
        return timezone.localdate(self.due) if self.due else None

    @property
    def back_on(self) -> datetime.date | None:
        """The day a "not yet" comes back, while it is still to come."""
        if self.not_yet_due is None or self.not_yet_due <= timezone.now():
            return None
        return timezone.localdate(self.not_yet_due)

    @property
    def toggle_url(self) -> str:
        return check_url("toggle", self.check.slug)

    @property
    def reveal_url(self) -> str:
        return check_url("reveal", self.check.slug)

    @property
    def outcome_url(self) -> str:
        return check_url("outcome", self.check.slug)

    @property
    def confidence_label(self) -> str:
        return Confidence(self.confidence).label.lower() if self.confidence else "got it"


@dataclass
class LearnerState:
    content: Syllabus
    plan: StudyPlan | None
    schedule: Schedule | None
    today: datetime.date
    report: readiness.Report
    ticked: dict[int, str]  # self-check id -> confidence, for the checks this learner has done
    phases: dict[int, PhaseProgress]
    user: Any
    memories: dict[int, Memory]  # by self-check id
    exam_day: datetime.date  # the day recall is predicted for

    @property
    def exam_passed(self) -> bool:
        """The learner's exam day is behind them: recall is read as of that day."""
        return self.exam_day < self.today

    @cached_property
    def not_yet(self) -> dict[int, datetime.datetime]:
        """When each check the learner said "not yet" to comes back (one query, on a page that
        shows rows)."""
        return dict(
            NotYet.objects.for_user(self.user).values_list("self_check_id", "due").order_by()
        )

    def row(self, check: CheckInfo, reveals: dict[str, str] | None = None) -> CheckRow:
        """A check's row; ``reveals`` (slug: typed answer) are the checks whose reference
        answer the learner has asked for and not yet said how it went."""
        reveals = reveals or {}
        done = check.id in self.ticked
        return CheckRow(
            check=check,
            done=done,
            confidence=self.ticked.get(check.id, ""),
            due=card.due if (card := self.memories.get(check.id)) else None,
            not_yet_due=None if done else self.not_yet.get(check.id),
            revealed=not done and check.slug in reveals,
            answer=reveals.get(check.slug, ""),
        )

    @property
    def current_slot(self) -> PhaseSlot | None:
        return self.schedule.current(self.today) if self.schedule else None

    @property
    def current_phase(self) -> PhaseInfo | None:
        slot = self.current_slot
        return self.content.phase_numbered(slot.number) if slot else None

    @property
    def study_phase(self) -> PhaseInfo | None:
        """Today's phase in the calendar, else the first."""
        return self.current_phase or (self.content.phases[0] if self.content.phases else None)

    def next_check(self) -> CheckInfo | None:
        """What to study next: the lagging domain's first open self-check; on plan, the first
        open one of today's phase, then of the phases after it."""
        open_checks = [check for check in self.content.checks if check.id not in self.ticked]
        lagging = self.report.lagging
        if lagging is not None:
            return next((c for c in open_checks if c.domain.slug == lagging.slug), None)
        slot = self.current_slot
        today_number = slot.number if slot else 0
        return next(
            (check for check in open_checks if check.phase.number >= today_number),
            next(iter(open_checks), None),
        )


def counted_answers(
    user: Any, now: datetime.datetime, *, as_of: datetime.datetime | None = None
) -> list[tuple[str, bool | None, datetime.date | None]]:
    """(domain slug, right, the day of the mock it was skipped in) for each domain's newest
    counted answers (progress.summary.keep.newest_answers): from the learner's summary, or with
    ``as_of``, only what counted by then, from the rows. A closed mock's unanswered question is
    skipped (None), on its mock's day."""
    if as_of is None:
        return window_answers(summary_of(user, now=now))
    return [
        (domain, correct, timezone.localdate(started_at) if started_at else None)
        for domain, correct, started_at in newest_answers(user, now, as_of=as_of)
    ]


@dataclass(frozen=True)
class CheckFigures:
    """What ticking a self-check or rating it changes on the page: its row, its phase's count
    and the header's recall on exam day."""

    row: CheckRow
    progress: PhaseProgress
    weighted_recall_percent: int


def check_figures(
    user: Any, check: CheckInfo, reveals: dict[str, str] | None = None
) -> CheckFigures:
    state = learner_state(user, today=timezone.localdate())
    return CheckFigures(
        row=state.row(check, reveals),
        progress=state.phases[check.phase.number],
        weighted_recall_percent=state.report.weighted_recall_percent,
    )


def memories_on(user: Any, check_ids: list[int], day: datetime.date) -> dict[int, Memory]:
    """Each self-check's memory as its last review up to ``day`` left it (from the log): what
    recall on a passed exam day is read from. One query."""
    memories: dict[int, Memory] = {}
    for review in logged_reviews(user, check_ids):
        if review.stability is None or review.state is None or review.day is None:
            continue  # a "not yet": no memory
        if review.day > day:
            continue
        memories[review.check_id] = review.memory
    return memories


def learner_state(
    user: Any,
    *,
    today: datetime.date,
    with_practice: bool = False,
    as_of_end_of: datetime.date | None = None,
) -> LearnerState:
    """The learner's figures; practice accuracy (one more query) only where a page shows it.

    ``as_of_end_of`` a past day (the exam's, for an outcome): the figures as they stood when it
    ended, that day taken as exam day: the ticks made by then, recall from the review log up to
    it, and the answers that counted by then."""
    content = learner_syllabus(user)
    plan = plan_of(user)
    schedule = schedule_for(plan, content) if plan else None
    due_by_phase = schedule.share_due(today) if schedule else {}
    exam_day = as_of_end_of or recall_day(plan, schedule, today)
    until = end_of_day(as_of_end_of) if as_of_end_of else None
    end_of_today = end_of_day(today)
    ticked: dict[int, str] = {}
    memories: dict[int, Memory] = {}
    done_by_domain: Counter[str] = Counter()
    done_by_phase: Counter[int] = Counter()
    due_reviews: Counter[str] = Counter()
    recall_by_domain: defaultdict[str, float] = defaultdict(float)
    ticks = CheckOff.objects.for_user(user).ticked()
    if until is not None:
        ticks = ticks.filter(done_at__lt=until)
    for check_id, confidence, *columns in ticks.values_list(
        "self_check_id", "confidence", *MEMORY_COLUMNS
    ):
        ticked[check_id] = confidence
        memories[check_id] = Memory(*columns)
    # Once the exam day has passed, recall is read as the cards stood at its end, from the log.
    passed = exam_day < today or as_of_end_of is not None
    on_exam_day = memories_on(user, list(memories), exam_day) if passed else memories
    for check_id, card in memories.items():
        # A tick on a retired check is kept as history but counts nowhere.
        if key := content.check_keys.get(check_id):
            done_by_domain[key[0]] += 1
            done_by_phase[key[1]] += 1
            due_reviews[key[0]] += memory.is_due(card, end_of_today)
            recall_by_domain[key[0]] += memory.recall(on_exam_day.get(check_id), exam_day, fsrs())
    answers = counted_answers(user, timezone.now(), as_of=until) if with_practice else []
    accuracy = readiness.accuracy_counts(answers, rules().window)

    report = readiness.assess(
        (
            readiness.DomainCount(
                **readiness.fields_of(domain),  # slug, names, weight, study order
                done=done_by_domain[domain.slug],
                total=content.domain_total(domain.slug),
                planned=readiness.planned_share(content.totals[domain.slug], due_by_phase),
                **readiness.fields_of(accuracy.get(domain.slug, readiness.Accuracy())),
                due_reviews=due_reviews[domain.slug],
                recall_sum=recall_by_domain[domain.slug],
            )
            for domain in content.domains
        ),
        rules(),
    )
    return LearnerState(
        user=user,
        content=content,
        plan=plan,
        schedule=schedule,
        today=today,
        report=report,
        ticked=ticked,
        memories=memories,
        exam_day=exam_day,
        phases={
            phase.number: PhaseProgress(
                done=done_by_phase[phase.number], total=content.phase_totals.get(phase.number, 0)
            )
            for phase in content.phases
        },
    )
