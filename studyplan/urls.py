from django.contrib import admin
from django.urls import include, path

from studyplan import views
from studyplan.accounts import AdminLoginForm

admin.site.login_form = AdminLoginForm

# Two of allauth's account pages under its own names, first: the reset answered no sooner than a
# floor (views.PasswordResetView), the change checking the current password through the login
# limiter (views.PasswordChangeView). A refused form of any of its pages is a 400
# (studyplan.middleware.RefusedAccountFormIs400Middleware).
accounts = [
    path("password/change/", views.PasswordChangeView.as_view(), name="account_change_password"),
    path("password/reset/", views.PasswordResetView.as_view(), name="account_reset_password"),
]

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include(accounts)),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("", include("progress.urls")),
    path("", include("phases.urls")),
]
