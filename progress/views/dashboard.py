from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from .. import chart
from ..exercise import exercise_status
from ..figures import learner_state
from ..headline import headline
from ..queue import review_queue
from ..review_days import current_review_day
from ..services.practice import close_overdue_mock
from ..study_time import study_time
from .common import HtmxHttpRequest


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest) -> HttpResponse:
    """The learner's home, worked out from their rows on every request: nothing to go stale."""
    # A mock whose time ran out is closed first: its answers count from then on.
    close_overdue_mock(user=request.user, now=timezone.now())
    state = learner_state(request.user, today=timezone.localdate(), with_practice=True)
    report = state.report
    current = state.current_slot
    review_due = len(
        review_queue(request.user, day=current_review_day(request.user, timezone.now()))
    )
    context = {
        "headline": headline(state, review_due=review_due),
        "review_due": review_due,
        "trend": chart.trend(state.recall_trend, bar=report.rules.recall_percent),
        "state": state,
        "report": report,
        "lagging": report.lagging,
        "rules": report.rules,
        "overall": report,
        "domain_chart": chart.domain_chart(report.domains),
        "next_check": state.next_check(),
        "current_slot": current,
        "current_phase": state.current_phase,
        "current_progress": state.phases.get(current.number) if current else None,
        "study_time": study_time(request.user, state.content, state.schedule, state.today),
        "current_exercise": exercise_status(request.user, state.current_phase)
        if state.current_phase
        else None,
    }
    return render(request, "progress/dashboard.html", context)
