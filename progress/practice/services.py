"""Drills and the timed mock: starting, answering, flagging, handing in."""

import datetime
import random
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from phases.models import Domain, Question
from progress.learner_rows import one_or_none
from progress.lock import lock_learner
from progress.memory.reviews import remember_misses
from progress.models import Attempt, AttemptQuestion, StudyPlan
from progress.planning import placement
from progress.planning.schedules import plan_of
from progress.practice import scoring as practice
from progress.summary.keep import kept


class MockIsOpen(Exception):
    """A drill was asked for while a mock is live: its questions must stay unseen."""

    def __init__(self, mock: Attempt):
        self.mock = mock
        super().__init__("a mock exam is open")


def settle_first_sight(*, user: Any, items: list[AttemptQuestion]) -> None:
    """Mark answers that start to count now: the learner's first counted answer to a question
    is the one accuracy reads; a later one is a repeat, practice (its key was seen). Inside the
    write's transaction, with the learner's lock held, so two answers at once cannot both be
    first."""
    ids = {item.question_id for item in items}
    seen = set(
        AttemptQuestion.objects.filter(
            attempt__user=user, question_id__in=ids, first_sight=True
        ).values_list("question_id", flat=True)
    )
    first: list[int] = []
    repeat: list[int] = []
    for item in items:
        item.first_sight = item.question_id not in seen
        (first if item.first_sight else repeat).append(item.pk)
        seen.add(item.question_id)
    AttemptQuestion.objects.filter(pk__in=first).update(first_sight=True)
    AttemptQuestion.objects.filter(pk__in=repeat).update(first_sight=False)


def _question_ids(**lookups: Any) -> set[int]:
    return set(AttemptQuestion.objects.filter(**lookups).values_list("question_id", flat=True))


def _create_attempt(attempt: Attempt, questions: list[Question], rng: random.Random) -> Attempt:
    attempt.save()
    AttemptQuestion.objects.bulk_create(
        AttemptQuestion(
            attempt=attempt,
            question=question,
            position=position,
            order=rng.sample(range(len(question.options)), len(question.options)),
        )
        for position, question in enumerate(questions, start=1)
    )
    return attempt


def close_overdue_mock(*, user: Any, now: datetime.datetime) -> Attempt | None:
    """Close the learner's mock if its time ran out; return the live one, if any."""
    mock = one_or_none(Attempt.objects.for_user(user).unsubmitted_mocks())
    if mock is not None and close_if_over(user=user, attempt=mock, now=now):
        return None
    return mock


@transaction.atomic
def start_drill(
    *, user: Any, domain: Domain, now: datetime.datetime, rng: random.Random
) -> Attempt:
    """Ten questions from one domain, the ones not seen yet first. Refused while a mock is
    open (MockIsOpen): a drill would show the keys of the mock's questions."""
    open_mock = close_overdue_mock(user=user, now=now)
    if open_mock is not None:
        raise MockIsOpen(open_mock)
    lock_learner(user)
    pool = Question.objects.current().filter(domain=domain).in_bulk()
    # draw() takes fewer when the domain has fewer.
    seen = _question_ids(attempt__user=user)
    ids = practice.draw({domain.slug: list(pool)}, {domain.slug: practice.DRILL_LENGTH}, rng, seen)
    drill = Attempt(user=user, kind=Attempt.Kind.DRILL, domain=domain, started_at=now)
    return _create_attempt(drill, [pool[pk] for pk in ids], rng)


def start_mock(
    *, user: Any, now: datetime.datetime, rng: random.Random, is_placement: bool = False
) -> Attempt:
    """A timed mock at the exam's pace, drawn by exam weight, unseen questions first; an open
    one (a mock or a placement) is resumed instead. Two simultaneous starts make one: the
    database's constraint refuses the second, which then returns the first. A placement is
    the same at progress.planning.placement's length."""
    existing = close_overdue_mock(user=user, now=now)
    if existing is not None:
        return existing
    # A stretch question goes beyond what the exam asks: drills only.
    pool = Question.objects.current().filter(stretch=False).select_related("domain").in_bulk()
    by_domain: dict[str, list[int]] = {}
    for question in pool.values():
        by_domain.setdefault(question.domain.slug, []).append(question.pk)
    weights = dict(Domain.objects.values_list("slug", "exam_weight"))
    length, minutes = settings.MOCK_QUESTIONS, settings.MOCK_MINUTES
    if is_placement:
        length, minutes = placement.QUESTIONS, placement.MINUTES
    counts = practice.mock_counts(
        weights, length, {slug: len(ids) for slug, ids in by_domain.items()}
    )
    ids = practice.draw(by_domain, counts, rng, seen=_question_ids(attempt__user=user))
    try:
        with transaction.atomic():
            lock_learner(user)
            # An open drill would show the key of any of its unanswered questions the mock
            # draws: it is handed in first, in the same transaction, and a handed-in drill shows
            # only the questions answered in it.
            Attempt.objects.for_user(user).filter(
                kind=Attempt.Kind.DRILL, submitted_at__isnull=True
            ).update(submitted_at=now)
            mock = Attempt(
                user=user,
                kind=Attempt.Kind.MOCK,
                started_at=now,
                deadline=now + datetime.timedelta(minutes=minutes),
                placement=is_placement,
            )
            return _create_attempt(mock, [pool[pk] for pk in ids], rng)
    except IntegrityError:
        return Attempt.objects.for_user(user).unsubmitted_mocks().get()


def placed(user: Any) -> dict[str, list[int]]:
    """The results of the learner's newest handed-in placement ({} without one): what shapes
    their plan. One query."""
    newest = (
        Attempt.objects.for_user(user)
        .filter(placement=True, submitted_at__isnull=False)
        .order_by("-submitted_at")
        .values("pk")[:1]
    )
    rows = AttemptQuestion.objects.filter(attempt__in=newest).values_list(
        "question__domain__slug", "is_correct"
    )
    return placement.scores(rows)


def live_mock_questions(*, user: Any, now: datetime.datetime) -> set[int]:
    """The questions of the learner's live mock: no page shows their keys until it is over."""
    return _question_ids(attempt__in=Attempt.objects.for_user(user).open_mock(now))


class DiscardRefused(Exception):
    """An attempt that can no longer be thrown away: its time is over, or a key was shown."""


KEY_SHOWN = (
    "You have seen the answer to a question of this drill, so it can no longer be discarded: "
    "finish it, and it counts like any other."
)


@transaction.atomic
def discard(*, user: Any, attempt: Attempt, now: datetime.datetime) -> None:
    """Throw away a live drill or mock, before any of its answers has been judged and shown (a
    drill shows each verdict as it is given; a mock none until it ends): it then leaves nothing
    behind, no card, no review, no statistic, no question seen. DiscardRefused otherwise."""
    # Locked, so an answer arriving at the same moment is either before the refusal or after
    # the attempt is gone.
    lock_learner(user)
    Attempt.objects.select_for_update().filter(pk=attempt.pk).exists()
    kind = attempt.get_kind_display().lower()
    if close_if_over(user=user, attempt=attempt, now=now):
        raise DiscardRefused(f"This {kind} is over, so it is kept.")
    shown = attempt.questions.filter(answered_at__isnull=False).exists()
    if attempt.kind == Attempt.Kind.DRILL and shown:
        raise DiscardRefused(KEY_SHOWN)
    attempt.delete()


def close_if_over(*, user: Any, attempt: Attempt, now: datetime.datetime) -> bool:
    """Hand in an attempt whose time ran out (at its deadline). True when it is over."""
    if attempt.submitted_at is None and attempt.deadline is not None and now >= attempt.deadline:
        with transaction.atomic():
            submit(user=user, attempt=attempt, now=attempt.deadline)
            # Handed in as of its deadline; the header's count is today's queue as of now.
            kept(user, now=now)
    return attempt.is_over(now)


@transaction.atomic
def answer(
    *, user: Any, attempt: Attempt, item: AttemptQuestion, chosen: list[int], now: datetime.datetime
) -> bool:
    """Record an answer, scored all or nothing, whatever its number of options (the form's
    path, save_question, keeps an incomplete one unanswered). False (and nothing saved) once
    time is up."""
    lock_learner(user)
    if close_if_over(user=user, attempt=attempt, now=now):
        return False
    _answer(user=user, attempt=attempt, item=item, chosen=chosen, now=now)
    return True


@transaction.atomic
def flag(
    *, user: Any, attempt: Attempt, item: AttemptQuestion, flagged: bool, now: datetime.datetime
) -> bool:
    """Mark a mock's question to revisit, or not. False (and nothing saved) once time is up."""
    return save_question(
        user=user, attempt=attempt, item=item, chosen=None, flagged=flagged, now=now
    )


@transaction.atomic
def save_question(
    *,
    user: Any,
    attempt: Attempt,
    item: AttemptQuestion,
    chosen: list[int] | None,
    flagged: bool | None,
    now: datetime.datetime,
) -> bool:
    """What a question's form sends, as one action under the learner's lock: the options chosen
    (None: left as they were) and, from the flag button, the flag (None: left as it was).

    As many options as the question asks is an answer, scored all or nothing. Fewer (a "choose
    two" ticked once, or none) is kept as the learner's choice so far, and the question counts as
    unanswered until it is complete. A drill's answer stands once given. False (nothing saved)
    once time is up."""
    lock_learner(user)
    if close_if_over(user=user, attempt=attempt, now=now):
        return False
    if chosen is not None and len(set(chosen)) == len(item.question.correct_options):
        _answer(user=user, attempt=attempt, item=item, chosen=chosen, now=now)
    elif chosen is not None:
        _keep_unanswered(attempt=attempt, item=item, chosen=chosen)
    if flagged is not None:
        item.flagged = flagged
        item.save(update_fields=["flagged"])
    return True


def _keep_unanswered(*, attempt: Attempt, item: AttemptQuestion, chosen: list[int]) -> None:
    rows = AttemptQuestion.objects.filter(pk=item.pk)
    if attempt.kind == Attempt.Kind.DRILL:
        rows = rows.filter(answered_at__isnull=True)  # a drill's answer stands once given
    kept = sorted(set(chosen)) or None
    if rows.update(chosen=kept, is_correct=None, answered_at=None):
        item.chosen, item.is_correct, item.answered_at = kept, None, None


def _answer(
    *, user: Any, attempt: Attempt, item: AttemptQuestion, chosen: list[int], now: datetime.datetime
) -> None:
    chosen = sorted(set(chosen))
    is_correct = practice.is_correct(chosen, item.question.correct_options)
    rows = AttemptQuestion.objects.filter(pk=item.pk)
    if attempt.kind == Attempt.Kind.DRILL:
        # A drill answer stands once given (its verdict is shown at once): only the first of
        # several answers sent at the same moment is kept, whatever the others say.
        rows = rows.filter(answered_at__isnull=True)
    if not rows.update(chosen=chosen, is_correct=is_correct, answered_at=now):
        item.refresh_from_db(fields=["chosen", "is_correct", "answered_at"])
        return
    item.chosen, item.is_correct, item.answered_at = chosen, is_correct, now
    if attempt.kind == Attempt.Kind.DRILL:
        # A drill's answer counts at once, and a miss is a card at once (reviewed today: it
        # comes back from the learner's next day).
        settle_first_sight(user=user, items=[item])
        missed = remember_misses(user=user, items=[item], now=now)
        # A right answer makes no card: the review queue is as it was.
        kept(
            user,
            now=now,
            answers=[now],
            domain_ids=[item.question.domain_id],
            queue=missed > 0,
        )


@transaction.atomic
def submit(*, user: Any, attempt: Attempt, now: datetime.datetime) -> bool:
    """Hand in; a second submit (another tab, a double click) changes nothing."""
    lock_learner(user)
    updated = Attempt.objects.filter(pk=attempt.pk, submitted_at__isnull=True).update(
        submitted_at=now
    )
    if updated:
        attempt.submitted_at = now
        if attempt.kind == Attempt.Kind.MOCK:
            items = list(attempt.questions.all())
            settle_first_sight(user=user, items=items)
            remember_misses(user=user, items=items, now=now)
        if attempt.placement:
            placement = placed(user)
            StudyPlan.objects.filter(user=user).update(placement=placement)
            if (plan := plan_of(user)) is not None:
                plan.placement = placement  # the request's copy agrees from now on
        if attempt.kind == Attempt.Kind.MOCK:
            # Its answers count from now, each on the day it was given.
            kept(
                user,
                now=now,
                answers=[item.answered_at for item in items if item.answered_at],
                domain_ids=attempt.questions.values_list("question__domain_id", flat=True),
            )
    else:
        attempt.refresh_from_db(fields=["submitted_at"])
    return bool(updated)
