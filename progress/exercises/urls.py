from django.urls import path

from progress.exercises import views

urlpatterns = [
    path("study/<slug:slug>/exercise/", views.exercise_save, name="exercise-save"),
    path("study/<slug:slug>/exercise/parts/", views.exercise_parts, name="exercise-parts"),
    path("study/<slug:slug>/exercise.md", views.exercise_download, name="exercise-download"),
]
