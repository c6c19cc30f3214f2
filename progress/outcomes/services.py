"""Recording the exam outcome, with what the app said as the exam day ended."""

import datetime
from typing import Any

from django.db import transaction

from progress.lock import lock_learner
from progress.outcomes.models import ExamOutcome
from progress.verdicts.figures import learner_state
from progress.verdicts.headline import headline


def said(user: Any, day: datetime.date) -> dict[str, Any]:
    """The verdict and figures as they stood when ``day`` (the exam's) ended, that day read as
    exam day: ticks made by then, recall from the review log up to it, the answers counted by
    then (progress.verdicts.figures.learner_state). Plain values, kept with the outcome."""
    state = learner_state(user, today=day, with_practice=True, as_of_end_of=day)
    report = state.report
    return {
        "as_of": day.isoformat(),
        "ready": report.ready_to_book,
        "verdict": headline(state, review_due=0).sentence,
        "recall": round(report.weighted_recall, 4),
        "covered": round(report.covered, 4),
        "domains": {
            domain.slug: {
                "covered": round(domain.readiness, 4),
                "recall": round(domain.recall, 4),
                "right": domain.right,
                "answered": domain.answered,
                "accuracy_range": list(domain.accuracy_range) if domain.accuracy_range else None,
            }
            for domain in report.domains
        },
    }


@transaction.atomic
def record_outcome(
    *,
    user: Any,
    sat_on: datetime.date,
    passed: bool,
    domain_scores: dict[str, int],
    counted: bool,
    now: datetime.datetime,
) -> ExamOutcome:
    """Record the learner's outcome, or change it; what the app said is worked out again for
    the day sat (the figures of that day do not change with later study)."""
    lock_learner(user)
    values = {
        "sat_on": sat_on,
        "passed": passed,
        "domain_scores": domain_scores,
        "counted": counted,
        "said": said(user, sat_on),
        "updated_at": now,
    }
    outcome, _ = ExamOutcome.objects.update_or_create(
        user=user, defaults=values, create_defaults=values | {"recorded_at": now}
    )
    return outcome


@transaction.atomic
def delete_outcome(*, user: Any) -> bool:
    lock_learner(user)
    deleted, _ = ExamOutcome.objects.filter(user=user).delete()
    return bool(deleted)
