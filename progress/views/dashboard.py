from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from .. import chart
from ..figures import learner_state
from .common import HtmxHttpRequest


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest) -> HttpResponse:
    """The learner's home, worked out from their rows on every request: nothing to go stale."""
    state = learner_state(request.user, today=timezone.localdate(), with_practice=True)
    report = state.report
    current = state.current_slot
    context = {
        "state": state,
        "report": report,
        "rules": report.rules,
        "overall": report,
        "columns": chart.columns(report.domains),
        "chart": chart,
        "next_check": state.next_check(),
        "current_slot": current,
        "current_phase": state.current_phase,
        "current_progress": state.phases.get(current.number) if current else None,
    }
    return render(request, "progress/dashboard.html", context)
