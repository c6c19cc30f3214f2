"""Requests at once on the real database (committed rows, one connection per thread): no tick
or review lost or invented, one card per missed question, and never two open mocks for one
learner. Runs on SQLite and, when DATABASE_URL points at PostgreSQL, on PostgreSQL: the same tests.

The fuller version of the ticks, under gunicorn with 40 learners, is scripts/load_ticks.py.
"""

import random
import secrets
import threading
import urllib.parse

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from phases.models import Question, SelfCheck
from progress.models import Attempt, CheckOff, QuestionCard, StudySession
from progress.practice.services import start_mock
from scripts.httpclient import Session
from tests.factories import (
    AttemptFactory,
    AttemptQuestionFactory,
    UserFactory,
    make_due,
    make_missed_due,
    make_plan,
    miss,
    shown,
    tick,
    wrong_option,
)

LEARNERS = 8
REQUESTS = 15
ROUNDS = 8


@pytest.fixture
def site(transactional_db, syllabus, live_server):
    return urllib.parse.urlsplit(live_server.url)


def session_for(user, site) -> Session:
    client = Client()
    client.force_login(user)
    session = Session(site.hostname, site.port)
    session.cookies["sessionid"] = client.cookies["sessionid"].value
    # The CSRF cookie holds a secret; the same secret in the header passes Django's check.
    session.cookies["csrftoken"] = secrets.token_hex(16)
    return session


def run_together(count: int, work) -> list:
    """Run ``work(n)`` in ``count`` threads released at the same moment; their results."""
    gate = threading.Barrier(count)
    results: list = [None] * count

    def run(n: int) -> None:
        try:
            gate.wait()
            results[n] = work(n)
        except Exception as error:  # reported below, not lost in the thread
            results[n] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def test_concurrent_ticks_are_neither_lost_nor_invented(site):
    slugs = list(SelfCheck.objects.current().values_list("slug", flat=True))
    learners = []
    for _ in range(LEARNERS):
        user = UserFactory()
        make_plan(user)
        learners.append(user)

    def learner(n: int) -> tuple[list[int], dict[str, bool], set[str]]:
        rng = random.Random(n)
        session = session_for(learners[n], site)
        mine = rng.sample(slugs, 5)
        statuses, state, ever_ticked = [], {}, set()
        for _ in range(REQUESTS):
            slug, done = rng.choice(mine), rng.random() < 0.6
            headers = {"HX-Request": "true"} if rng.random() < 0.5 else {}
            if done:
                # A tick is said after the reveal (progress.memory.phase_page).
                session.post(f"/study/checks/{slug}/reveal/", {"answer": ""}, headers=headers)
                response = session.post(
                    f"/study/checks/{slug}/outcome/", {"outcome": "got-it"}, headers=headers
                )
            else:
                response = session.post(f"/study/checks/{slug}/", {"done": "0"}, headers=headers)
            statuses.append(response.status)
            if 200 <= response.status < 400:
                state[slug] = done
                if done:
                    ever_ticked.add(slug)
        session.close()
        return statuses, state, ever_ticked

    results = run_together(LEARNERS, learner)

    assert [r for r in results if isinstance(r, Exception)] == []
    statuses = [status for r in results for status in r[0]]
    assert len(statuses) == LEARNERS * REQUESTS
    assert [status for status in statuses if not 200 <= status < 400] == []
    for user, (_, wanted, ever_ticked) in zip(learners, results, strict=True):
        cards = CheckOff.objects.filter(user=user)
        # The standing ticks are the last thing said of each check; an untick keeps its card
        # (unticked_at set), so every check ever ticked has one row, and no other has any.
        have = set(cards.ticked().values_list("self_check__slug", flat=True))
        assert have == {slug for slug, done in wanted.items() if done}, user.username
        rows = list(cards.values_list("self_check__slug", flat=True))
        assert sorted(rows) == sorted(ever_ticked), user.username


@pytest.mark.django_db(transaction=True)
def test_two_mock_starts_at_once_make_one_open_mock(syllabus):
    for _ in range(ROUNDS):
        user = UserFactory()

        def start(n: int, user=user) -> int:
            return start_mock(user=user, now=timezone.now(), rng=random.Random(n)).pk

        started = run_together(2, start)

        assert [r for r in started if isinstance(r, Exception)] == []
        (only,) = Attempt.objects.for_user(user).unsubmitted_mocks()
        assert started == [only.pk, only.pk]


def test_two_start_mock_posts_at_once_lead_to_one_mock(site):
    for _ in range(ROUNDS):
        user = UserFactory()
        sessions = [session_for(user, site), session_for(user, site)]

        responses = run_together(
            2, lambda n, sessions=sessions: sessions[n].post("/practice/mock/", {})
        )

        assert [r.status for r in responses] == [302, 302]
        (only,) = Attempt.objects.for_user(user).unsubmitted_mocks()
        assert {r.headers["location"] for r in responses} == {f"/practice/{only.pk}/"}
        for session in sessions:
            session.close()


# Reviews: a double click, or the Review page open in several tabs

TABS = 4
CHECK = "p1-backprop"


def test_ratings_of_one_check_at_once_make_one_review_and_refusals(site):
    for n in range(ROUNDS // 2):
        user = UserFactory()
        tick(user, CHECK)
        make_due(user, CHECK)
        sessions = [session_for(user, site) for _ in range(TABS)]
        for session in sessions:  # each tab has turned the card over
            assert session.post("/review/reveal/", {"answer": ""}).status == 200

        responses = run_together(
            TABS,
            lambda i, sessions=sessions, n=n: sessions[i].post(
                f"/review/{CHECK}/",
                {"rating": str(1 + (i + n) % 4)},
                headers={"HX-Request": "true"} if i % 2 else {},
            ),
        )

        assert [r for r in responses if isinstance(r, Exception)] == []
        # One review a card a day: the first rating to take the lock counts, the rest are
        # refused with a 409 (never a 500, never a second review).
        statuses = [r.status for r in responses]
        assert statuses.count(409) == TABS - 1
        assert set(statuses) - {409} <= {200, 302}
        assert CheckOff.objects.get(user=user).reviews == 1 + 1
        for session in sessions:
            session.close()


def test_knew_it_on_a_missed_question_in_two_tabs_at_once_counts_once(site):
    # Two right reviews on two days take a missed question out of the queue: two tabs rating it
    # at once are one review and one refusal, so it stays in the queue.
    for _ in range(ROUNDS // 2):
        user = UserFactory()
        (card,) = miss(user, Question.objects.current().first())
        make_missed_due(user, card)
        sessions = [session_for(user, site) for _ in range(2)]
        card.refresh_from_db()
        right = {"option": shown(card, sorted(card.question.correct_options))}

        responses = run_together(
            2,
            lambda i, sessions=sessions, card=card, right=right: sessions[i].post(
                f"/review/questions/{card.pk}/", right
            ),
        )

        assert [r for r in responses if isinstance(r, Exception)] == []
        assert sorted(r.status for r in responses) == [302, 409]
        card.refresh_from_db()
        assert (card.reviews, card.right_in_a_row) == (2, 1)
        assert card.left_at is None
        for session in sessions:
            session.close()


def test_a_question_missed_in_two_drills_at_once_makes_one_card(site):
    question = Question.objects.current().first()
    for _ in range(ROUNDS // 2):
        user = UserFactory()
        items = [
            AttemptQuestionFactory(attempt=AttemptFactory(user=user, drill=True), question=question)
            for _ in range(2)
        ]
        sessions = [session_for(user, site) for _ in range(2)]

        responses = run_together(
            2,
            lambda i, sessions=sessions, items=items: sessions[i].post(
                f"/practice/{items[i].attempt_id}/questions/{items[i].position}/",
                {"option": shown(items[i], [wrong_option(question)])[0]},
            ),
        )

        assert [r for r in responses if isinstance(r, Exception)] == []
        assert [r.status for r in responses] == [302, 302]
        (card,) = QuestionCard.objects.filter(user=user)
        assert (card.question_id, card.reviews, card.right_in_a_row) == (question.pk, 1, 0)
        for session in sessions:
            session.close()


# Study time: "Start studying" in two tabs or on two devices at once


def test_two_timer_starts_at_once_make_one_running_timer(site):
    for _ in range(ROUNDS):
        user = UserFactory()
        sessions = [session_for(user, site) for _ in range(TABS)]

        responses = run_together(
            TABS,
            lambda n, sessions=sessions: sessions[n].post(
                "/study/core-ml-foundations/timer/start/", {}
            ),
        )

        assert [r.status for r in responses] == [302] * TABS
        assert StudySession.objects.for_user(user).running().count() == 1
        for session in sessions:
            session.close()
