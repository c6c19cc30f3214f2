"""No typed password is stored anywhere: every password field of every form is masked for the
login limiter (django-axes keeps a failed try's POST data), the data migration masks the rows
kept before, and the export never carries one."""

import json

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.utils import user_pk_to_url_str
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD
from tests.html import with_tag

pytestmark = pytest.mark.django_db

TYPED = "Typed-but-wrong-7731"
MASKED = {"password", *settings.AXES_SENSITIVE_PARAMETERS}


def password_fields(client: Client, url: str) -> set[str]:
    response = client.get(url, follow=True)
    assert response.status_code == 200, url
    return {
        e.attrs["name"]
        for e in with_tag(response.content, "input")
        if e.attrs.get("type") == "password"
    }


def pages_with_password_fields(learner) -> dict[str, Client]:
    anonymous, logged_in = Client(), Client()
    logged_in.force_login(learner)
    # The reset link as allauth mails it: the account's id, then its token.
    key = {
        "uidb36": user_pk_to_url_str(learner),
        "key": default_token_generator.make_token(learner),
    }
    return {
        reverse("account_login"): anonymous,
        reverse("account_signup"): anonymous,
        reverse("account_reset_password_from_key", kwargs=key): Client(),
        reverse("admin:login"): anonymous,
        reverse("account_change_password"): logged_in,
        reverse("progress:account"): logged_in,
    }


def test_every_password_field_of_every_form_is_masked_for_the_limiter(learner):
    seen = set()
    for url, client in pages_with_password_fields(learner).items():
        fields = password_fields(client, url)
        assert fields, f"{url} has no password field: the walk has gone stale"
        assert fields <= MASKED, f"{url}: {fields - MASKED} would be stored in plain text"
        seen |= fields
    # Every kind of password field allauth's and the admin's forms use is on some page.
    assert {"password", "password1", "password2", "oldpassword"} <= seen


def stored_text() -> str:
    rows = [
        *AccessAttempt.objects.values_list("get_data", "post_data", "username"),
        *AccessFailureLog.objects.values_list("username", "user_agent"),
        *AccessLog.objects.values_list("username", "user_agent"),
    ]
    return json.dumps(rows)


def test_failed_tries_on_every_form_that_checks_a_password_keep_no_typed_password(learner):
    client = Client()
    client.force_login(learner)
    secrets = {name: f"{TYPED}-{name}" for name in ("old", "new", "delete", "login")}

    client.post(
        reverse("account_change_password"),
        {
            "oldpassword": secrets["old"],
            "password1": secrets["new"],
            "password2": secrets["new"],
        },
    )
    client.post(reverse("progress:account-delete"), {"password": secrets["delete"]})
    Client().post(
        reverse("account_login"), {"login": learner.username, "password": secrets["login"]}
    )

    assert AccessAttempt.objects.filter(username=learner.username).exists()
    text = stored_text()
    for secret in secrets.values():
        assert secret not in text
    export = client.get(reverse("progress:account-export"))
    assert export.status_code == 200
    for secret in secrets.values():
        assert secret not in export.content.decode()
    assert PASSWORD not in export.content.decode()


AXES = ("axes", "0010_accessattemptexpiration")
BEFORE = [("progress", "0010_progress_version_stamp"), AXES]
AFTER = [("progress", "0011_scrub_stored_passwords"), AXES]


@pytest.mark.django_db(transaction=True)
def test_the_migration_masks_passwords_kept_before_and_nothing_else(syllabus):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old_apps = executor.loader.project_state(BEFORE).apps
    Attempt = old_apps.get_model("axes", "AccessAttempt")
    kept = "\n".join(
        [
            "csrfmiddlewaretoken=abc",
            f"old_password={TYPED}",
            f"new_password1={TYPED}x",
            f"new_password2={TYPED}x",
            "next=/account/",
        ]
    )
    row = Attempt.objects.create(
        username="ada",
        ip_address="192.0.2.1",
        user_agent="test",
        path_info="/accounts/password_change/",
        get_data="",
        post_data=f"{kept}\nrest of a value with a line break {TYPED}",
        failures_since_start=1,
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)

    after = AccessAttempt.objects.get(pk=row.pk)
    assert TYPED not in after.post_data
    assert after.post_data.split("\n") == [
        "csrfmiddlewaretoken=abc",
        "old_password=********************",
        "new_password1=********************",
        "new_password2=********************",
        "next=/account/",
        "********************",
    ]
    assert (after.username, after.failures_since_start) == ("ada", 1)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
