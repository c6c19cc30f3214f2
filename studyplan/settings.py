"""Settings read from the environment, with safe local defaults (docs/settings.md)."""

import datetime
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name, "")
    return value.strip().lower() in {"1", "true", "yes", "on"} if value else default


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. It is required when DJANGO_DEBUG is off; "
            "set it to a long random string (or set DJANGO_DEBUG=1 for local development)."
        )
    SECRET_KEY = "django-insecure-local-development-only"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")
CSRF_FAILURE_VIEW = "studyplan.views.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # apnumber: the syllabus's counts in words ("seven domains")
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "axes",
    "csp",
    "studyplan",
    "phases",
    "progress",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before sessions and axes read them: PostgreSQL cannot take a NUL in text (see the module).
    "studyplan.middleware.RefuseNulHeadersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "studyplan.middleware.PrivatePagesMiddleware",
    "progress.timezones.LearnerTimeZoneMiddleware",  # needs request.user
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "studyplan.middleware.RefusedAccountFormIs400Middleware",
    "studyplan.middleware.CacheUnavailableMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a lockout raised during login into its response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "studyplan.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "studyplan.context_processors.nav",
                "studyplan.context_processors.review_due",
            ],
        },
    },
]

WSGI_APPLICATION = "studyplan.wsgi.application"

(BASE_DIR / "var").mkdir(exist_ok=True)
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'var' / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
        # Off, as Django's default: a check is one more round trip on every request.
        conn_health_checks=os.environ.get("DJANGO_CONN_HEALTH_CHECKS", "0") == "1",
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE: concurrent writers queue on the busy timeout instead of failing with "database
    # is locked"; WAL: readers run during a write. synchronous stays FULL, SQLite's default: a
    # committed write survives a power loss, as on PostgreSQL.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
        **DATABASES["default"].get("OPTIONS", {}),
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Planning a learner query took PostgreSQL longer than running it (0.5 ms against 0.1 ms),
    # so statements are bound on the server and prepared (docs/settings.md,
    # DJANGO_DB_PREPARE_THRESHOLD).
    threshold = os.environ.get("DJANGO_DB_PREPARE_THRESHOLD", "2")
    DATABASES["default"]["OPTIONS"] = {
        "server_side_binding": True,
        "prepare_threshold": int(threshold) if threshold else None,
        **DATABASES["default"].get("OPTIONS", {}),
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

AUTHENTICATION_BACKENDS = [
    # First: refuses a login while its (username, IP address) pair is locked out.
    "axes.backends.AxesStandaloneBackend",
    "progress.auth.LearnerBackend",
]

# Accounts (django-allauth). Verification is optional, so a new learner studies at once and the
# embedded default needs no mail server; but no reminder goes to an unverified address.
ACCOUNT_ADAPTER = "studyplan.accounts.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_SIGNUP_FORM_CLASS = "studyplan.signup.SignupExtras"
ACCOUNT_FORMS = {
    "login": "studyplan.accounts.LimitedLoginForm",
    "change_password": "studyplan.accounts.LimitedChangePasswordForm",
}
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_CHANGE_EMAIL = True
# "strict": a sign-up with an address another account has goes through as any sign-up does (its
# address stays unconfirmed, and only the owner's inbox could confirm it), and the owner is told
# by mail (studyplan.accounts): the sign-up page never says an address is registered.
ACCOUNT_PREVENT_ENUMERATION = "strict"
# A reset for an address with no account mails it a note saying so (allauth's default): the page,
# the work and the time taken are the same either way, and the per-address limit caps the notes.
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = True
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "NCA-GENM Study Tracker: "
ACCOUNT_SIGNUP_REDIRECT_URL = "progress:plan-choose"
# allauth's own limits, counted in the cache; at log-in django-axes is the one limiter (below).
ACCOUNT_RATE_LIMITS = {
    "login": None,
    "login_failed": None,
    "reset_password": "10/h/ip,1/15m/key",
    # allauth's own default; a class signing up together behind one address needs more.
    "signup": os.environ.get("DJANGO_SIGNUP_RATE_LIMIT", "20/m/ip"),
}

# Failed-password limiting: studyplan/lockout.py says how the two limits work.
AXES_FAILURE_LIMIT = int(os.environ.get("DJANGO_LOGIN_FAILURE_LIMIT", "5"))
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("DJANGO_LOGIN_ADDRESS_FAILURE_LIMIT", "20"))
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "studyplan.lockout.LockoutHandler"
AXES_LOCKOUT_CALLABLE = "studyplan.lockout.lockout_response"
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_USERNAME_CALLABLE = "studyplan.lockout.typed_username"
# A failed try stores the request's GET and POST data, with these masked (every page's fields
# are walked against this list by tests/test_passwords_never_stored.py):
AXES_SENSITIVE_PARAMETERS = [
    *("username", "ip_address"),  # axes' defaults
    "login",  # the name typed at allauth's log-in
    *("password", "password1", "password2", "oldpassword"),  # allauth's password fields
    *("old_password", "new_password1", "new_password2"),  # Django's (the admin's)
]
# The client's address (django-ipware; docs/deploy.md): behind N proxies, the N-th entry of
# X-Forwarded-For from the right (ipware counts those in the header; the nearest is REMOTE_ADDR).
PROXY_COUNT = int(os.environ.get("DJANGO_PROXY_COUNT", "0"))
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR") if PROXY_COUNT > 0 else ("REMOTE_ADDR",)
)
AXES_IPWARE_PROXY_COUNT = PROXY_COUNT - 1 if PROXY_COUNT > 0 else None
# A longer header (a client's own X-Forwarded-For in front) still gives the entry our proxy added.
IPWARE_STRICT = False
# allauth's rate limits read the client's address the same way.
ALLAUTH_TRUSTED_PROXY_COUNT = PROXY_COUNT

# The cache holds counters only (allauth's rate limits), never a page: learner pages are
# worked out from the database on every request. It is shared by every worker and server: Redis
# where REDIS_URL is set, else Django's database cache (a table, `createcachetable`), so a limit
# of 20 sign-ups a minute is 20 however many processes serve the site.
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "studyplan",
        "OPTIONS": {"socket_connect_timeout": 5, "socket_timeout": 5},
    }
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "studyplan_cache"}
}

# Django's database sessions (its default, said here because it matters): a session is a row,
# so logging out, a password change or deleting the account ends it on every server at once.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Only our own files: htmx is served from our static files, the CSS too, the chart is inline SVG
# drawn by the server, and no template carries an inline script or style.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

LOGIN_REDIRECT_URL = "progress:dashboard"

LANGUAGE_CODE = "en-gb"
# One language, our own words: no translation machinery on every request (British formats for
# dates still apply), and base.html prints numbers as Python writes them ({% localize off %}):
# the same text, about a millisecond less of a dashboard (docs/benchmarks.md).
USE_I18N = False
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# The console by default, for `make run`; with debug off `check --deploy` refuses it (and any
# backend that delivers nothing): production sets the SMTP backend and its server here.
EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("DJANGO_EMAIL_USE_TLS")
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "studyplan@localhost")
# Where the site is reached from outside: the links in emails sent with no request to go by.
SITE_URL = os.environ.get("DJANGO_SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# Behind HTTPS in production; all of these are off for local http://127.0.0.1:8000.
SECURE_SSL_REDIRECT = env_flag("DJANGO_SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env_flag("DJANGO_SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# The product's thresholds (docs/verdicts.md). Each number lives here and nowhere else:
# progress.verdicts.figures turns them into progress.verdicts.rules.Rules, and the pages' words are
# made from those. Ready to book: every domain's self-checks at least this predicted recall on exam
# day ...
RECALL_THRESHOLD = float(os.environ.get("STUDYPLAN_RECALL_THRESHOLD", "0.8"))
# ... and likely at least this accurate in practice (likely under it, a domain lags);
ACCURACY_THRESHOLD = float(os.environ.get("STUDYPLAN_ACCURACY_THRESHOLD", "0.7"))
# "likely" means these odds, from the Beta posterior of the domain's answers
# (progress.verdicts.beta);
ACCURACY_CONFIDENCE = float(os.environ.get("STUDYPLAN_ACCURACY_CONFIDENCE", "0.8"))
# accuracy reads each domain's newest this-many first answers (40: docs/verdicts.md says why) ...
ACCURACY_WINDOW = int(os.environ.get("STUDYPLAN_ACCURACY_WINDOW", "40"))
# ... and says nothing either way before this many (10: one answer never decides a domain).
ACCURACY_MIN_ANSWERS = int(os.environ.get("STUDYPLAN_ACCURACY_MIN_ANSWERS", "10"))

# Reviews (progress.memory.scheduling): FSRS schedules each card for this chance of still knowing
# it when it comes back; a day's queue holds at most this many (that day's done reviews included),
# so the load before the exam stays even.
DESIRED_RETENTION = float(os.environ.get("STUDYPLAN_DESIRED_RETENTION", "0.9"))
REVIEW_DAILY_CAP = int(os.environ.get("STUDYPLAN_REVIEW_DAILY_CAP", "40"))

# The timed mock exam, at the exam's pace: one minute a question.
MOCK_QUESTIONS = int(os.environ.get("STUDYPLAN_MOCK_QUESTIONS", "60"))
MOCK_MINUTES = int(os.environ.get("STUDYPLAN_MOCK_MINUTES", "60"))
# The study guide's pacing rule: anything unresolved at this many seconds is flagged and left.
MOCK_FLAG_SECONDS = int(os.environ.get("STUDYPLAN_MOCK_FLAG_SECONDS", "90"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
