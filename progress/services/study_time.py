"""Study sessions: the timer, time typed in, and the learner's corrections. Every function takes
the learner and reaches only their rows."""

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from phases.models import Domain, Phase

from ..study_sessions import StudySession
from ..study_time import timer_minutes
from ..timezones import end_of_day
from .account import lock_learner


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


@transaction.atomic
def stop_timer(*, user: Any, domain_slug: str, now: datetime.datetime) -> StudySession | None:
    """Record the running timer's minutes for ``domain_slug``, capped (study_time.timer_minutes);
    None when no timer runs (stopped already, in another tab)."""
    session = StudySession.objects.for_user(user).running().select_for_update().first()
    if session is None or session.started_at is None:
        return None
    midnight = end_of_day(timezone.localdate(session.started_at))
    session.minutes, session.capped = timer_minutes(session.started_at, now, midnight)
    session.domain = Domain.objects.get(slug=domain_slug)
    session.save(update_fields=["minutes", "capped", "domain"])
    return session


@transaction.atomic
def record_session(
    *, user: Any, phase_slug: str, domain_slug: str, day: datetime.date, minutes: int
) -> StudySession:
    """Time the learner says they studied ("I studied 30 minutes")."""
    lock_learner(user)
    return StudySession.objects.create(
        user=user,
        phase=Phase.objects.get(slug=phase_slug),
        domain=Domain.objects.get(slug=domain_slug),
        day=day,
        minutes=minutes,
    )


@transaction.atomic
def correct_session(
    *, user: Any, session_id: int, domain_slug: str, day: datetime.date, minutes: int
) -> bool:
    """A recorded session's minutes, domain and day as the learner corrects them; a corrected
    session is no longer capped. False when it is not theirs, or gone."""
    return (
        StudySession.objects.for_user(user)
        .recorded()
        .filter(pk=session_id)
        .update(domain=Domain.objects.get(slug=domain_slug), day=day, minutes=minutes, capped=False)
        > 0
    )


@transaction.atomic
def delete_session(*, user: Any, session_id: int) -> bool:
    deleted, _ = StudySession.objects.for_user(user).filter(pk=session_id).delete()
    return deleted > 0
