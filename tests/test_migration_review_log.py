"""The data migration progress 0017_review_log_from_cards, on a real database: each card's
first review and, when it had more, its latest one become rows of the new review log."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from phases.models import Question, SelfCheck
from tests.migrating import migrate

BEFORE = [("progress", "0016_review_log")]
AFTER = [("progress", "0017_review_log_from_cards")]
NOW = datetime.datetime(2026, 3, 10, 12, tzinfo=datetime.UTC)
DAY = datetime.timedelta(days=1)


@pytest.mark.django_db(transaction=True)
def test_each_card_gives_its_first_review_and_its_latest(syllabus, executor):
    learner = get_user_model().objects.create_user(username="history", password="x")
    once, twice = SelfCheck.objects.order_by("pk")[:2]
    question = Question.objects.order_by("pk").first()
    old = migrate(executor, BEFORE)
    CheckOff = old.get_model("progress", "CheckOff")
    QuestionCard = old.get_model("progress", "QuestionCard")
    memory = {"state": 2, "stability": 2.3, "difficulty": 2.1}
    CheckOff.objects.create(
        user_id=learner.pk,
        self_check_id=once.pk,
        confidence="solid",
        done_at=NOW - 2 * DAY,
        last_review=NOW - 2 * DAY,
        due=NOW + DAY,
        reviews=1,
        **memory,
    )
    CheckOff.objects.create(
        user_id=learner.pk,
        self_check_id=twice.pk,
        confidence="",
        done_at=NOW - 9 * DAY,
        last_review=NOW - DAY,
        due=NOW + 6 * DAY,
        reviews=3,
        **memory,
    )
    QuestionCard.objects.create(
        user_id=learner.pk,
        question_id=question.pk,
        chosen=[1],
        missed_at=NOW - 4 * DAY,
        last_review=NOW - 4 * DAY,
        due=NOW - 3 * DAY,
        reviews=1,
        **memory,
    )

    new = migrate(executor, AFTER)
    rows = list(
        new.get_model("progress", "ReviewLog")
        .objects.order_by("reviewed_at")
        .values_list("kind", "reviewed_at", "first", "rating", "stability_after")
    )

    assert rows == [
        ("check", NOW - 9 * DAY, True, 3, None),  # after it came two more: its memory is lost
        ("question", NOW - 4 * DAY, True, 1, 2.3),
        ("check", NOW - 2 * DAY, True, 4, 2.3),
        ("check", NOW - DAY, False, None, 2.3),  # the latest: its memory kept, its rating not
    ]
