"""A learner reporting a problem with a practice question."""

import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from phases.models import Question
from progress.lock import lock_learner
from progress.models import AttemptQuestion, QuestionReport
from progress.practice.forms import QuestionReportForm
from progress.web import HtmxHttpRequest, our_page_or


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
    lock_learner(user)
    report, _ = QuestionReport.objects.update_or_create(
        user=user,
        question=question,
        status=QuestionReport.Status.OPEN,
        defaults={"kind": kind, "note": note, "created_at": now},
    )
    return report


@login_required
@require_http_methods(["GET", "POST"])
def question_report(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    question = Question.objects.filter(slug=slug).first() if len(slug) <= 50 else None
    # Only a question whose key the learner was shown: any other slug is no page of theirs.
    if question is None or not has_seen_key(request.user, question, timezone.now()):
        raise Http404("No question of yours by that name: report from its answer.")
    # Only a page of ours is the way back: a crafted "next" must not send the learner off-site.
    target = request.POST.get("next") or request.GET.get("next") or ""
    back = our_page_or(request, target, reverse("progress:practice"))
    form = QuestionReportForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        # The form's fields are the report's: what is wrong (kind) and the learner's note.
        report_question(
            user=request.user, question=question, now=timezone.now(), **form.cleaned_data
        )
        messages.success(
            request,
            "Thank you: your report on this question was saved. Whoever keeps the question "
            "bank reads every one, and fixes or retires the question if it is wrong.",
        )
        return redirect(back)
    return render(
        request,
        "progress/question_report.html",
        {"question": question, "form": form, "back": back},
        status=400 if request.method == "POST" else 200,
    )
