"""The learner's summary (progress.summary.models): built from the learner's rows, and kept by
every write that changes what it holds, inside that write's transaction, so a page reads what
it shows and no more, however long the history.

The one rule for each figure is written here once and run two ways: ``build`` over the whole
history, ``kept`` over what a write touched (the days of its moments, the domains of its
answers, today's review queue), in the same transaction as the write, the learner's lock held.
A summary made for another syllabus version, time zone or accuracy window, or missing, is built
again by the next write or the next page that reads it (``summary_of``).
"""

import datetime
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, QuerySet, Sum, Value
from django.db.models.functions import TruncDate
from django.utils import timezone

from phases.content import content_version
from progress import charts as chart
from progress.learner_rows import one_or_none
from progress.lock import lock_learner
from progress.memory.queue import review_queue
from progress.memory.review_days import current_review_day
from progress.models import AttemptQuestion, CheckOff, ReviewLog, StudySession
from progress.summary.models import LearnerSummary
from progress.timezones import end_of_day, learner_zone, start_of_day

DAY_FIELDS = ("ticks", "reviews", "answers")

# (domain slug, right: True, False or None for a closed mock's unanswered question, the moment
# its mock started when None): each domain's newest counted first answers.
Answer = tuple[str, bool | None, datetime.datetime | None]


def newest_answers(
    user: Any,
    now: datetime.datetime,
    *,
    as_of: datetime.datetime | None = None,
    domain_ids: Iterable[int] | None = None,
) -> list[Answer]:
    """Each domain's newest counted answers that accuracy reads (at most the window): first
    answers only (a repeat is practice) and no stretch question (beyond the exam). With
    ``as_of``, only what had counted by then; with ``domain_ids``, only those domains."""
    answers = AttemptQuestion.objects.counted(user, as_of or now)
    if as_of is not None:
        answers = answers.counted_by(as_of)
    if domain_ids is not None:
        answers = answers.filter(question__domain_id__in=domain_ids)
    return [
        (domain, correct, started_at if correct is None else None)
        for domain, correct, started_at in answers.for_accuracy()
        .newest_per_domain(settings.ACCURACY_WINDOW)
        .values_list("question__domain__slug", "is_correct", "attempt__started_at")
    ]


def day_counts(
    user: Any,
    *,
    since: datetime.datetime,
    until: datetime.datetime | None,
    now: datetime.datetime,
    fields: Iterable[str] = DAY_FIELDS,
) -> dict[str, dict[str, int]]:
    """``fields`` (ticks, reviews, answers) on each day of the learner's calendar (the active
    time zone) from ``since`` to ``until``, the days with something done only: one query,
    counted per day by the database (a UNION ALL for more than one field). The ticks standing,
    the counted answers (a live mock's answers show nowhere until it closes) and the logged
    reviews after a card's first (the tick or the miss is the first; a "not yet" is logged as a
    try, and counts)."""
    zone = timezone.get_current_timezone()

    def per_day(field: str) -> QuerySet[Any]:
        rows: QuerySet[Any]
        if field == "ticks":
            rows, moment = CheckOff.objects.for_user(user).ticked(), "done_at"
        elif field == "answers":
            rows, moment = AttemptQuestion.objects.counted(user, now), "answered_at"
        else:
            rows, moment = ReviewLog.objects.filter(user=user, first=False), "reviewed_at"
        rows = rows.filter(**{f"{moment}__gte": since})
        if until is not None:
            rows = rows.filter(**{f"{moment}__lt": until})
        return (
            rows.annotate(local_day=TruncDate(moment, tzinfo=zone))
            .order_by()
            .values("local_day")
            .annotate(n=Count("pk"))
            .values_list(Value(field), "local_day", "n")
        )

    first, *others = [per_day(field) for field in fields]
    rows = first.union(*others, all=True) if others else first
    counts: defaultdict[str, dict[str, int]] = defaultdict(dict)
    for field, day, count in rows:
        counts[day.isoformat()][field] = count
    return {day: {field: found.get(field, 0) for field in fields} for day, found in counts.items()}


def minutes_studied(user: Any, *, first: datetime.date) -> dict[str, Any]:
    """The learner's recorded study time (LearnerSummary.minutes): minutes by phase number and
    domain slug, ever, and on each day from ``first`` (the calendar's weeks) on: two queries,
    summed by the database."""
    recorded = StudySession.objects.for_user(user).recorded().filter(domain__isnull=False)
    totals = (
        recorded.values_list("phase__number", "domain__slug")
        .annotate(total=Sum("minutes"))
        .order_by("phase__number", "domain__slug")
    )
    days = recorded.filter(day__gte=first).values_list("day").annotate(total=Sum("minutes"))
    return {
        "totals": [[number, slug, total] for number, slug, total in totals],
        "days": {day.isoformat(): total for day, total in days.order_by("day")},
    }


def _window(answers: Iterable[Answer]) -> dict[str, list[list[Any]]]:
    window: defaultdict[str, list[list[Any]]] = defaultdict(list)
    for domain, correct, started_at in answers:
        window[domain].append([correct, started_at.isoformat() if started_at else None])
    return dict(window)


def _due(user: Any, now: datetime.datetime) -> dict[str, Any]:
    day = current_review_day(user, now)
    return {"due_day": day.day, "due_count": len(review_queue(user, day=day))}


def due_count(user: Any, *, now: datetime.datetime) -> int:
    """How many cards today's review queue holds, for the header: as the learner's last write
    kept it. A count made for an earlier review day is stale, as one made for another zone is:
    the first page of a day with no write yet counts the queue again under the learner's lock
    and keeps it, so the day's other pages read it."""
    day = current_review_day(user, now)
    summary = summary_of(user, now=now)
    if summary.due_day == day.day and summary.due_count is not None:
        return summary.due_count
    with transaction.atomic():
        lock_learner(user)
        due = _due(user, now)
        LearnerSummary.objects.filter(user_id=user.pk).update(**due)
    summary.due_day, summary.due_count = due["due_day"], due["due_count"]
    return summary.due_count


def _version(user: Any) -> int:
    # The version came with request.user (progress.auth); elsewhere it is one query.
    version = getattr(user, "content_version", None)
    return version if version is not None else content_version()


def build(user: Any, *, now: datetime.datetime) -> LearnerSummary:
    """The learner's summary from their rows (not saved), for the active time zone."""
    first = chart.activity_start(timezone.localdate(now))
    return LearnerSummary(
        user_id=user.pk,
        content_version=_version(user),
        zone=timezone.get_current_timezone_name(),
        window_size=settings.ACCURACY_WINDOW,
        days=day_counts(user, since=start_of_day(first), until=None, now=now),
        window=_window(newest_answers(user, now)),
        minutes=minutes_studied(user, first=first),
        **_due(user, now),
    )


def _fits(summary: LearnerSummary, user: Any) -> bool:
    return (
        summary.zone == timezone.get_current_timezone_name()
        and summary.content_version == _version(user)
        and summary.window_size == settings.ACCURACY_WINDOW
        and summary.minutes is not None
    )


def _store(summary: LearnerSummary) -> None:
    LearnerSummary.objects.update_or_create(
        user_id=summary.user_id,
        defaults={
            field: getattr(summary, field)
            for field in (
                "content_version",
                "zone",
                "window_size",
                "days",
                "window",
                "due_day",
                "due_count",
                "minutes",
            )
        },
    )


def rebuild(user: Any, *, now: datetime.datetime) -> LearnerSummary:
    """The learner's summary built from their rows and saved (a new learner's at sign-up, or
    one that no longer fits), inside the caller's transaction."""
    summary = build(user, now=now)
    _store(summary)
    user.summary = summary
    return summary


def _to_keep(user: Any, *, now: datetime.datetime) -> LearnerSummary | None:
    """The stored summary a write keeps, or None when there was none that fits (made for
    another version, zone or window, or missing): then it is built whole now, and is kept."""
    summary = one_or_none(LearnerSummary.objects.filter(user_id=user.pk))
    if summary is None or not _fits(summary, user):
        rebuild(user, now=now)
        return None
    return summary


def kept(
    user: Any,
    *,
    now: datetime.datetime,
    ticks: Iterable[datetime.datetime] = (),
    reviews: Iterable[datetime.datetime] = (),
    answers: Iterable[datetime.datetime] = (),
    domain_ids: Iterable[int] = (),
    queue: bool = True,
) -> None:
    """Keep the summary after a write, in its transaction (the learner's lock held) and after
    every row it changes: on the days of the moments a write names, what it changed counted
    again (ticks, reviews or answers, the others kept), the answers of ``domain_ids``, and
    today's review queue counted (``queue``: False for a write that changed no card and not the
    plan, the queue's only inputs on a review day: the count is left as it was, and one kept
    for another day is counted by that day's first page); days older than the calendar's weeks
    dropped. Built whole if missing or made for another version or zone."""
    summary = _to_keep(user, now=now)
    if summary is None:
        return
    first = chart.activity_start(timezone.localdate(now))
    days = {
        day: counts
        for day, counts in summary.days.items()
        if datetime.date.fromisoformat(day) >= first
    }
    changed: defaultdict[datetime.date, set[str]] = defaultdict(set)
    for field, moments in (("ticks", ticks), ("reviews", reviews), ("answers", answers)):
        for moment in moments:
            if (day := timezone.localdate(moment)) >= first:
                changed[day].add(field)
    for day, fields in sorted(changed.items()):
        key = day.isoformat()
        found = day_counts(
            user,
            since=start_of_day(day),
            until=end_of_day(day),
            now=now,
            fields=sorted(fields),
        ).get(key, {})
        counts = {**dict.fromkeys(DAY_FIELDS, 0), **days.get(key, {})}
        counts.update({field: found.get(field, 0) for field in fields})
        if any(counts.values()):
            days[key] = counts
        else:
            days.pop(key, None)
    window = dict(summary.window)
    if ids := set(domain_ids):
        # An answer only ever joins a domain's window (none leaves the history), so the
        # domains it touched are read again and the others kept.
        window.update(_window(newest_answers(user, now, domain_ids=ids)))
    summary.days, summary.window = days, window
    written = ["days", "window"]
    if queue:
        due = _due(user, now)
        summary.due_day, summary.due_count = due["due_day"], due["due_count"]
        written += ["due_day", "due_count"]
    summary.save(update_fields=written)
    user.summary = summary


def minutes_kept(user: Any, *, now: datetime.datetime) -> None:
    """Keep the summary's study time after a write of it (a timer stopped, time typed in,
    corrected or deleted), in its transaction, the learner's lock held."""
    summary = _to_keep(user, now=now)
    if summary is None:
        return
    summary.minutes = minutes_studied(user, first=chart.activity_start(timezone.localdate(now)))
    summary.save(update_fields=["minutes"])
    user.summary = summary


def minutes_of(
    summary: LearnerSummary,
) -> tuple[Counter[tuple[int, str]], dict[datetime.date, int]]:
    """The summary's study time as pages read it: minutes by (phase number, domain slug), and
    by day."""
    minutes = summary.minutes or {}
    return (
        Counter({(number, slug): total for number, slug, total in minutes.get("totals", [])}),
        {datetime.date.fromisoformat(day): total for day, total in minutes.get("days", {}).items()},
    )


def summary_of(user: Any, *, now: datetime.datetime) -> LearnerSummary:
    """The learner's summary for a page: the one kept by the writes (it came with request.user,
    progress.auth), or, if missing or made for another version or zone, built and saved again
    under the learner's lock."""
    summary = getattr(user, "summary", None)
    if summary is not None and _fits(summary, user):
        return summary
    with transaction.atomic():
        lock_learner(user)
        return rebuild(user, now=now)


def calendar_days(
    summary: LearnerSummary, first: datetime.date, today: datetime.date
) -> dict[datetime.date, dict[str, int]]:
    """The summary's days from ``first`` to ``today``, oldest first."""
    days = {datetime.date.fromisoformat(day): counts for day, counts in summary.days.items()}
    return {day: days[day] for day in sorted(days) if first <= day <= today}


def window_answers(summary: LearnerSummary) -> list[tuple[str, bool | None, datetime.date | None]]:
    """The summary's answers as accuracy reads them (progress.verdicts.readiness.accuracy_counts):
    a skipped question on its mock's day in the active time zone."""
    return [
        (
            domain,
            correct,
            timezone.localdate(datetime.datetime.fromisoformat(started)) if started else None,
        )
        for domain, answers in summary.window.items()
        for correct, started in answers
    ]


def build_all() -> int:
    """Every learner's summary built and saved, each in their own time zone (the migration that
    added summaries): the number built."""
    now = timezone.now()
    built = 0
    for user in get_user_model()._default_manager.select_related("profile").iterator(200):
        with timezone.override(learner_zone(user)):
            _store(build(user, now=now))
        built += 1
    return built
