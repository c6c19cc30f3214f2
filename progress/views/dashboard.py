import datetime

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_GET

from studyplan import caching

from .. import chart
from ..figures import learner_state
from ..models import Attempt
from .common import HtmxHttpRequest


def _render(
    request: HtmxHttpRequest, today: datetime.date, per_request: dict[str, str]
) -> tuple[str, datetime.datetime | None]:
    state = learner_state(request.user, today=today, with_practice=True)
    report = state.report
    current = state.current_slot
    # A live mock's answers start to count at its deadline, with no write to say so.
    changes_at = (
        Attempt.objects.for_user(request.user)
        .open_mock(timezone.now())
        .values_list("deadline", flat=True)
        .first()
    )
    context = {
        "state": state,
        "report": report,
        "rules": report.rules,
        "overall": report,
        "columns": chart.columns(report.domains),
        "chart": chart,
        "first_phase": state.content.phases[0] if state.content.phases else None,
        "next_check": state.next_check(),
        "current_slot": current,
        "current_phase": state.current_phase,
        "current_progress": state.phases.get(current.number) if current else None,
        **per_request,
    }
    return render_to_string("progress/dashboard.html", context, request), changes_at


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest) -> HttpResponse:
    """The learner's home, cached whole until their next change (see studyplan.caching)."""
    today = timezone.localdate()
    return HttpResponse(
        caching.cached_page(
            request,
            caching.dashboard_key(request.user, today),
            lambda per_request: _render(request, today, per_request),
        )
    )
