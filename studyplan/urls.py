from django.contrib import admin
from django.urls import include, path

from . import views

admin.site.login_form = views.AdminLoginForm

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("accounts/signup/", views.signup, name="signup"),
    # Before Django's own: the current password is checked through the login limiter.
    path("accounts/password_change/", views.password_change, name="password_change"),
    # Before Django's own: a username longer than any account's is refused before it is checked.
    path("accounts/login/", views.login_page, name="login"),
    # Before Django's own: links from DJANGO_SITE_URL, and a throttle on reset mail.
    path("accounts/password_reset/", views.password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("", include("progress.urls")),
    path("", include("phases.urls")),
]
