from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from progress import charts as chart
from progress.dashboard.activity import study_activity
from progress.dashboard.trend import recall_trend
from progress.exercises.models import exercise_status
from progress.outcomes.models import outcome_of
from progress.planning.today import CATCH_UP_DAYS, behind_days, learner_task
from progress.practice.services import close_overdue_mock
from progress.study_time.figures import study_time
from progress.summary.keep import due_count
from progress.verdicts.figures import learner_state
from progress.verdicts.headline import headline
from progress.web import HtmxHttpRequest


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest) -> HttpResponse:
    """The learner's home, worked out from their rows on every request: nothing to go stale."""
    # A mock whose time ran out is closed first: its answers count from then on.
    now = timezone.now()
    close_overdue_mock(user=request.user, now=now)
    state = learner_state(request.user, today=timezone.localdate(), with_practice=True)
    report = state.report
    current = state.current_slot
    exercise = exercise_status(request.user, state.current_phase) if state.current_phase else None
    progress = state.phases.get(current.number) if current else None
    review_due = due_count(request.user, now=now)
    context = {
        "headline": headline(state, review_due=review_due),
        "review_due": review_due,
        "trend": chart.trend(recall_trend(state), bar=report.rules.recall_percent),
        "activity": study_activity(request.user, today=state.today, schedule=state.schedule),
        "state": state,
        "report": report,
        "lagging": report.lagging,
        "rules": report.rules,
        "overall": report,
        "domain_chart": chart.domain_chart(report.domains),
        "next_check": state.next_check(),
        "current_slot": current,
        "current_phase": state.current_phase,
        "current_progress": progress,
        "study_time": study_time(request.user, state.content, state.schedule, state.today),
        "current_exercise": exercise,
        "behind": behind if (behind := behind_days(state)) >= CATCH_UP_DAYS else 0,
        # The day after the exam, the dashboard asks how it went (one query, only then).
        "ask_outcome": state.plan is not None
        and state.plan.exam_date is not None
        and state.plan.exam_date < state.today
        and outcome_of(request.user) is None,
        "todays_task": learner_task(state, exercise),
    }
    return render(request, "progress/dashboard.html", context)
