import datetime
import random

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from phases.models import Domain, Intensity, Question

from . import leitner, practice
from .models import Attempt, AttemptQuestion, CheckOff, StudyPlan


@transaction.atomic
def save_plan(
    *,
    user,
    intensity: Intensity,
    start_date: datetime.date,
    exam_date: datetime.date | None,
    today: datetime.date,
) -> StudyPlan:
    """Create the learner's plan, or change it; ticks are never touched.

    A change of intensity with the start date left as it was re-lays the calendar from today.
    """
    plan = StudyPlan.objects.select_for_update().filter(user=user).first()
    if plan is None:
        return StudyPlan.objects.create(
            user=user, intensity=intensity, start_date=start_date, exam_date=exam_date
        )
    if intensity != plan.intensity and start_date == plan.start_date:
        start_date = today
    plan.intensity = intensity
    plan.start_date = start_date
    plan.exam_date = exam_date
    plan.progress_version = F("progress_version") + 1
    plan.save()
    return plan


def _moved(user) -> None:
    # Retires the learner's cached dashboard in every server process (see progress.views).
    # One plain statement: this runs on every tick, the hottest write in the app.
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {StudyPlan._meta.db_table} "
            "SET progress_version = progress_version + 1 WHERE user_id = %s",
            [user.pk],
        )


def set_done(*, user, self_check_id: int, done: bool, today: datetime.date | None = None) -> None:
    """Tick or untick; saying the same thing twice changes nothing.

    Each is one statement that reports whether it changed a row: the unique constraint on
    (user, self-check) makes a repeated tick insert nothing, with no read first and no
    transaction around it. A new tick enters the review schedule; only a real change moves the
    plan's progress version, which is what retires the learner's cached dashboard.
    """
    table = CheckOff._meta.db_table
    with connection.cursor() as cursor:
        if done:
            box, due_on = leitner.on_tick("", today or timezone.localdate())
            cursor.execute(
                f"INSERT INTO {table} (user_id, self_check_id, done_at, confidence, box, due_on) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (user_id, self_check_id) DO NOTHING",
                [user.pk, self_check_id, timezone.now(), "", box, due_on],
            )
        else:
            cursor.execute(
                f"DELETE FROM {table} WHERE user_id = %s AND self_check_id = %s",
                [user.pk, self_check_id],
            )
        changed = cursor.rowcount > 0
    if changed:
        _moved(user)


def rate(*, user, self_check_id: int, confidence: str, today: datetime.date) -> bool:
    """Say how well a ticked check is known; it is rescheduled from today. False if not ticked."""
    box, due_on = leitner.on_tick(confidence, today)
    changed = CheckOff.objects.filter(user=user, self_check_id=self_check_id).update(
        confidence=confidence, box=box, due_on=due_on
    )
    if changed:
        _moved(user)
    return bool(changed)


def review(*, user, self_check_id: int, knew: bool, today: datetime.date) -> bool:
    """Record a review: up a box when known, back to the first when missed."""
    check_off = CheckOff.objects.filter(user=user, self_check_id=self_check_id).first()
    if check_off is None:
        return False
    check_off.box, check_off.due_on = leitner.on_review(check_off.box, knew=knew, today=today)
    check_off.reviewed_on = today
    if not knew:
        check_off.confidence = "shaky"
    check_off.save(update_fields=["box", "due_on", "reviewed_on", "confidence"])
    _moved(user)
    return True


def export_learner(user, *, now: datetime.datetime) -> dict:
    """Everything the tracker holds about one learner, as plain JSON-ready values."""
    plan = StudyPlan.objects.select_related("intensity").filter(user=user).first()
    ticks = (
        CheckOff.objects.for_user(user)
        .select_related("self_check__phase", "self_check__domain")
        .order_by("done_at", "pk")
    )
    return {
        "exported_at": now.isoformat(),
        "account": {
            "username": user.username,
            "email": user.email,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
        },
        "plan": {
            "intensity": plan.intensity.slug,
            "start_date": plan.start_date.isoformat(),
            "exam_date": plan.exam_date.isoformat() if plan.exam_date else None,
            "created_at": plan.created_at.isoformat(),
            "updated_at": plan.updated_at.isoformat(),
        }
        if plan
        else None,
        "ticks": [
            {
                "self_check": tick.self_check.slug,
                "phase": tick.self_check.phase.number,
                "domain": tick.self_check.domain.slug,
                "prompt": tick.self_check.prompt,
                "done_at": tick.done_at.isoformat(),
                "retired": tick.self_check.retired,
            }
            for tick in ticks
        ],
    }


@transaction.atomic
def delete_learner(user) -> None:
    """The account and everything attached to it: plan and ticks go with it (CASCADE)."""
    user.delete()


DRILL_LENGTH = 10


def _create_attempt(*, user, kind, domain, questions, now, rng, deadline=None) -> Attempt:
    attempt = Attempt.objects.create(
        user=user, kind=kind, domain=domain, started_at=now, deadline=deadline
    )
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


@transaction.atomic
def start_drill(*, user, domain: Domain, now: datetime.datetime, rng: random.Random) -> Attempt:
    """Ten questions from one domain, one at a time, each answered with its explanation."""
    pool = list(Question.objects.current().filter(domain=domain))
    questions = rng.sample(pool, min(DRILL_LENGTH, len(pool)))
    return _create_attempt(
        user=user,
        kind=Attempt.Kind.DRILL,
        domain=domain,
        questions=questions,
        now=now,
        rng=rng,
    )


def open_mock(user, now: datetime.datetime) -> Attempt | None:
    return (
        Attempt.objects.for_user(user)
        .mocks()
        .filter(submitted_at__isnull=True, deadline__gt=now)
        .first()
    )


@transaction.atomic
def start_mock(*, user, now: datetime.datetime, rng: random.Random) -> Attempt:
    """A timed mock at the exam's pace, drawn by exam weight; an open one is resumed instead."""
    existing = open_mock(user, now)
    if existing:
        return existing
    questions = list(Question.objects.current().select_related("domain"))
    by_domain: dict[str, list[int]] = {}
    for question in questions:
        by_domain.setdefault(question.domain.slug, []).append(question.pk)
    weights = dict(Domain.objects.values_list("slug", "exam_weight"))
    counts = practice.mock_counts(
        weights,
        settings.MOCK_QUESTIONS,
        {slug: len(ids) for slug, ids in by_domain.items()},
    )
    by_id = {question.pk: question for question in questions}
    drawn = [by_id[pk] for pk in practice.draw(by_domain, counts, rng)]
    return _create_attempt(
        user=user,
        kind=Attempt.Kind.MOCK,
        domain=None,
        questions=drawn,
        now=now,
        rng=rng,
        deadline=now + datetime.timedelta(minutes=settings.MOCK_MINUTES),
    )


def close_if_over(attempt: Attempt, now: datetime.datetime) -> bool:
    """Submit an attempt whose time ran out (at its deadline). True when it is over."""
    if attempt.submitted_at is None and attempt.deadline is not None and now >= attempt.deadline:
        submit(attempt=attempt, now=attempt.deadline)
    return attempt.is_over(now)


def answer(
    *, attempt: Attempt, item: AttemptQuestion, chosen: list[int], now: datetime.datetime
) -> bool:
    """Record an answer, scored all or nothing. False (and nothing saved) once time is up."""
    if close_if_over(attempt, now):
        return False
    if attempt.kind == Attempt.Kind.DRILL and item.answered_at is not None:
        return True  # a drill answer stands: its explanation has been shown
    item.chosen = sorted(set(chosen))
    item.is_correct = practice.is_correct(item.chosen, item.question.correct_options)
    item.answered_at = now
    item.save(update_fields=["chosen", "is_correct", "answered_at"])
    _moved(attempt.user)
    return True


def flag(*, attempt: Attempt, item: AttemptQuestion, flagged: bool, now) -> bool:
    if close_if_over(attempt, now):
        return False
    item.flagged = flagged
    item.save(update_fields=["flagged"])
    return True


def submit(*, attempt: Attempt, now: datetime.datetime) -> None:
    """Hand in; a second submit (another tab, a double click) changes nothing."""
    updated = Attempt.objects.filter(pk=attempt.pk, submitted_at__isnull=True).update(
        submitted_at=now
    )
    if updated:
        attempt.submitted_at = now
        _moved(attempt.user)
    else:
        attempt.refresh_from_db(fields=["submitted_at"])
