"""System checks for a production set-up (`manage.py check`, `check --deploy`), each message
saying what would fail for learners."""

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.core.files.storage import storages

# Checked on every start but not by collectstatic, which must still be able to write the
# manifest; gunicorn runs no checks, so wsgi.py and asgi.py call refuse_to_serve.
SERVING = "serving"
LOOPBACK = {"localhost", "127.0.0.1", "::1", None}

MAIL_GOES_NOWHERE = {
    f"django.core.mail.backends.{name}.EmailBackend"
    for name in ("console", "locmem", "dummy", "filebased")
}


@checks.register(checks.Tags.security, deploy=True)
def mail_is_delivered(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    if settings.DEBUG or settings.EMAIL_BACKEND not in MAIL_GOES_NOWHERE:
        return []
    return [
        checks.Error(
            f"EMAIL_BACKEND is {settings.EMAIL_BACKEND}, which sends no mail: learners would "
            "never get their password-reset links, confirmation links or weekly reminders.",
            hint="Set DJANGO_EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and "
            "DJANGO_EMAIL_HOST, DJANGO_EMAIL_PORT, DJANGO_EMAIL_HOST_USER, "
            "DJANGO_EMAIL_HOST_PASSWORD (docs/deploy.md, One server).",
            id="studyplan.E001",
        )
    ]


@checks.register(checks.Tags.security, deploy=True)
def site_url_is_public(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    url = urlsplit(settings.SITE_URL)
    if settings.DEBUG or (url.scheme == "https" and url.hostname not in LOOPBACK):
        return []
    return [
        checks.Warning(
            f"SITE_URL is {settings.SITE_URL}: the links in mail (reset, confirmation, reminders) "
            "and in the plan's calendar would not reach learners.",
            hint="Set DJANGO_SITE_URL to the site's public https address "
            "(docs/deploy.md, One server).",
            id="studyplan.W002",
        )
    ]


@checks.register(SERVING)
def static_manifest_exists(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    storage = storages["staticfiles"]
    if settings.DEBUG or not isinstance(storage, ManifestFilesMixin):
        return []
    if storage.manifest_storage.exists(storage.manifest_name):
        return []
    where = storage.manifest_storage.path(storage.manifest_name)
    return [
        checks.Error(
            f"The static files manifest {where} is missing, so every HTML page would answer "
            "500: run collectstatic.",
            hint="Run `python manage.py collectstatic --noinput` (with the same "
            "DJANGO_STATIC_ROOT) before migrate and before starting the server.",
            id="studyplan.E002",
        )
    ]


def refuse_to_serve() -> None:
    errors = [error for error in checks.run_checks(tags=[SERVING]) if error.is_serious()]
    if errors:
        raise ImproperlyConfigured(
            "\n".join(f"{error.id}: {error.msg} {error.hint or ''}".strip() for error in errors)
        )
