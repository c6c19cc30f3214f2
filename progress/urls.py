from django.urls import path

from . import views

app_name = "progress"
urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("plan/", views.plan, name="plan"),
    path("plan/choose/", views.plan_choose, name="plan-choose"),
    path("plan/preview/", views.plan_preview, name="plan-preview"),
    path("plan/calendar.ics", views.plan_calendar, name="plan-calendar"),
    path("study/<slug:slug>/", views.phase, name="phase"),
    path("study/checks/<slug:slug>/", views.selfcheck_toggle, name="selfcheck-toggle"),
    path("account/", views.account, name="account"),
    path("account/export.json", views.account_export, name="account-export"),
    path("account/delete/", views.account_delete, name="account-delete"),
]
