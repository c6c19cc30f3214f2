"""Staff see the public figures ("How well our verdict predicts") at the top of the outcomes'
list, and each outcome read-only: a learner's own record is theirs to change."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from progress.auth import learner_syllabus
from progress.outcomes.figures import MIN_CELL, MIN_LEARNERS
from progress.outcomes.models import ExamOutcome, published_figures


@admin.register(ExamOutcome)
class ExamOutcomeAdmin(admin.ModelAdmin):
    list_display = ["user", "sat_on", "passed", "counted", "said_ready"]
    list_filter = ["passed", "counted", "sat_on"]
    list_select_related = ["user"]
    readonly_fields = [
        "user",
        "sat_on",
        "passed",
        "domain_scores",
        "counted",
        "said",
        "recorded_at",
        "updated_at",
    ]

    @admin.display(boolean=True, description="The app said ready")
    def said_ready(self, outcome: ExamOutcome) -> bool:
        return bool(outcome.said.get("ready"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        content = learner_syllabus(request.user)
        figures = published_figures(content)
        extra = {
            "public_figures": figures,
            "min_learners": MIN_LEARNERS,
            "min_cell": MIN_CELL,
        }
        return super().changelist_view(request, extra_context=(extra_context or {}) | extra)
