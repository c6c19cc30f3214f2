import pytest
from django.conf import settings
from django.core.management import call_command

from phases.models import Domain


def load_syllabus() -> None:
    call_command("load_syllabus", verbosity=0)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    # The real syllabus, loaded once per test database; tests see the content a learner sees.
    with django_db_blocker.unblock():
        load_syllabus()


@pytest.fixture(autouse=True)
def fresh_caches():
    # A dashboard cached for a user id the next test reuses must not be served to it, nor a
    # syllabus snapshot built from a test's rolled-back content (the content version rolls back
    # with it, so a later test can find the same number again).
    from django.core.cache import caches

    from studyplan import caching

    caching._snapshot = None
    for alias in settings.CACHES:  # the shared cache, and with Redis the local page copies
        caches[alias].clear()
    yield
    caching._snapshot = None


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
