"""The weekly reminder email: opting in and out, what it says, and the claim that sends it once.

At most one reminder per learner per week (Monday to Sunday, in the site's time zone), however
often and on however many servers ``send_reminders`` runs: only the run whose ``claim`` changed
the learner's row sends.
"""

import datetime
from collections.abc import Iterator
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import DateField, Exists, OuterRef, Q, Value
from django.db.models.functions import Coalesce
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from progress.auth import learner_queryset
from progress.exercises.models import exercise_status
from progress.links import site_link
from progress.lock import lock_learner
from progress.models import Profile
from progress.planning.today import learner_task
from progress.practice.services import close_overdue_mock
from progress.timezones import learner_zone
from progress.verdicts.figures import learner_state

# Specific to reminders: a token signed for anything else never unsubscribes anyone.
UNSUBSCRIBE_SALT = "progress.reminders.unsubscribe"


def week_start(today: datetime.date) -> datetime.date:
    """The Monday of ``today``'s week: a learner gets one reminder from here to Sunday."""
    return today - datetime.timedelta(days=today.weekday())


@transaction.atomic
def set_weekly_reminder(*, user: Any, on: bool, study_day_hour: int | None = None) -> Profile:
    """The weekly reminder on or off, and the hour of the study-day reminder (None: none)."""
    lock_learner(user)
    profile, _ = Profile.objects.get_or_create(user=user)
    was_on = profile.weekly_reminder or profile.study_day_hour is not None
    if (on or study_day_hour is not None) and not was_on:
        # Turned on anew: a new set of unsubscribe links, the old ones retired.
        profile.reminders_on_since = timezone.now()
    profile.weekly_reminder = on
    profile.study_day_hour = study_day_hour
    profile.save(update_fields=["weekly_reminder", "study_day_hour", "reminders_on_since"])
    return profile


def confirmed(user: Any, email: Any) -> Any:
    """allauth's verified record of ``email`` for ``user`` (each a value or an OuterRef)."""
    return EmailAddress.objects.filter(user=user, email__iexact=email, verified=True)


def address_confirmed(user: Any) -> bool:
    return bool(user.email) and confirmed(user, user.email).exists()


def reminder_is_on(user: Any) -> bool:
    # The profile comes with request.user (progress.auth): no query on the account page.
    return hasattr(user, "profile") and bool(user.profile.weekly_reminder)


def _stamp(user_id: int) -> int | None:
    """When the learner last turned reminders on (0: never); None for an account that is gone."""
    row = Profile.objects.filter(user_id=user_id).values_list("reminders_on_since").first()
    if row is None:
        return None
    return int(row[0].timestamp() * 1_000_000) if row[0] else 0


def unsubscribe_token(user_id: int) -> str:
    """A signed (learner, when their reminders were turned on) pair: valid until they turn
    reminders off and on again."""
    return signing.dumps([user_id, _stamp(user_id) or 0], salt=UNSUBSCRIBE_SALT)


def learner_of_token(token: str) -> tuple[int, int]:
    """The (learner, reminders-on stamp) a token was signed for; ``signing.BadSignature`` for
    any other string."""
    match signing.loads(token, salt=UNSUBSCRIBE_SALT):
        case [int() as user_id, int() as stamp] if type(user_id) is type(stamp) is int:
            return user_id, stamp
    raise signing.BadSignature("An unsubscribe token names a learner and a stamp.")


def reminder_is_on_for(user_id: int) -> bool:
    """Whether the learner gets any reminder, weekly or on study days (one query)."""
    return (
        Profile.objects.filter(user_id=user_id)
        .filter(Q(weekly_reminder=True) | Q(study_day_hour__isnull=False))
        .exists()
    )


def token_is_retired(user_id: int, stamp: int) -> bool:
    """Whether the token is from an earlier set of the learner's reminders (turned off and on
    again since). A token of an account that is gone retires nothing: it has nothing to stop."""
    return _stamp(user_id) not in (None, stamp)


def unsubscribe_url(user_id: int) -> str:
    return site_link(reverse("progress:reminder-unsubscribe", args=[unsubscribe_token(user_id)]))


def unsubscribe(*, user_id: int) -> None:
    """No more reminders for this learner, weekly or on study days, nor the ask after the exam
    (nothing happens for an account that is gone)."""
    Profile.objects.filter(user_id=user_id).update(
        weekly_reminder=False,
        study_day_hour=None,
        outcome_asked_on=Coalesce(
            "outcome_asked_on", Value(timezone.localdate(), output_field=DateField())
        ),
    )


def compose(user: Any, *, now: datetime.datetime, connection: Any = None) -> EmailMessage:
    """The reminder for one learner, from the figures their dashboard shows, on their own day
    (their time zone's, when they have set one)."""
    with timezone.override(learner_zone(user)):
        today = timezone.localdate(now)
        # As the dashboard does: a mock whose time ran out is closed, its answers count.
        close_overdue_mock(user=user, now=now)
        state = learner_state(user, today=today, with_practice=True)
        report, plan = state.report, state.plan
        links = {
            name.replace("-", "_"): site_link(reverse(f"progress:{name}"))
            for name in ("dashboard", "plan", "plan-choose", "review", "account")
        }
        if plan is None:
            subject = "NCA-GENM this week: choose your study schedule"
        elif report.lagging is not None:
            subject = f"NCA-GENM this week: {report.lagging.name} is behind"
        else:
            subject = "NCA-GENM this week: you are on plan"
        next_check = state.next_check() if plan is not None else None
        next_check_url = next_check and site_link(
            f"{reverse('progress:phase', args=[next_check.phase.slug])}#check-{next_check.slug}"
        )
        # The countdown runs to the exam, or without one to the plan's last day.
        until = plan and (plan.exam_date or (state.schedule and state.schedule.finish))
        days = (until - today).days if until else 0
        return reminder_mail(
            user,
            subject,
            "email/reminder.txt",
            {
                "report": report,
                "plan": plan,
                "until": until,
                "days": days,
                "days_ago": -days,
                "next_check": next_check,
                "next_check_url": next_check_url,
                "links": links,
            },
            connection=connection,
        )


def reminder_mail(
    user: Any, subject: str, template: str, context: dict[str, Any], *, connection: Any = None
) -> EmailMessage:
    """A mail to the learner's address, ``template`` rendered with ``context``, the learner and
    their one-click unsubscribe link (in the body and in the headers)."""
    unsubscribe = unsubscribe_url(user.pk)
    body = render_to_string(template, context | {"user": user, "unsubscribe_url": unsubscribe})
    return EmailMessage(
        subject=subject,
        body=body.strip() + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        connection=connection,
        headers={
            # RFC 2369 and RFC 8058: mail clients offer their own unsubscribe button, which
            # POSTs "List-Unsubscribe=One-Click" to this address.
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def _not_reminded_this_week(today: datetime.date, via: str = "") -> Q:
    return Q(**{f"{via}reminded_on__isnull": True}) | Q(
        **{f"{via}reminded_on__lt": week_start(today)}
    )


def learners_due(today: datetime.date, chunk: int = 200) -> Iterator[Any]:
    """Opted-in learners whose address is confirmed (allauth's EmailAddress, verified) and who
    have had no reminder this week: an address nobody confirmed may not be theirs.

    Read a chunk at a time, each read finished before the caller writes a claim: SQLite refuses
    to turn a connection with a read still open into a writer once another process has written
    (a second server's run), and a PostgreSQL cursor held open would pin a snapshot as long.
    """
    # Loaded as a learner request loads request.user: plan, profile and content version.
    due = (
        learner_queryset()
        .filter(is_active=True, profile__weekly_reminder=True)
        .exclude(email="")
        .filter(Exists(confirmed(OuterRef("pk"), OuterRef("email"))))
        .filter(_not_reminded_this_week(today, via="profile__"))
    )
    return in_chunks(due, chunk)


def in_chunks(learners: Any, chunk: int) -> Iterator[Any]:
    """The learners of a queryset, read ``chunk`` at a time (learners_due says why)."""
    ids = list(learners.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), chunk):
        yield from list(learners.filter(pk__in=ids[start : start + chunk]).order_by("pk"))


def claim(*, user_id: int, today: datetime.date) -> bool:
    """Take this week's reminder for the learner; True for exactly one caller per week.

    One UPDATE whose WHERE reads only the row it changes: a second UPDATE waits for the first and
    then finds the row no longer matching (PostgreSQL re-checks it; SQLite runs one writer at a
    time). A filter through a join would be a subquery, read from a snapshot taken before the wait.
    """
    return bool(
        Profile.objects.filter(user_id=user_id, weekly_reminder=True)
        .filter(_not_reminded_this_week(today))
        .update(reminded_on=today)
    )


def release(*, user_id: int, today: datetime.date, previous: datetime.date | None) -> None:
    """Give back a claim whose email could not be sent, so the next run tries again."""
    Profile.objects.filter(user_id=user_id, reminded_on=today).update(reminded_on=previous)


def send_reminder(
    *, user: Any, today: datetime.date, connection: Any = None
) -> EmailMessage | None:
    """Claim the learner's week and send their reminder; None when another run has claimed it."""
    previous = user.profile.reminded_on
    if not claim(user_id=user.pk, today=today):
        return None
    try:
        reminder = compose(user, now=timezone.now(), connection=connection)
        reminder.send()
    except BaseException:
        release(user_id=user.pk, today=today, previous=previous)
        raise
    return reminder


# Reminders on the learner's study days: at the hour they chose, in their zone, naming the task.


def learners_with_study_day_reminders(chunk: int = 200) -> Iterator[Any]:
    """Learners with a study-day hour, a confirmed address and a plan: read a chunk at a time,
    as learners_due."""
    wanted = (
        learner_queryset()
        .filter(is_active=True, profile__study_day_hour__isnull=False, study_plan__isnull=False)
        .exclude(email="")
        .filter(Exists(confirmed(OuterRef("pk"), OuterRef("email"))))
    )
    return in_chunks(wanted, chunk)


def study_day_due(user: Any, now: datetime.datetime) -> tuple[datetime.date, Any] | None:
    """The learner's day and today's task when a study-day reminder is due now: their hour has
    come on their day, today is a study day of their plan, and none went out for it yet."""
    profile = user.profile
    with timezone.override(learner_zone(user)):
        local = timezone.localtime(now)
        today = local.date()
        if profile.study_day_hour is None or local.hour < profile.study_day_hour:
            return None
        if profile.study_reminded_on is not None and profile.study_reminded_on >= today:
            return None
        state = learner_state(user, today=today)
    schedule = state.schedule
    if state.plan is None or schedule is None or not schedule.is_study_day(today):
        return None
    current = state.current_phase
    task = learner_task(state, exercise_status(user, current) if current else None)
    return (today, task) if task is not None else None


def compose_study_day(user: Any, task: Any, *, connection: Any = None) -> EmailMessage:
    return reminder_mail(
        user,
        f"NCA-GENM {task.heading[0].lower()}{task.heading[1:]}: {task.task}",
        "email/study_day_reminder.txt",
        {
            "task": task,
            "dashboard_url": site_link(reverse("progress:dashboard")),
            "account_url": site_link(reverse("progress:account")),
        },
        connection=connection,
    )


def send_study_day_reminder(
    *, user: Any, now: datetime.datetime, connection: Any = None
) -> EmailMessage | None:
    """The learner's study-day reminder, claimed for their day so it goes once however many
    runs race; None when none is due or another run claimed it."""
    due = study_day_due(user, now)
    if due is None:
        return None
    today, task = due
    previous = user.profile.study_reminded_on
    claimed = (
        Profile.objects.filter(user_id=user.pk, study_day_hour__isnull=False)
        .filter(Q(study_reminded_on__isnull=True) | Q(study_reminded_on__lt=today))
        .update(study_reminded_on=today)
    )
    if not claimed:
        return None
    try:
        reminder = compose_study_day(user, task, connection=connection)
        reminder.send()
    except BaseException:
        Profile.objects.filter(user_id=user.pk, study_reminded_on=today).update(
            study_reminded_on=previous
        )
        raise
    return reminder


# One mail, the day after the exam date, asking how it went.


def learners_to_ask_outcome(today: datetime.date, chunk: int = 200) -> Iterator[Any]:
    """Learners whose exam date has passed (by the site's date: each is checked in their own
    zone when sent), with a confirmed address, no outcome recorded and no ask sent yet."""
    wanted = (
        learner_queryset()
        .filter(is_active=True, study_plan__exam_date__lt=today, exam_outcome__isnull=True)
        .exclude(email="")
        .exclude(profile__outcome_asked_on__isnull=False)
        .filter(Exists(confirmed(OuterRef("pk"), OuterRef("email"))))
    )
    return in_chunks(wanted, chunk)


def send_outcome_ask(
    *, user: Any, now: datetime.datetime, connection: Any = None
) -> EmailMessage | None:
    """The one mail asking how the exam went, once the exam date has passed in the learner's
    zone; claimed first, so it goes once however many runs race."""
    with timezone.override(learner_zone(user)):
        today = timezone.localdate(now)
    exam = user.study_plan.exam_date
    if exam is None or exam >= today:
        return None
    Profile.objects.get_or_create(user=user)
    if not Profile.objects.filter(user=user, outcome_asked_on__isnull=True).update(
        outcome_asked_on=today
    ):
        return None
    message = reminder_mail(
        user,
        "NCA-GENM: how did your exam go?",
        "email/outcome_ask.txt",
        {
            "exam": exam,
            "outcome_url": site_link(reverse("progress:outcome")),
            "how_well_url": site_link(reverse("progress:how-well")),
        },
        connection=connection,
    )
    try:
        message.send()
    except BaseException:
        Profile.objects.filter(user=user, outcome_asked_on=today).update(outcome_asked_on=None)
        raise
    return message
