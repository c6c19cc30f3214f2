"""Recording the exam outcome, and the public page "How well our verdict predicts"."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from progress.auth import learner_syllabus
from progress.outcomes.figures import MIN_CELL, MIN_LEARNERS
from progress.outcomes.forms import OutcomeForm
from progress.outcomes.models import outcome_of, published_figures
from progress.outcomes.services import delete_outcome, record_outcome
from progress.planning.schedules import plan_of
from progress.web import HtmxHttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def outcome(request: HtmxHttpRequest) -> HttpResponse:
    content = learner_syllabus(request.user)
    existing = outcome_of(request.user)
    if request.method == "POST":
        form = OutcomeForm(request.POST, domains=content.domains)
        if not form.is_valid():
            return render(
                request, "progress/outcome.html", {"form": form, "outcome": existing}, status=400
            )
        record_outcome(
            user=request.user,
            sat_on=form.cleaned_data["sat_on"],
            passed=form.cleaned_data["passed"],
            domain_scores=form.domain_scores(),
            counted=form.cleaned_data["counted"],
            now=timezone.now(),
        )
        messages.success(
            request,
            "Your result is recorded"
            + (
                ", and counted in the public figures."
                if form.cleaned_data["counted"]
                else ". It is not counted in the public figures unless you say so."
            ),
        )
        return redirect("progress:account")
    if existing is not None:
        initial = {
            "sat_on": existing.sat_on,
            "passed": "yes" if existing.passed else "no",
            "counted": existing.counted,
        } | {f"score_{slug}": score for slug, score in existing.domain_scores.items()}
    else:
        plan = plan_of(request.user)
        exam = plan.exam_date if plan is not None else None
        initial = {"sat_on": exam if exam and exam <= timezone.localdate() else None}
    form = OutcomeForm(initial=initial, domains=content.domains)
    return render(request, "progress/outcome.html", {"form": form, "outcome": existing})


@login_required
@require_POST
def outcome_delete(request: HtmxHttpRequest) -> HttpResponse:
    if delete_outcome(user=request.user):
        messages.success(request, "Your result is deleted, and counts nowhere.")
    else:
        messages.info(request, "There was no result to delete.")
    return redirect("progress:account")


@require_GET
def how_well(request: HtmxHttpRequest) -> HttpResponse:
    """Public: opted-in learners' outcomes against what the app said, in totals only."""
    content = learner_syllabus(request.user)
    figures = published_figures(content)
    enough = figures.enough
    return render(
        request,
        "progress/how_well.html",
        {
            "figures": figures,
            "min_learners": MIN_LEARNERS,
            "min_cell": MIN_CELL,
            # Each cell, or None under MIN_CELL ("not enough results yet").
            "cells": {
                "ready_passed": figures.cell(True, True),
                "ready_failed": figures.cell(True, False),
                "not_ready_passed": figures.cell(False, True),
                "not_ready_failed": figures.cell(False, False),
            }
            if enough
            else {},
            "recall_passed": figures.mean_percent(figures.recall_passed),
            "recall_not_passed": figures.mean_percent(figures.recall_not_passed),
        },
    )
