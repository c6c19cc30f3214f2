from django.urls import include, path

from progress.practice import reports, results, views

attempt_urls = [
    path("", views.attempt_question, name="attempt"),
    path("questions/<int:position>/", views.attempt_answer, name="attempt-answer"),
    path("flagged/", views.attempt_flagged, name="attempt-flagged"),
    path("submit/", views.attempt_submit, name="attempt-submit"),
    path("discard/", views.attempt_discard, name="attempt-discard"),
    path("result/", results.attempt_result, name="attempt-result"),
]

urlpatterns = [
    path("practice/", views.practice_home, name="practice"),
    path("practice/drill/", views.drill_start, name="drill-start"),
    path("practice/mock/", views.mock_start, name="mock-start"),
    path("practice/history/", results.practice_history, name="practice-history"),
    path("practice/<int:attempt_id>/", include(attempt_urls)),
    path("questions/<slug:slug>/report/", reports.question_report, name="question-report"),
]
