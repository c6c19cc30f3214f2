import pytest
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
    # A test's rolled-back content must not survive in the in-process syllabus snapshot, nor a
    # dashboard rendered for a user id the next test reuses.
    from django.core.cache import cache

    from phases import content

    content.forget()
    cache.clear()
    yield
    content.forget()


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
