"""A learner reporting a problem with a practice question."""

import datetime
from typing import Any

from django.db import transaction

from phases.models import Question

from ..models import AttemptQuestion, QuestionReport


def has_seen_key(user: Any, question: Question, now: datetime.datetime) -> bool:
    """Whether the learner was shown this question's key: it is among their counted answers
    (answered in a drill, or in a mock that is over). Only those can be reported."""
    return AttemptQuestion.objects.counted(user, now).filter(question=question).exists()


@transaction.atomic
def report_question(
    *, user: Any, question: Question, kind: str, note: str, now: datetime.datetime
) -> QuestionReport:
    """Save the report. A second report on the same question while the first is still open
    replaces it (a learner who clicks twice, or thinks again, makes one report)."""
    report, _ = QuestionReport.objects.update_or_create(
        user=user,
        question=question,
        status=QuestionReport.Status.OPEN,
        defaults={"kind": kind, "note": note, "created_at": now},
    )
    return report
