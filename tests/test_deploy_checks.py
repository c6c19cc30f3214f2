"""The production system checks (studyplan/checks.py), run as an operator runs them: a fresh
interpreter with the production settings module and the environment docs/deploy.md gives."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

DEPLOY = settings.BASE_DIR / "docs" / "deploy.md"


def deploy_exports() -> str:
    """The `export` lines of docs/deploy.md's one-server block, as shell text."""
    text = DEPLOY.read_text(encoding="utf-8")
    block = re.search(r"## One server\n.*?```sh\n(.*?)```", text, re.S)
    assert block, "docs/deploy.md has no one-server block"
    exports = [line for line in block.group(1).splitlines() if line.startswith("export ")]
    assert exports, "docs/deploy.md's one-server block exports no settings"
    return "\n".join(exports)


def clean_env() -> dict[str, str]:
    # Nothing from this test process's settings: only what docs/deploy.md sets.
    return {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))
    }


def run_with_readme(
    commands: str, static_root: Path, **overrides: str
) -> subprocess.CompletedProcess[str]:
    """Run shell ``commands`` after docs/deploy.md's exports (and ``overrides``, set after them)."""
    python = shlex.quote(sys.executable)
    script = "\n".join(
        [
            "set -e",
            deploy_exports(),
            f"export DJANGO_STATIC_ROOT={shlex.quote(str(static_root))}",
            *(f"export {name}={shlex.quote(value)}" for name, value in overrides.items()),
            "export DJANGO_SETTINGS_MODULE=studyplan.settings",
            commands.replace("PYTHON", python),
        ]
    )
    return subprocess.run(
        ["bash", "-c", script],
        env=clean_env(),
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=180,
    )


@pytest.fixture(scope="module")
def collected(tmp_path_factory) -> Path:
    """A STATIC_ROOT filled by collectstatic under docs/deploy.md's settings, as docs/deploy.md does
    (collectstatic itself runs without the manifest it writes)."""
    root = tmp_path_factory.mktemp("static")
    result = run_with_readme("PYTHON manage.py collectstatic --noinput -v0", root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (root / "staticfiles.json").is_file()
    return root


def test_the_deploy_docs_production_settings_pass_check_deploy_without_a_word(collected):
    result = run_with_readme("PYTHON manage.py check --deploy --fail-level WARNING", collected)

    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."
    assert result.stderr == ""


@pytest.mark.parametrize(
    "backend",
    [
        "django.core.mail.backends.console.EmailBackend",
        "django.core.mail.backends.locmem.EmailBackend",
    ],
)
def test_check_deploy_refuses_mail_that_goes_nowhere(collected, backend):
    result = run_with_readme(
        "PYTHON manage.py check --deploy", collected, DJANGO_EMAIL_BACKEND=backend
    )

    assert result.returncode != 0
    assert "studyplan.E001" in result.stderr
    assert f"EMAIL_BACKEND is {backend}, which sends no mail" in result.stderr


def test_check_deploy_refuses_the_default_backend_when_none_is_set(collected):
    result = run_with_readme(
        "unset DJANGO_EMAIL_BACKEND; PYTHON manage.py check --deploy", collected
    )

    assert result.returncode != 0
    assert "studyplan.E001" in result.stderr


def test_with_debug_on_the_console_backend_is_fine(collected):
    result = run_with_readme(
        "PYTHON manage.py check --deploy",
        collected,
        DJANGO_DEBUG="1",
        DJANGO_EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend",
    )

    # Debug on is itself a deploy warning (security.W018), but no mail error.
    assert "studyplan.E001" not in result.stdout + result.stderr


def test_without_redis_check_deploy_is_silent_too(collected):
    # Sessions are read from the database on every request (Django's database sessions): one
    # process ending a session ends it for all, with or without a shared cache.
    result = run_with_readme(
        "unset REDIS_URL; PYTHON manage.py check --deploy --fail-level WARNING", collected
    )

    assert result.returncode == 0, result.stdout + result.stderr


def test_without_the_static_manifest_every_command_refuses_to_start(tmp_path):
    result = run_with_readme("PYTHON manage.py check", tmp_path / "empty")

    assert result.returncode != 0
    assert "studyplan.E002" in result.stderr
    assert "run collectstatic" in result.stderr


def test_without_the_static_manifest_the_wsgi_application_refuses_to_load(tmp_path):
    # gunicorn runs no system checks: importing the application must fail instead.
    result = run_with_readme('PYTHON -c "import studyplan.wsgi"', tmp_path / "empty")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "run collectstatic" in result.stderr


def test_with_debug_on_no_manifest_is_needed(tmp_path):
    result = run_with_readme("PYTHON manage.py check", tmp_path / "empty", DJANGO_DEBUG="1")

    assert result.returncode == 0, result.stderr
