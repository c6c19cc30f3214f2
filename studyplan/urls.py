from allauth.account import views as allauth_views
from django.contrib import admin
from django.urls import include, path, re_path

from studyplan import views
from studyplan.accounts import AdminLoginForm

admin.site.login_form = AdminLoginForm

# allauth's account pages under its own names, these few first: each answers a refused form with
# a 400 (views.RefusedIs400).
accounts = [
    path("login/", views.refusing_with_400(allauth_views.LoginView), name="account_login"),
    path("signup/", views.refusing_with_400(allauth_views.SignupView), name="account_signup"),
    path("email/", views.refusing_with_400(allauth_views.EmailView), name="account_email"),
    path("password/change/", views.PasswordChangeView.as_view(), name="account_change_password"),
    path(
        "password/set/",
        views.refusing_with_400(allauth_views.PasswordSetView),
        name="account_set_password",
    ),
    path("password/reset/", views.PasswordResetView.as_view(), name="account_reset_password"),
    re_path(
        r"^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$",
        views.refusing_with_400(allauth_views.PasswordResetFromKeyView),
        name="account_reset_password_from_key",
    ),
]

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include(accounts)),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("", include("progress.urls")),
    path("", include("phases.urls")),
]
