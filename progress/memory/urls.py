from django.urls import path

from progress.memory import phase_page, review_page

urlpatterns = [
    path("study/", phase_page.study, name="study"),
    path("study/<slug:slug>/", phase_page.phase, name="phase"),
    path("study/checks/<slug:slug>/", phase_page.selfcheck_toggle, name="selfcheck-toggle"),
    path("study/checks/<slug:slug>/reveal/", phase_page.selfcheck_reveal, name="selfcheck-reveal"),
    path(
        "study/checks/<slug:slug>/outcome/",
        phase_page.selfcheck_outcome,
        name="selfcheck-outcome",
    ),
    path("review/", review_page.review, name="review"),
    path("review/reveal/", review_page.review_reveal, name="review-reveal"),
    path("review/<slug:slug>/", review_page.review_answer, name="review-answer"),
    path(
        "review/questions/<int:card_id>/",
        review_page.review_question_answer,
        name="review-question",
    ),
]
