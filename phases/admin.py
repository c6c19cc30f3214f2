from django.contrib import admin

from phases.models import Domain, ExercisePart, Intensity, Phase, PhaseHours, SelfCheck, Topic


@admin.register(Domain)
class DomainAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "exam_weight", "study_order"]
    ordering = ["study_order"]
    search_fields = ["name", "slug"]


class ExercisePartInline(admin.TabularInline):
    model = ExercisePart
    extra = 0


@admin.register(Phase)
class PhaseAdmin(admin.ModelAdmin):
    inlines = [ExercisePartInline]
    list_display = ["number", "title", "slug"]
    list_filter = ["domains"]
    filter_horizontal = ["domains"]
    search_fields = ["title", "goal"]


@admin.register(Topic)
class TopicAdmin(admin.ModelAdmin):
    list_display = ["title", "domain", "order", "is_published", "has_trap"]
    list_filter = ["domain", "is_published"]
    search_fields = ["title", "summary", "trap"]
    list_select_related = ["domain"]

    @admin.display(boolean=True, description="trap")
    def has_trap(self, obj: Topic) -> bool:
        return bool(obj.trap)


@admin.register(SelfCheck)
class SelfCheckAdmin(admin.ModelAdmin):
    list_display = ["slug", "phase", "domain", "topic", "order", "retired"]
    list_filter = ["phase", "domain", "retired"]
    search_fields = ["slug", "prompt", "answer"]
    list_select_related = ["phase", "domain", "topic"]


class PhaseHoursInline(admin.TabularInline):
    model = PhaseHours
    extra = 0


@admin.register(Intensity)
class IntensityAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "hours_per_week", "is_default", "order"]
    list_filter = ["is_default"]
    inlines = [PhaseHoursInline]
