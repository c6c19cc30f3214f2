"""Fast, hermetic settings for the test suite."""

import os
import tempfile

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_SECURE_COOKIES", "0")

from studyplan.settings import *  # noqa: E402, F403
from studyplan.settings import DATABASES, STORAGES  # noqa: E402 - named, for the linter

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Serve static files straight from the finders: no collectstatic before the tests.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# Live-server threads must not keep connections open past their request: PostgreSQL cannot drop
# the test database while they linger.
DATABASES["default"]["CONN_MAX_AGE"] = 0

# A file, not memory, for SQLite: the live server then serves concurrent requests on their own
# connections, as gunicorn's workers would (an in-memory database shares one across threads).
# One file per test run, so two runs side by side never share (and corrupt) a database.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {
        "NAME": os.path.join(tempfile.gettempdir(), f"studyplan-test-{os.getpid()}.sqlite3")
    }
