import copy
import datetime
import functools
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from phases.content import content_changed
from phases.management.commands.load_syllabus import SafeLoader
from phases.models import Domain

# The migration tests' executor fixture (tests/migrating.py).
pytest_plugins = ["tests.migrating"]

# Helpers the test modules share.

HTMX = {"HTTP_HX_REQUEST": "true"}  # the header htmx sends with each of its requests


def today() -> datetime.date:
    """The server's today (its time zone), as the app counts days without a learner's own."""
    return timezone.localdate()


def days(n: float) -> datetime.timedelta:
    return datetime.timedelta(days=n)


def utc(*args: int) -> datetime.datetime:
    return datetime.datetime(*args, tzinfo=datetime.UTC)


@functools.cache
def _parsed(path: str, mtime_ns: int, size: int) -> Any:
    return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=SafeLoader)


def read_yaml(path: Path) -> Any:
    """A YAML file's contents, parsed with libyaml once per version of the file; a fresh copy
    each call, so a test may change what it gets."""
    stat = path.stat()
    return copy.deepcopy(_parsed(str(path), stat.st_mtime_ns, stat.st_size))


# The syllabus's rows as first loaded, by primary key: a test that empties the tables (a
# transactional one flushes them when it ends) gets them back from here in a third of the time
# load_syllabus takes (no natural key to look up).
SYLLABUS_ROWS = Path(tempfile.gettempdir()) / f"studyplan-test-syllabus-{os.getpid()}.json"


def load_syllabus() -> None:
    """The syllabus in the test database: as first loaded (load_syllabus, once per test
    database), from its rows when they were flushed since."""
    if SYLLABUS_ROWS.exists():
        call_command("loaddata", str(SYLLABUS_ROWS), verbosity=0)
        content_changed()  # no process keeps a snapshot from before the flush
        return
    call_command("load_syllabus", verbosity=0)
    call_command("dumpdata", "phases", output=str(SYLLABUS_ROWS), verbosity=0)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    # The real syllabus, loaded once per test database; tests see the content a learner sees.
    SYLLABUS_ROWS.unlink(missing_ok=True)
    with django_db_blocker.unblock():
        load_syllabus()
    yield
    SYLLABUS_ROWS.unlink(missing_ok=True)


DB_FIXTURES = ("db", "transactional_db", "django_db_reset_sequences", "live_server")


@pytest.fixture(autouse=True)
def fresh_caches(request, django_db_blocker):
    # No syllabus snapshot built from a test's rolled-back content (the content version rolls
    # back with it, so a later test can find the same number again), and no throttle count left
    # by another test: the counters live in the shared cache, the database's own table without
    # Redis, which a live-server test commits to and no flush empties.
    from django.core.cache import caches

    from phases.content import forget_snapshot

    forget_snapshot()
    uses_db = request.node.get_closest_marker("django_db") or any(
        name in request.fixturenames for name in DB_FIXTURES
    )
    if uses_db:
        # The test database first: never the development one.
        request.getfixturevalue("django_db_setup")
        with django_db_blocker.unblock():
            for alias in settings.CACHES:
                caches[alias].clear()
    yield
    forget_snapshot()


@pytest.fixture
def syllabus(db):
    # Transactional tests flush every table when they finish: load the content again if so.
    if not Domain.objects.exists():
        load_syllabus()


@pytest.fixture
def learner(syllabus):
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def learner_client(client, learner):
    client.force_login(learner)
    return client
