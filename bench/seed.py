"""The bench's steps inside Django (run with the set-up's environment, production settings).

    python bench/seed.py due USERNAME_PREFIX   every ticked check of those learners due yesterday
    python bench/seed.py history               a dashboard miss in-process: new learner, a long
                                               history, and the same among 1,000 learners

Writes go through the ORM; the learners themselves were signed up over HTTP by bench/study.py.
"""

import datetime
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studyplan.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.hashers import make_password  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from phases.models import Intensity, Question, SelfCheck  # noqa: E402
from progress.models import Attempt, AttemptQuestion, CheckOff, StudyPlan  # noqa: E402

ROUNDS = 60


def make_due(prefix: str) -> None:
    now = timezone.now()
    CheckOff.objects.filter(user__username__startswith=prefix).update(
        due=now - datetime.timedelta(days=1),
        last_review=now - datetime.timedelta(days=3),
        reviews=1,
    )


def new_learner(username: str, *, password: str) -> object:
    user = get_user_model().objects.create(username=username, password=password)
    StudyPlan.objects.create(
        user=user,
        intensity=Intensity.objects.get(slug="standard"),
        start_date=timezone.localdate() - datetime.timedelta(days=14),
        exam_date=timezone.localdate() + datetime.timedelta(days=21),
    )
    return user


@transaction.atomic
def long_history(user, rng: random.Random) -> None:
    """A year of study: every check ticked and reviewed over the year, and 5,000 answers in
    250 handed-in drills of 20, spread over the same year."""
    now = timezone.now()
    checks = list(SelfCheck.objects.current())
    CheckOff.objects.bulk_create(
        CheckOff(
            user=user,
            self_check=check,
            done_at=now - datetime.timedelta(days=365 - n),
            state=2,
            stability=30.0 + n,
            difficulty=5.0,
            due=now + datetime.timedelta(days=rng.randint(-3, 40)),
            last_review=now - datetime.timedelta(days=rng.randint(1, 30)),
            reviews=rng.randint(5, 40),
        )
        for n, check in enumerate(checks)
    )
    questions = list(Question.objects.current().select_related("domain"))
    by_domain: dict[int, list[Question]] = {}
    for question in questions:
        by_domain.setdefault(question.domain_id, []).append(question)
    domains = list(by_domain)
    for drill in range(250):
        started = now - datetime.timedelta(days=365 - drill * 365 // 250, hours=1)
        domain = domains[drill % len(domains)]
        attempt = Attempt.objects.create(
            user=user,
            kind=Attempt.Kind.DRILL,
            domain_id=domain,
            started_at=started,
            submitted_at=started + datetime.timedelta(minutes=15),
        )
        pool = by_domain[domain]
        AttemptQuestion.objects.bulk_create(
            AttemptQuestion(
                attempt=attempt,
                question=(question := pool[n % len(pool)]),
                position=n + 1,
                order=list(range(len(question.options))),
                chosen=[0],
                is_correct=rng.random() < 0.8,
                answered_at=started + datetime.timedelta(seconds=40 * n),
            )
            for n in range(20)
        )


def dashboard_miss(user) -> dict[str, float]:
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    client.get("/dashboard/")  # the syllabus snapshot, built once per process
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        response = client.get("/dashboard/")
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.status_code
    with CaptureQueriesContext(connection) as queries:
        client.get("/dashboard/")
    return {"median_ms": statistics.median(times), "queries": len(queries)}


def history() -> None:
    rng = random.Random(2026)
    password = make_password("bench-history-9931")
    now = timezone.now()
    # A tick is the card's first review, rated "knew it": back in about two days.
    first_review = {
        "stability": 2.3,
        "difficulty": 2.1,
        "due": now + datetime.timedelta(days=2),
        "last_review": now,
        "reviews": 1,
    }
    new = new_learner("bench-new", password=password)
    CheckOff.objects.bulk_create(
        CheckOff(user=new, self_check=check, done_at=timezone.now(), **first_review)
        for check in SelfCheck.objects.current()[:3]
    )
    alone = dashboard_miss(new)
    old = new_learner("bench-long-history", password=password)
    long_history(old, rng)
    answers = AttemptQuestion.objects.filter(attempt__user=old).count()
    long = dashboard_miss(old)
    get_user_model().objects.bulk_create(
        get_user_model()(username=f"bench-crowd-{n:04d}", password=password) for n in range(1000)
    )
    users = list(get_user_model().objects.filter(username__startswith="bench-crowd-"))
    standard = Intensity.objects.get(slug="standard")
    StudyPlan.objects.bulk_create(
        StudyPlan(user=user, intensity=standard, start_date=timezone.localdate()) for user in users
    )
    checks = list(SelfCheck.objects.current())
    CheckOff.objects.bulk_create(
        CheckOff(user=user, self_check=check, done_at=timezone.now(), **first_review)
        for user in users
        for check in rng.sample(checks, 10)
    )
    crowded = dashboard_miss(new)
    print(
        json.dumps(
            {
                "new": alone,
                "long": long,
                "long_answers": answers,
                "crowded": crowded,
                "learners": get_user_model().objects.count(),
            }
        )
    )


if __name__ == "__main__":
    if sys.argv[1] == "due":
        make_due(sys.argv[2])
    elif sys.argv[1] == "history":
        history()
    else:
        raise SystemExit(__doc__)
