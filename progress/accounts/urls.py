from django.urls import path

from progress.accounts import views

urlpatterns = [
    path("account/", views.account, name="account"),
    path("account/export.json", views.account_export, name="account-export"),
    path("account/time-zone/", views.account_time_zone, name="account-time-zone"),
    path("account/delete/", views.account_delete, name="account-delete"),
    path("account/reminders/", views.account_reminders, name="account-reminders"),
    path(
        "reminders/unsubscribe/<str:token>/",
        views.reminder_unsubscribe,
        name="reminder-unsubscribe",
    ),
]
