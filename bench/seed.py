"""The bench's steps inside Django (run with the set-up's environment, production settings).

    python bench/seed.py due USERNAME_PREFIX   every ticked check of those learners due yesterday
    python bench/seed.py history               a dashboard miss in-process: new learner, a year
                                               and three years lived through the services, and
                                               the new one among 1,000 learners

Writes go through the ORM; the learners themselves were signed up over HTTP by bench/study.py.
"""

import datetime
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studyplan.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.hashers import make_password  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from phases.models import Intensity, SelfCheck  # noqa: E402
from progress.models import AttemptQuestion, CheckOff, StudyPlan  # noqa: E402
from progress.practice.scoring import DRILL_LENGTH  # noqa: E402
from progress.summary.keep import rebuild  # noqa: E402

ROUNDS = 60


def make_due(prefix: str) -> None:
    now = timezone.now()
    reviewed = now - datetime.timedelta(days=3)
    # The day of the review too: a card is reviewed once a learner day, and the tick made today
    # fixed that day as today (progress.memory.review_days).
    CheckOff.objects.filter(user__username__startswith=prefix).update(
        due=now - datetime.timedelta(days=1),
        last_review=reviewed,
        last_review_day=timezone.localdate(reviewed),
        reviews=1,
    )
    # Their summaries as the next day finds them: the header counts the cards now due.
    for user in get_user_model().objects.filter(username__startswith=prefix):
        rebuild(user, now=now)


def new_learner(username: str, *, password: str) -> object:
    user = get_user_model().objects.create(username=username, password=password)
    StudyPlan.objects.create(
        user=user,
        intensity=Intensity.objects.get(slug="standard"),
        start_date=timezone.localdate() - datetime.timedelta(days=14),
        exam_date=timezone.localdate() + datetime.timedelta(days=21),
    )
    return user


# A learner's lived history, written through the app's own services with the clock moved on:
# what the app records for a year of study (ticks, every review in the review log, missed
# questions as cards and their reviews, drills and mocks, study time, the written exercises).
ANSWERS_A_YEAR = 5000  # drill and mock answers together
EVENING = datetime.time(19, 0)


def _at(day: datetime.date, minutes: int = 0) -> datetime.datetime:
    moment = datetime.datetime.combine(day, EVENING) + datetime.timedelta(minutes=minutes)
    return timezone.make_aware(moment)


def lived_history(user, *, days: int, rng: random.Random) -> dict[str, int]:
    """``days`` of study ending yesterday: the 42 self-checks ticked over the first six weeks,
    each reviewed whenever due (rated Hard one time in five, else Good); a full mock each month
    and drills on most evenings, ANSWERS_A_YEAR answers a year in all, three in four right,
    every missed question reviewed when due; an hour of study time typed in each week; every
    phase's exercise written and ticked. Returns the rows made."""
    from fsrs import Rating

    from phases.content import syllabus
    from phases.models import Domain
    from progress.exercises.services import save_text, tick_parts
    from progress.memory.reviews import review_check, review_question
    from progress.memory.ticks import reveal, set_done
    from progress.models import QuestionCard, ReviewLog
    from progress.practice.services import answer, start_drill, start_mock, submit
    from progress.study_time.services import record_session

    content = syllabus()
    first = timezone.localdate() - datetime.timedelta(days=days)
    # Signed up on the first day, as a learner with this history did.
    user.date_joined = _at(first) - datetime.timedelta(hours=1)
    user.save(update_fields=["date_joined"])
    checks = list(SelfCheck.objects.current().order_by("phase__number", "pk"))
    domains = list(Domain.objects.all())
    # A full mock every 30 days from the seventh week; drills (the app's length) for the rest of
    # ANSWERS_A_YEAR, on evenings drawn at random, some with two or three.
    mocks = sum(1 for offset in range(42, days) if offset % 30 == 0)
    drills = round((ANSWERS_A_YEAR * days / 365 - mocks * settings.MOCK_QUESTIONS) / DRILL_LENGTH)
    per_day = Counter(rng.choices(range(42, days), k=drills))
    for offset in range(days):
        day = first + datetime.timedelta(days=offset)
        minutes = 0
        # Ticks over the first six weeks, a phase at a time.
        for check in checks[offset * len(checks) // 42 : (offset + 1) * len(checks) // 42]:
            set_done(user=user, self_check_id=check.pk, done=True, now=_at(day, minutes))
            minutes += 3
        # Every card due by this evening, reviewed.
        evening = _at(day, 120)
        for check_id in CheckOff.objects.filter(user=user, due__lte=evening).values_list(
            "self_check_id", flat=True
        ):
            rating = Rating.Hard if rng.random() < 0.2 else Rating.Good
            # As the Review page does: answered from memory, turned over, then rated.
            reveal(user=user, self_check_id=check_id, answer="From memory.", now=evening)
            review_check(user=user, self_check_id=check_id, rating=rating, now=evening)
        for card_id in (
            QuestionCard.objects.for_user(user)
            .in_queue()
            .filter(due__lte=evening)
            .values_list("pk", flat=True)
        ):
            rating = Rating.Good if rng.random() < 0.75 else Rating.Again
            review_question(user=user, card_id=card_id, rating=rating, now=evening)
        # Practice: drills on most evenings, a full mock each month.
        for n in range(per_day.get(offset, 0)):
            begun = _at(day, 150 + 20 * n)
            drill = start_drill(user=user, domain=rng.choice(domains), now=begun, rng=rng)
            _answer_all(drill, user, begun, rng, answer)
            submit(user=user, attempt=drill, now=begun + datetime.timedelta(minutes=15))
        if offset >= 42 and offset % 30 == 0:
            begun = _at(day, 60)
            mock = start_mock(user=user, now=begun, rng=rng)
            _answer_all(mock, user, begun, rng, answer)
            submit(user=user, attempt=mock, now=begun + datetime.timedelta(minutes=55))
        if offset % 7 == 6:
            phase = content.phases[(offset // 7) % len(content.phases)]
            record_session(
                user=user,
                phase_slug=phase.slug,
                domain_slug=phase.domains[0].slug,
                day=day,
                minutes=60,
            )
        if offset < len(content.phases):
            phase = content.phases[offset]
            save_text(user=user, phase=phase, text="Notes. " * 200, version=0, now=_at(day))
            parts = {part.slug for part in phase.exercise_parts}
            tick_parts(user=user, phase=phase, ticked=parts, version=0, now=_at(day, 30))
    return {
        "reviews": ReviewLog.objects.filter(user=user).count(),
        "answers": AttemptQuestion.objects.filter(attempt__user=user).count(),
        "question_cards": QuestionCard.objects.filter(user=user).count(),
    }


def _answer_all(attempt, user, begun, rng, answer) -> None:
    items = list(attempt.questions.select_related("question").order_by("position"))
    for step, item in enumerate(items):
        question = item.question
        right = rng.random() < 0.75
        keys = list(question.correct_options)
        chosen = (
            keys
            if right
            else [i for i in range(len(question.options)) if i not in keys][: len(keys)]
        )
        moment = begun + datetime.timedelta(seconds=40 * step)
        answer(user=user, attempt=attempt, item=item, chosen=chosen, now=moment)


def dashboard_misses(*users) -> list[dict[str, float]]:
    """Each learner's dashboard miss, a median of ROUNDS; the learners take turns, round by
    round, so that whatever else this machine does falls on each of them alike (measured one
    after another, their ratios moved by more than the targets' margins from run to run)."""
    clients = []
    for user in users:
        client = Client(HTTP_HOST="localhost")
        client.force_login(user)
        client.get("/dashboard/")  # the syllabus snapshot, built once per process
        clients.append(client)
    times: list[list[float]] = [[] for _ in users]
    for _ in range(ROUNDS):
        for client, spent in zip(clients, times, strict=True):
            started = time.perf_counter()
            response = client.get("/dashboard/")
            spent.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.status_code
    misses = []
    for client, spent in zip(clients, times, strict=True):
        with CaptureQueriesContext(connection) as queries:
            client.get("/dashboard/")
        misses.append({"median_ms": statistics.median(spent), "queries": len(queries)})
    return misses


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
    year = new_learner("bench-one-year", password=password)
    year_rows = lived_history(year, days=365, rng=rng)
    three = new_learner("bench-three-years", password=password)
    three_rows = lived_history(three, days=3 * 365, rng=rng)
    alone, long, three_years = dashboard_misses(new, year, three)
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
    (crowded,) = dashboard_misses(new)
    print(
        json.dumps(
            {
                "new": alone,
                "long": long,
                "long_answers": year_rows["answers"],
                "long_rows": year_rows,
                "three_years": three_years,
                "three_years_rows": three_rows,
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
