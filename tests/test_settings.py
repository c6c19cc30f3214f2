import os
import subprocess
import sys

import pytest
from django.conf import settings

START_DJANGO = (
    "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
)


def start(code: str = START_DJANGO, **env: str) -> subprocess.CompletedProcess[str]:
    """Start Django with the production settings module in a fresh interpreter."""
    # The test settings put a secret key into this process's environment: leave it behind.
    base = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SECRET_KEY", "DJANGO_DEBUG", "DJANGO_SETTINGS_MODULE"}
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**base, "DJANGO_SETTINGS_MODULE": "studyplan.settings", **env},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "env",
    [{}, {"DJANGO_DEBUG": "0"}, {"DJANGO_DEBUG": "off", "DJANGO_SECRET_KEY": ""}],
    ids=["debug-unset", "debug-0", "empty-key"],
)
def test_without_debug_a_missing_secret_key_stops_the_start(env):
    result = start(**env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_with_debug_on_it_starts_without_a_secret_key():
    result = start(DJANGO_DEBUG="1")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_without_debug_it_starts_with_a_secret_key():
    result = start(DJANGO_SECRET_KEY="a-long-random-production-secret-0123456789abcdef")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_production_settings_pass_the_system_checks_including_django_csps(tmp_path):
    # django-csp 4 refuses its old CSP_* settings with an error here (csp.E001). With debug off
    # the checks also need the static manifest collectstatic writes (studyplan.E002).
    (tmp_path / "staticfiles.json").write_text('{"paths": {}, "version": "1.1"}')
    code = (
        "import django; django.setup()\n"
        "from django.core.management import call_command\n"
        "call_command('check', fail_level='WARNING')\n"
    )
    result = start(
        code,
        DJANGO_SECRET_KEY="a-long-random-production-secret-0123456789abcdef",
        DJANGO_STATIC_ROOT=str(tmp_path),
    )

    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="DATABASE_URL points at PostgreSQL",
)
def test_default_database_is_sqlite_tuned_for_concurrent_writers():
    database = settings.DATABASES["default"]
    options = database["OPTIONS"]

    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] == 20
    assert "PRAGMA journal_mode=WAL" in options["init_command"]
    # synchronous stays at SQLite's default, FULL: a committed write survives a power loss.
    assert "synchronous" not in options["init_command"]


def test_a_sqlite_connection_runs_in_wal_with_a_20_second_busy_timeout(tmp_path):
    code = (
        "import django; django.setup()\n"
        "from django.db import connection\n"
        "with connection.cursor() as cursor:\n"
        "    for pragma in ('journal_mode', 'synchronous', 'busy_timeout'):\n"
        "        cursor.execute(f'PRAGMA {pragma}')\n"
        "        print(cursor.fetchone()[0])\n"
        "print(connection.transaction_mode)\n"
    )
    result = start(code, DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")

    assert result.returncode == 0, result.stderr
    # synchronous=FULL (the default) reads back as 2; the busy timeout is in milliseconds.
    assert result.stdout.split() == ["wal", "2", "20000", "IMMEDIATE"]


PRINT_DATABASE = (
    "import django; django.setup(); from django.conf import settings\n"
    "database = settings.DATABASES['default']\n"
    "print(database['CONN_HEALTH_CHECKS'], database['OPTIONS'].get('server_side_binding'),"
    " database['OPTIONS'].get('prepare_threshold'))\n"
)
POSTGRES_URL = "postgres://learner:secret@db.example:5432/studyplan"


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, ["False", "True", "2"]),
        ({"DJANGO_DB_PREPARE_THRESHOLD": ""}, ["False", "True", "None"]),
        ({"DJANGO_DB_PREPARE_THRESHOLD": "5"}, ["False", "True", "5"]),
        ({"DJANGO_CONN_HEALTH_CHECKS": "1"}, ["True", "True", "2"]),
    ],
    ids=["default", "never-prepare", "threshold-5", "health-checks"],
)
def test_postgresql_binds_on_the_server_and_prepares_after_two_runs(env, expected):
    result = start(PRINT_DATABASE, DJANGO_DEBUG="1", DATABASE_URL=POSTGRES_URL, **env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == expected


def test_sqlite_takes_no_postgresql_options(tmp_path):
    result = start(PRINT_DATABASE, DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'db'}")

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "None", "None"]


def prepared_statements(cursor) -> list[str]:
    cursor.execute("SELECT statement FROM pg_prepared_statements")
    return [row[0] for row in cursor.fetchall()]


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="needs PostgreSQL (DATABASE_URL)",
)
@pytest.mark.django_db
def test_a_postgresql_connection_prepares_a_statement_after_two_runs():
    from django.db import connection

    sql = "SELECT count(*) FROM auth_user WHERE id > %s"
    with connection.cursor() as cursor:
        cursor.execute(sql, [0])
        cursor.execute(sql, [0])
        prepared_after_two = prepared_statements(cursor)
        cursor.execute(sql, [0])
        prepared_after_three = prepared_statements(cursor)

    assert not any("FROM auth_user WHERE id > $1" in statement for statement in prepared_after_two)
    assert any("FROM auth_user WHERE id > $1" in statement for statement in prepared_after_three)


@pytest.mark.parametrize(
    ("args", "site"),
    [
        ([], "http://127.0.0.1:8000"),
        (["PORT=8102"], "http://127.0.0.1:8102"),
        (["HOST=0.0.0.0", "PORT=9000"], "http://127.0.0.1:9000"),
    ],
)
def test_make_run_gives_the_site_url_it_serves_on(args, site):
    # Links in mail and in the calendar file follow HOST and PORT when DJANGO_SITE_URL is unset.
    dry_run = subprocess.run(
        ["make", "-n", "run", *args],
        cwd=settings.BASE_DIR,
        env={k: v for k, v in os.environ.items() if k != "DJANGO_SITE_URL"},
        capture_output=True,
        text=True,
        timeout=60,
    )

    (command,) = [line for line in dry_run.stdout.splitlines() if "DJANGO_SITE_URL" in line]
    assert f"DJANGO_SITE_URL=${{DJANGO_SITE_URL:-{site}}}" in command
