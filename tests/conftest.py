import pytest
from django.conf import settings
from django.core.management import call_command

from phases.models import Domain

# The migration tests' executor fixture (tests/migrating.py).
pytest_plugins = ["tests.migrating"]


def load_syllabus() -> None:
    call_command("load_syllabus", verbosity=0)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    # The real syllabus, loaded once per test database; tests see the content a learner sees.
    with django_db_blocker.unblock():
        load_syllabus()


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
