from django.urls import path

from phases import views

app_name = "phases"
urlpatterns = [
    path("", views.home, name="home"),
    path("syllabus/", views.syllabus, name="syllabus"),
]
