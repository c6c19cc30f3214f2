from django.urls import path

from progress.planning import views

urlpatterns = [
    path("plan/", views.plan, name="plan"),
    path("plan/choose/", views.plan_choose, name="plan-choose"),
    path("plan/catch-up/", views.plan_catch_up, name="plan-catch-up"),
    path("plan/preview/", views.plan_preview, name="plan-preview"),
    path("plan/calendar.ics", views.plan_calendar, name="plan-calendar"),
    path("plan/placement/", views.placement_start, name="placement-start"),
]
