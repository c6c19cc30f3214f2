"""The admin's view of what learners made of the question bank: their reports, and each
question's statistics (worked out on the admin page, never on a learner's request)."""

from typing import Any

from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from phases.models import Question
from progress.models import AttemptQuestion, QuestionReport
from progress.practice.itemstats import ItemStats, item_statistics


@admin.register(QuestionReport)
class QuestionReportAdmin(admin.ModelAdmin):
    list_display = ["question", "kind", "status", "created_at", "user"]
    list_editable = ["status"]
    list_filter = ["status", "kind"]
    search_fields = ["question__slug", "question__prompt", "note"]
    list_select_related = ["question", "user"]
    readonly_fields = ["user", "question", "kind", "note", "created_at"]
    fields = ["question", "kind", "note", "user", "created_at", "status"]


class OpenReports(admin.SimpleListFilter):
    title = "reports"
    parameter_name = "reported"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("open", "With open reports")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "open":
            return queryset.filter(open_reports__gt=0)
        return queryset


@admin.register(Question)
class QuestionAdmin(admin.ModelAdmin):
    list_filter = [OpenReports, "domain", "subarea", "stretch", "retired"]
    search_fields = ["slug", "prompt"]
    list_select_related = ["domain"]
    # Named here, not derived from the list display: Django would call get_list_display a
    # second time for it, and read every counted answer again.
    sortable_by = ["slug", "domain", "retired", "open_reports"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Question]:
        queryset = super().get_queryset(request)
        return queryset.annotate(open_reports=Count("reports", filter=Q(reports__status="open")))

    def get_list_display(self, request: HttpRequest) -> Any:
        # Every learner's first counted answers (a repeat has seen the key), read once for the
        # page (an admin's request only).
        rows = (
            AttemptQuestion.objects.counted_by_anyone(timezone.now())
            .filter(first_sight=True)
            .values_list("attempt__user_id", "question_id", "is_correct")
        )
        stats = item_statistics(
            (learner, question, bool(right)) for learner, question, right in rows
        )
        empty = ItemStats(answered=0, right=0, discrimination=None)

        @admin.display(description="answered")
        def answered(obj: Question) -> int:
            return stats.get(obj.pk, empty).answered

        @admin.display(description="right")
        def share_right(obj: Question) -> str:
            share = stats.get(obj.pk, empty).share_right
            return "—" if share is None else f"{share:.0%}"

        @admin.display(description="discrimination")
        def discrimination(obj: Question) -> str:
            item = stats.get(obj.pk, empty)
            if item.discrimination is None:
                return "—"
            flag = " ⚠ strong learners do worse" if item.reversed else ""
            return f"{item.discrimination:+.2f}{flag}"

        return ["slug", "domain", "retired", "open_reports", answered, share_right, discrimination]

    @admin.display(description="open reports", ordering="open_reports")
    def open_reports(self, obj: Any) -> int:
        return int(obj.open_reports)
