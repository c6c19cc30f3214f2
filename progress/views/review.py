"""The review queue: ticked self-checks that are due today."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from studyplan.caching import learner_syllabus

from .. import leitner
from ..models import CheckOff
from ..services.review import review as record_review
from .common import HtmxHttpRequest, bad_request, current_check


def _review_page(request: HtmxHttpRequest) -> HttpResponse:
    by_id = {check.id: check for check in learner_syllabus(request.user).checks}
    due = (
        CheckOff.objects.for_user(request.user)
        .due(timezone.localdate())
        .order_by("due_on", "box", "pk")
        .values_list("self_check_id", flat=True)
    )
    queue = [by_id[check_id] for check_id in due if check_id in by_id]
    context = {
        "card": queue[0] if queue else None,
        "review_count": len(queue),
        "review_due": len(queue),
        "review_intervals": leitner.intervals_text(),
    }
    if request.htmx:
        return render(request, "progress/review.html#review-response", context)
    return render(request, "progress/review.html", context)


@login_required
@require_GET
def review(request: HtmxHttpRequest) -> HttpResponse:
    return _review_page(request)


@login_required
@require_POST
def review_answer(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    check = current_check(request, slug)
    knew = request.POST.get("knew")
    if knew not in ("0", "1"):
        return bad_request("Say knew=1 (knew it) or knew=0 (didn't).")
    if not record_review(
        user=request.user, self_check_id=check.id, knew=knew == "1", today=timezone.localdate()
    ):
        return HttpResponse("You have not ticked this self-check.", status=404)
    if request.htmx:
        return _review_page(request)
    return redirect("progress:review")
