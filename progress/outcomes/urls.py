from django.urls import path

from progress.outcomes import views

urlpatterns = [
    path("outcome/", views.outcome, name="outcome"),
    path("outcome/delete/", views.outcome_delete, name="outcome-delete"),
    path("how-well-we-predict/", views.how_well, name="how-well"),
]
