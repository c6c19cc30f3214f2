from django.urls import path

from . import practice_views, views

app_name = "progress"
urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("plan/", views.plan, name="plan"),
    path("plan/choose/", views.plan_choose, name="plan-choose"),
    path("plan/preview/", views.plan_preview, name="plan-preview"),
    path("plan/calendar.ics", views.plan_calendar, name="plan-calendar"),
    path("study/<slug:slug>/", views.phase, name="phase"),
    path("study/checks/<slug:slug>/", views.selfcheck_toggle, name="selfcheck-toggle"),
    path(
        "study/checks/<slug:slug>/confidence/",
        practice_views.selfcheck_confidence,
        name="selfcheck-confidence",
    ),
    path("review/", practice_views.review, name="review"),
    path("review/<slug:slug>/", practice_views.review_answer, name="review-answer"),
    path("practice/", practice_views.practice_home, name="practice"),
    path("practice/drill/", practice_views.drill_start, name="drill-start"),
    path("practice/mock/", practice_views.mock_start, name="mock-start"),
    path("practice/history/", practice_views.practice_history, name="practice-history"),
    path("practice/<int:attempt_id>/", practice_views.attempt_question, name="attempt"),
    path(
        "practice/<int:attempt_id>/questions/<int:position>/",
        practice_views.attempt_answer,
        name="attempt-answer",
    ),
    path(
        "practice/<int:attempt_id>/questions/<int:position>/flag/",
        practice_views.attempt_flag,
        name="attempt-flag",
    ),
    path(
        "practice/<int:attempt_id>/flagged/", practice_views.attempt_flagged, name="attempt-flagged"
    ),
    path("practice/<int:attempt_id>/submit/", practice_views.attempt_submit, name="attempt-submit"),
    path("practice/<int:attempt_id>/result/", practice_views.attempt_result, name="attempt-result"),
    path("account/", views.account, name="account"),
    path("account/export.json", views.account_export, name="account-export"),
    path("account/delete/", views.account_delete, name="account-delete"),
]
