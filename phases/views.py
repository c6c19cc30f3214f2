from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from phases.models import Domain, Intensity, Phase, Topic
from phases.schedule import GUIDE_HOURS


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    domains = Domain.objects.order_by("-exam_weight", "study_order")
    return render(
        request,
        "phases/home.html",
        {
            "domains": domains,
            "intensities": Intensity.objects.all(),
            "guide_hours": GUIDE_HOURS,
        },
    )


@require_GET
def syllabus(request: HttpRequest) -> HttpResponse:
    phases = Phase.objects.prefetch_related(
        Prefetch(
            "domains",
            queryset=Domain.objects.prefetch_related(
                Prefetch(
                    "topics", queryset=Topic.objects.order_by("order").prefetch_related("subareas")
                )
            ),
        )
    )
    return render(request, "phases/syllabus.html", {"phases": phases})
