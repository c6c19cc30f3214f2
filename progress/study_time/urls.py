from django.urls import path

from progress.study_time import views

urlpatterns = [
    path("study/<slug:slug>/timer/start/", views.timer_start, name="timer-start"),
    path("study/<slug:slug>/timer/stop/", views.timer_stop, name="timer-stop"),
    path("study/<slug:slug>/timer/", views.timer_status, name="timer-status"),
    path("study/<slug:slug>/time/", views.session_record, name="study-session-record"),
    path("time/", views.sessions, name="study-time"),
    path("time/<int:session_id>/", views.session_edit, name="study-session"),
    path("time/<int:session_id>/delete/", views.session_delete, name="study-session-delete"),
]
