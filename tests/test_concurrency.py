"""Learners ticking at once over real HTTP: no tick lost, none invented, no error.

The fuller version, under gunicorn with 40 learners, is scripts/load_ticks.py.
"""

import random
import secrets
import threading
import urllib.parse

import pytest
from django.test import Client

from phases.models import SelfCheck
from progress.models import CheckOff
from scripts.httpclient import Session
from tests.factories import UserFactory, make_plan

LEARNERS = 8
REQUESTS = 15


@pytest.fixture
def site(transactional_db, live_server):
    from tests.conftest import load_syllabus

    load_syllabus()
    return urllib.parse.urlsplit(live_server.url)


def session_for(user, site) -> Session:
    client = Client()
    client.force_login(user)
    session = Session(site.hostname, site.port)
    session.cookies["sessionid"] = client.cookies["sessionid"].value
    # The CSRF cookie holds a secret; the same secret in the header passes Django's check.
    session.cookies["csrftoken"] = secrets.token_hex(16)
    return session


def test_concurrent_ticks_are_neither_lost_nor_invented(site):
    slugs = list(SelfCheck.objects.current().values_list("slug", flat=True))
    learners = []
    for _ in range(LEARNERS):
        user = UserFactory()
        make_plan(user)
        learners.append(user)

    wanted: dict[int, dict[str, bool]] = {}
    statuses: list[int] = []
    lock = threading.Lock()
    gate = threading.Barrier(LEARNERS)

    def learner(user, seed: int) -> None:
        rng = random.Random(seed)
        session = session_for(user, site)
        mine = rng.sample(slugs, 5)
        state: dict[str, bool] = {}
        gate.wait()
        for _ in range(REQUESTS):
            slug, done = rng.choice(mine), rng.random() < 0.6
            headers = {"HX-Request": "true"} if rng.random() < 0.5 else {}
            response = session.post(
                f"/study/checks/{slug}/", {"done": "1" if done else "0"}, headers=headers
            )
            with lock:
                statuses.append(response.status)
            if 200 <= response.status < 400:
                state[slug] = done
        session.close()
        with lock:
            wanted[user.pk] = state

    threads = [threading.Thread(target=learner, args=(user, n)) for n, user in enumerate(learners)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert len(statuses) == LEARNERS * REQUESTS
    assert [status for status in statuses if not 200 <= status < 400] == []
    for user in learners:
        have = set(CheckOff.objects.filter(user=user).values_list("self_check__slug", flat=True))
        expected = {slug for slug, done in wanted[user.pk].items() if done}
        assert have == expected, user.username
