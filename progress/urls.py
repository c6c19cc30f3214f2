from django.urls import include, path

from .views import (
    account,
    dashboard,
    plan,
    practice,
    reminders,
    reports,
    results,
    review,
    study,
    study_time,
)

attempt_urls = [
    path("", practice.attempt_question, name="attempt"),
    path("questions/<int:position>/", practice.attempt_answer, name="attempt-answer"),
    path("flagged/", practice.attempt_flagged, name="attempt-flagged"),
    path("submit/", practice.attempt_submit, name="attempt-submit"),
    path("discard/", practice.attempt_discard, name="attempt-discard"),
    path("result/", results.attempt_result, name="attempt-result"),
]

app_name = "progress"
urlpatterns = [
    path("dashboard/", dashboard.dashboard, name="dashboard"),
    path("plan/", plan.plan, name="plan"),
    path("plan/choose/", plan.plan_choose, name="plan-choose"),
    path("plan/preview/", plan.plan_preview, name="plan-preview"),
    path("plan/calendar.ics", plan.plan_calendar, name="plan-calendar"),
    path("study/", study.study, name="study"),
    path("study/<slug:slug>/", study.phase, name="phase"),
    path("study/checks/<slug:slug>/", study.selfcheck_toggle, name="selfcheck-toggle"),
    path(
        "study/checks/<slug:slug>/confidence/",
        study.selfcheck_confidence,
        name="selfcheck-confidence",
    ),
    path("study/<slug:slug>/timer/start/", study_time.timer_start, name="timer-start"),
    path("study/<slug:slug>/timer/stop/", study_time.timer_stop, name="timer-stop"),
    path("study/<slug:slug>/time/", study_time.session_record, name="study-session-record"),
    path("time/", study_time.sessions, name="study-time"),
    path("time/<int:session_id>/", study_time.session_edit, name="study-session"),
    path("time/<int:session_id>/delete/", study_time.session_delete, name="study-session-delete"),
    path("review/", review.review, name="review"),
    path("review/reveal/", review.review_reveal, name="review-reveal"),
    path("review/<slug:slug>/", review.review_answer, name="review-answer"),
    path("review/questions/<int:card_id>/", review.review_question_answer, name="review-question"),
    path("practice/", practice.practice_home, name="practice"),
    path("practice/drill/", practice.drill_start, name="drill-start"),
    path("practice/mock/", practice.mock_start, name="mock-start"),
    path("practice/placement/", plan.placement_start, name="placement-start"),
    path("practice/history/", results.practice_history, name="practice-history"),
    path("practice/<int:attempt_id>/", include(attempt_urls)),
    path("questions/<slug:slug>/report/", reports.question_report, name="question-report"),
    path("account/", account.account, name="account"),
    path("account/export.json", account.account_export, name="account-export"),
    path("account/time-zone/", account.account_time_zone, name="account-time-zone"),
    path("account/delete/", account.account_delete, name="account-delete"),
    path("account/reminders/", account.account_reminders, name="account-reminders"),
    path(
        "reminders/unsubscribe/<str:token>/",
        reminders.reminder_unsubscribe,
        name="reminder-unsubscribe",
    ),
]
