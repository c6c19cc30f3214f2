"""Study sessions: the timer, time typed in, and the learner's corrections. Every function takes
the learner and reaches only their rows."""

import datetime
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from phases.models import Domain, Phase
from progress.lock import lock_learner
from progress.study_time.figures import timer_minutes
from progress.study_time.models import DAY_MINUTES, StudySession, duration
from progress.summary.keep import minutes_kept
from progress.timezones import end_of_day


class DayIsFull(ValueError):
    """Time that would make one day hold more than the day has: nothing is saved."""


class TooShort(ValueError):
    """A timer stopped within half a minute of its start: it counts no minute, and is gone."""


def _room(user: Any, day: datetime.date, leaving_out: int | None = None) -> int:
    """Minutes still free on ``day``: a day has DAY_MINUTES, less what is recorded on it
    (``leaving_out``: a session being corrected, whose old minutes are being replaced)."""
    recorded = StudySession.objects.for_user(user).recorded().filter(day=day)
    if leaving_out is not None:
        recorded = recorded.exclude(pk=leaving_out)
    return DAY_MINUTES - (recorded.aggregate(total=Sum("minutes"))["total"] or 0)


def _fits(user: Any, day: datetime.date, minutes: int, leaving_out: int | None = None) -> None:
    room = _room(user, day, leaving_out)
    if minutes > room:
        held = DAY_MINUTES - room
        raise DayIsFull(
            f"A day has 24 hours, and {duration(held)} of study is already recorded on "
            f"{day:%-d %b}: at most {duration(max(room, 0))} more fits. Nothing was saved."
        )


@transaction.atomic
def start_timer(*, user: Any, phase_slug: str, now: datetime.datetime) -> tuple[StudySession, bool]:
    """The learner's timer, started now on the phase unless one already runs (then that one,
    and False): the learner's row is locked first, so two starts at once make one timer."""
    lock_learner(user)
    running = StudySession.objects.for_user(user).running().first()
    if running is not None:
        return running, False
    session = StudySession.objects.create(
        user=user,
        phase=Phase.objects.get(slug=phase_slug),
        day=timezone.localdate(now),
        started_at=now,
    )
    return session, True


def stop_timer(*, user: Any, domain_slug: str, now: datetime.datetime) -> StudySession | None:
    """Record the running timer's minutes for ``domain_slug``, capped (study_time.timer_minutes)
    and at what is left of its day; None when no timer runs (stopped already, in another tab).
    DayIsFull, the timer gone, when its day already holds 24 hours; TooShort, the timer gone,
    when it ran under half a minute."""
    with transaction.atomic():
        lock_learner(user)
        session = StudySession.objects.for_user(user).running().select_for_update().first()
        if session is None or session.started_at is None:
            return None
        midnight = end_of_day(timezone.localdate(session.started_at))
        minutes, capped = timer_minutes(session.started_at, now, midnight)
        too_short = minutes == 0
        # Time typed in for the same day while the timer ran leaves the timer what is left.
        room = _room(user, session.day)
        if room > 0 and not too_short:
            session.minutes, session.capped = min(minutes, room), capped or minutes > room
            session.domain = Domain.objects.get(slug=domain_slug)
            session.save(update_fields=["minutes", "capped", "domain"])
            minutes_kept(user, now=now)
            return session
        session.delete()
    if too_short:
        raise TooShort("The timer ran under half a minute, so no time was recorded.")
    raise DayIsFull(
        f"Your timer was stopped, but {session.day:%-d %b} already holds 24 hours of recorded "
        "study, so nothing more was recorded."
    )


@transaction.atomic
def record_session(
    *, user: Any, phase_slug: str, domain_slug: str, day: datetime.date, minutes: int
) -> StudySession:
    """Time the learner says they studied ("I studied 30 minutes"); DayIsFull when the day
    cannot hold it."""
    lock_learner(user)
    _fits(user, day, minutes)
    session = StudySession.objects.create(
        user=user,
        phase=Phase.objects.get(slug=phase_slug),
        domain=Domain.objects.get(slug=domain_slug),
        day=day,
        minutes=minutes,
    )
    minutes_kept(user, now=timezone.now())
    return session


@transaction.atomic
def correct_session(
    *, user: Any, session_id: int, domain_slug: str, day: datetime.date, minutes: int
) -> bool:
    """A recorded session's minutes, domain and day as the learner corrects them; a corrected
    session is no longer capped. False when it is not theirs, or gone; DayIsFull when the day
    cannot hold it."""
    lock_learner(user)
    _fits(user, day, minutes, leaving_out=session_id)
    corrected = (
        StudySession.objects.for_user(user)
        .recorded()
        .filter(pk=session_id)
        .update(domain=Domain.objects.get(slug=domain_slug), day=day, minutes=minutes, capped=False)
    )
    if corrected:
        minutes_kept(user, now=timezone.now())
    return corrected > 0


@transaction.atomic
def delete_session(*, user: Any, session_id: int) -> bool:
    lock_learner(user)
    deleted, _ = StudySession.objects.for_user(user).filter(pk=session_id).delete()
    if deleted:
        minutes_kept(user, now=timezone.now())
    return deleted > 0
