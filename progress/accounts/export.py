"""A learner's own data: everything we hold, as JSON, and deleting it all.

tests/test_export_complete.py walks the models related to the user and fails when one of them
is missing here or survives the deletion.
"""

import datetime
from typing import Any, cast

from allauth.account.models import EmailAddress, EmailConfirmation
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.contrib.auth import SESSION_KEY
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db.models import Prefetch, QuerySet

from progress.exercises.models import Exercise
from progress.lock import AccountGone, lock_learner  # noqa: F401  (AccountGone: its callers)
from progress.models import (
    Attempt,
    AttemptQuestion,
    CheckOff,
    EarlierPlan,
    ExamOutcome,
    LearnerSummary,
    MemoryCard,
    NotYet,
    Profile,
    QuestionCard,
    QuestionReport,
    Reveal,
    ReviewLog,
    StudyPlan,
    StudySession,
)
from progress.practice.services import live_mock_questions

# django-axes keys its rows by the username typed at the login form, not by a foreign key, so
# neither a cascade nor a join finds them: they are looked up by the account's username.
LOGIN_RECORD_MODELS = (AccessAttempt, AccessFailureLog, AccessLog)

LOGIN_RECORDS_ABOUT = (
    "Kept by the failed-login limiter for your username, whoever typed it: a failed attempt may "
    "not have been yours. Times are in UTC."
)
RESULT_WITHHELD = "not shown until the mock ends"


def _columns(row: Any, *, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every column of ``row`` but its id, its learner and ``leave_out``, in the model's order, by
    field name: a foreign key as its target's slug, a date in ISO 8601."""
    values = {}
    for field in row._meta.concrete_fields:
        if field.name in ("id", "user", *leave_out):
            continue
        value = getattr(row, field.name)
        if field.is_relation:
            value = value.slug if value is not None else None
        elif isinstance(value, datetime.date):
            value = value.isoformat()
        values[field.name] = value
    return values


def _card(card: MemoryCard, *, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
    # A card's columns, some under names that say what they hold.
    renamed = {"state": "memory_state", "stability": "stability_days", "left_at": "left_queue_at"}
    return {
        renamed.get(name, name): value
        for name, value in _columns(card, leave_out=leave_out).items()
    }


def _result(item: AttemptQuestion, *, over: bool) -> str:
    if item.answered_at is None:
        return "unanswered"
    if not over:
        # A live mock's key stays unseen until it is handed in, here as on every page.
        return RESULT_WITHHELD
    return "right" if item.is_correct else "wrong"


def _texts(options: list[dict[str, Any]], indexes: list[int]) -> list[str]:
    return [options[index].get("text", "") for index in indexes if 0 <= index < len(options)]


def _question(item: AttemptQuestion, *, over: bool, hide_choice: bool) -> dict[str, Any]:
    # Options as the learner saw them, and their answer as places in that order (1 for the
    # first shown): the order they are stored in would tell the key.
    options = item.question.options
    shown = [index for index in item.order if 0 <= index < len(options)]
    chosen = set(item.chosen or [])
    row = {
        **_columns(item, leave_out=("attempt", "order", "chosen", "is_correct")),
        "domain": item.question.domain.slug,
        "prompt": item.question.prompt,
        "options_shown": _texts(options, shown),
        "chosen": [place for place, index in enumerate(shown, start=1) if index in chosen]
        if item.chosen is not None
        else None,
        "chosen_options": _texts(options, [index for index in shown if index in chosen]),
        "result": _result(item, over=over),
    }
    if hide_choice:
        # An earlier answer to a question of the live mock: with the card it left, it would
        # name a wrong option of a question being answered now.
        row["chosen"] = row["chosen_options"] = RESULT_WITHHELD
    return row


def _attempt(attempt: Attempt, *, now: datetime.datetime, in_live_mock: set[int]) -> dict[str, Any]:
    # Only a mock hides its results; a drill shows each answer's verdict as it is given.
    over = attempt.kind == Attempt.Kind.DRILL or attempt.is_over(now)
    return {
        **_columns(attempt),
        # A question of the live mock has no verdict anywhere, not even in an earlier drill.
        "questions": [
            _question(
                item,
                over=over and item.question_id not in in_live_mock,
                hide_choice=item.question_id in in_live_mock and attempt.is_over(now),
            )
            for item in attempt.questions.all()
        ],
    }


def _review(row: ReviewLog, *, in_live_mock: set[int]) -> dict[str, Any]:
    values = _columns(row)
    if row.question_id in in_live_mock:
        # What was answered and whether it was right would tell a live question's key.
        values["answer"] = values["rating"] = RESULT_WITHHELD
    return values


def _login_records(username: str) -> dict[str, Any]:
    def rows(model: Any) -> Any:
        return model.objects.filter(username=username).order_by("attempt_time", "pk")

    return {
        "about": LOGIN_RECORDS_ABOUT,
        "failed_login_attempts": [
            {
                **_columns(record),
                "expires_at": record.expiration.expires_at.isoformat()
                if hasattr(record, "expiration")
                else None,
            }
            for record in rows(AccessAttempt).select_related("expiration")
        ],
        "failed_login_log": [_columns(record) for record in rows(AccessFailureLog)],
        "login_log": [_columns(record) for record in rows(AccessLog)],
    }


def _admin_action(entry: LogEntry) -> dict[str, Any]:
    # django-stubs leaves LogEntry's foreign key untyped.
    content_type = cast(ContentType | None, entry.content_type)
    return {
        **_columns(entry, leave_out=("content_type", "change_message")),
        "content_type": f"{content_type.app_label}.{content_type.model}" if content_type else None,
        "change_message": entry.get_change_message(),
    }


def learner_sessions(user: Any, sessions: QuerySet[Session]) -> list[Session]:
    """The ``sessions`` that log the learner in. Django's session rows name their user only
    inside their data, so each is decoded: the export reads the live ones, the deletion (behind
    the password and its limiter) every one."""
    return [
        session
        for session in sessions.order_by("expire_date").iterator()
        if session.get_decoded().get(SESSION_KEY) == str(user.pk)
    ]


def export_learner(user: Any, *, now: datetime.datetime) -> dict[str, Any]:
    """Everything the tracker holds about one learner, as plain JSON-ready values.

    A fixed number of queries however many attempts, answers or login records there are.
    """

    def mine(model: Any, *related: str, by: str) -> Any:
        return model.objects.filter(user=user).select_related(*related).order_by(by, "pk")

    in_live_mock = live_mock_questions(user=user, now=now)
    profile = Profile.objects.filter(user=user).first()
    plan = StudyPlan.objects.select_related("intensity").filter(user=user).first()
    summary = LearnerSummary.objects.filter(user=user).first()
    ticks = mine(CheckOff, "self_check__phase", "self_check__domain", by="done_at")
    questions = AttemptQuestion.objects.select_related("question__domain").order_by("position")
    attempts = mine(Attempt, "domain", by="started_at").prefetch_related(
        Prefetch("questions", queryset=questions)
    )
    return {
        "exported_at": now.isoformat(),
        "account": {
            **_columns(user, leave_out=("password",)),
            "groups": sorted(user.groups.values_list("name", flat=True)),
            "user_permissions": sorted(
                f"{permission.content_type.app_label}.{permission.codename}"
                for permission in user.user_permissions.select_related("content_type")
            ),
        },
        "email_addresses": [
            _columns(address) for address in EmailAddress.objects.filter(user=user).order_by("pk")
        ],
        # Confirmation links asked for: when, and for which address; never the key, a credential.
        "email_confirmations": [
            {
                **_columns(confirmation, leave_out=("email_address", "key")),
                "email_address": confirmation.email_address.email,
            }
            for confirmation in EmailConfirmation.objects.filter(email_address__user=user)
            .select_related("email_address")
            .order_by("pk")
        ],
        "profile": _columns(profile) if profile else None,
        "plan": _columns(plan) if plan else None,
        # What the pages read instead of the whole history, kept from the rows above.
        "summary": _columns(summary) if summary else None,
        # Each plan before this one, as it stood when changed or laid again from a later day.
        "earlier_plans": [_columns(row) for row in mine(EarlierPlan, by="replaced_at")],
        # The exam result, with what the app said as the exam day ended.
        "exam_outcome": [_columns(row) for row in mine(ExamOutcome, by="sat_on")],
        "ticks": [
            {
                **_card(tick),
                "phase": tick.self_check.phase.number,
                "domain": tick.self_check.domain.slug,
                "prompt": tick.self_check.prompt,
                "retired": tick.self_check.retired,
            }
            for tick in ticks
        ],
        "exercises": [_columns(row) for row in mine(Exercise, "phase", by="phase__number")],
        "question_cards": [
            {
                **_card(card, leave_out=("chosen",)),
                "domain": card.question.domain.slug,
                "prompt": card.question.prompt,
                "your_answer": RESULT_WITHHELD
                if card.question_id in in_live_mock
                else _texts(card.question.options, card.chosen or []),
            }
            for card in mine(QuestionCard, "question__domain", by="missed_at")
        ],
        "not_yet": [
            {**_columns(row), "prompt": row.self_check.prompt}
            for row in mine(NotYet, "self_check", by="due")
        ],
        # Self-checks turned over and not yet said how it went: what was typed before each.
        "reveals": [_columns(row) for row in mine(Reveal, "self_check", by="revealed_at")],
        "attempts": [_attempt(attempt, now=now, in_live_mock=in_live_mock) for attempt in attempts],
        "reviews": [
            _review(row, in_live_mock=in_live_mock)
            for row in mine(ReviewLog, "self_check", "question", by="reviewed_at")
        ],
        "study_sessions": [
            _columns(row) for row in mine(StudySession, "phase", "domain", by="day")
        ],
        "question_reports": [
            _columns(row) for row in mine(QuestionReport, "question", by="created_at")
        ],
        "login_records": _login_records(user.get_username()),
        "admin_actions": [
            _admin_action(entry) for entry in mine(LogEntry, "content_type", by="action_time")
        ],
        # When each session this account is logged in with ends; never its key, a credential.
        "sessions": [
            {"expire_date": session.expire_date.isoformat()}
            for session in learner_sessions(user, Session.objects.filter(expire_date__gt=now))
        ],
    }
