"""Production settings, failed-login limiting, CSP and CSRF: each proven through real requests."""

import json
import os
import re
import secrets
import subprocess
import sys

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from progress.models import CheckOff
from tests.factories import PASSWORD, UserFactory, make_plan, mock_for, practise
from tests.html import POLICY, directives

pytestmark = pytest.mark.django_db

REVEAL = reverse("progress:selfcheck-reveal", args=["p1-backprop"])
OUTCOME = reverse("progress:selfcheck-outcome", args=["p1-backprop"])


def production_env(**extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="studyplan.settings",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(60),
        DJANGO_ALLOWED_HOSTS="study.example.com",
        **extra,
    )
    return env


def test_check_deploy_is_clean_under_production_settings(tmp_path):
    # Production also needs real mail, a shared cache and the static manifest (see
    # tests/test_deploy_checks.py, which runs docs/deploy.md's own settings).
    (tmp_path / "staticfiles.json").write_text('{"paths": {}, "version": "1.1"}')
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=production_env(
            DJANGO_EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            REDIS_URL="redis://127.0.0.1:6379/0",
            DJANGO_STATIC_ROOT=str(tmp_path),
            DJANGO_SITE_URL="https://study.example.com",
        ),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_hashes_with_argon2_and_secures_cookies_and_https():
    script = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.PASSWORD_HASHERS[0], s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
        " s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.DEBUG]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=settings.BASE_DIR,
        env=production_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    hasher, session_secure, csrf_secure, ssl_redirect, hsts, debug = json.loads(result.stdout)
    assert hasher == "django.contrib.auth.hashers.Argon2PasswordHasher"
    assert session_secure and csrf_secure and ssl_redirect
    assert hsts >= 31_536_000
    assert debug is False


def test_every_page_carries_a_policy_that_allows_only_our_own_scripts_and_styles(
    client, learner_client, learner
):
    make_plan(learner)
    responses = [
        client.get(reverse("phases:home")),
        client.get("/no-such-page/"),
        learner_client.get(reverse("progress:dashboard")),
        learner_client.get(reverse("progress:dashboard")),  # from the cache
        learner_client.post(
            reverse("progress:selfcheck-reveal", args=["p1-backprop"]),
            {"answer": ""},
            HTTP_HX_REQUEST="true",
        ),
    ]
    for response in responses:
        assert directives(response.headers["Content-Security-Policy"]) == POLICY
    response = responses[0]
    # htmx comes from our own static files, so the policy lets it run.
    src = re.search(r'<script src="([^"]+htmx[^"]+)"', response.text).group(1)
    assert src.startswith(settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/")
    assert client.get(src).status_code == 200


def test_no_template_carries_an_inline_script_or_style(client, learner_client, learner, settings):
    settings.MOCK_QUESTIONS = 5
    make_plan(learner)
    drill = practise(learner, "core-ml", right=3, wrong=1)
    # Before the mock: while a mock is live, no drill's page opens.
    drill_result = learner_client.get(reverse("progress:attempt-result", args=[drill.pk]))
    mock = mock_for(learner)
    pages = [
        drill_result,
        client.get(reverse("phases:home")),
        client.get(reverse("phases:syllabus")),
        learner_client.get(reverse("progress:dashboard")),
        learner_client.get(reverse("progress:phase", args=["experimentation"])),
        learner_client.get(reverse("progress:plan-choose")),
        learner_client.get(reverse("progress:plan")),
        learner_client.get(reverse("progress:review")),
        learner_client.get(reverse("progress:practice")),
        learner_client.get(reverse("progress:practice-history")),
        learner_client.get(reverse("progress:attempt", args=[mock.pk])),
        learner_client.get(reverse("progress:attempt-flagged", args=[mock.pk])),
        learner_client.get(reverse("progress:account")),
    ]
    for page in pages:
        assert page.status_code == 200
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page.text)
        assert "<style" not in page.text
        assert " style=" not in page.text


def log_in(client: Client, username: str, password: str, ip: str = "203.0.113.7"):
    return client.post(
        reverse("account_login"), {"login": username, "password": password}, REMOTE_ADDR=ip
    )


def test_repeated_wrong_passwords_lock_that_username_from_that_address(syllabus):
    victim = UserFactory()
    attacker = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(attacker, victim.username, "wrong-password").status_code == 400
    locked = log_in(attacker, victim.username, "wrong-password")
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.text
    # Locked even with the right password, from that address.
    again = log_in(attacker, victim.username, PASSWORD)
    assert again.status_code == 429
    assert "_auth_user_id" not in attacker.session


def test_a_lockout_never_locks_other_learners_or_the_learner_elsewhere(syllabus):
    victim, bystander = UserFactory(), UserFactory()
    attacker = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(attacker, victim.username, "wrong-password")
    assert log_in(attacker, victim.username, PASSWORD).status_code == 429

    assert log_in(Client(), bystander.username, PASSWORD).status_code == 302
    assert log_in(Client(), victim.username, PASSWORD, ip="198.51.100.20").status_code == 302


def test_a_post_without_its_csrf_token_is_refused_and_changes_nothing(learner):
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(REVEAL, {"answer": ""}, **headers)
        assert response.status_code == 403
        assert "nothing was changed" in response.text
    assert not CheckOff.objects.filter(user=learner).exists()


def test_htmx_posts_carry_the_token_from_the_body_headers(learner):
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    page = client.get(reverse("progress:phase", args=["core-ml-foundations"]))
    headers = json.loads(re.search(r"<body hx-headers='([^']+)'", page.text).group(1))

    for url, data in ((REVEAL, {"answer": ""}), (OUTCOME, {"outcome": "got-it"})):
        response = client.post(
            url, data, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=headers["x-csrftoken"]
        )
        assert response.status_code == 200
    assert CheckOff.objects.filter(user=learner, self_check__slug="p1-backprop").exists()
