from django.urls import path

from . import views

app_name = "phases"
urlpatterns = [
    path("", views.home, name="home"),
    path("syllabus/", views.syllabus, name="syllabus"),
]
