from django.urls import path

from progress.dashboard import views

urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
]
