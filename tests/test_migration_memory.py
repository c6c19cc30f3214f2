"""The data migration progress 0007_leitner_to_fsrs (with 0006 and 0008 around it), on a real
database: Leitner boxes become FSRS memory without losing a tick, and going back restores the
boxes."""

import datetime
from zoneinfo import ZoneInfo

import fsrs
import pytest
from django.contrib.auth import get_user_model

from phases.models import SelfCheck
from progress.memory import scheduling as memory
from tests.conftest import days, utc
from tests.migrating import migrate

BEFORE = [("progress", "0005_profile_and_fitted_plan")]
AFTER = [("progress", "0008_memory_cards")]

INTERVALS = {0: 1, 1: 3, 2: 7, 3: 14, 4: 30}  # a Leitner box's interval in days
RATING = {"shaky": fsrs.Rating.Hard, "": fsrs.Rating.Good, "solid": fsrs.Rating.Easy}

# A zone whose days do not start at midnight UTC, so a day read in the wrong zone shows.
ZONE = "America/Chicago"
DAY = datetime.date(2026, 1, 12)


# (box, confidence, ticked at, last Leitner review day, due day): a tick in each box, each
# confidence, ticks never reviewed and reviewed, and one from before ticks had a due day.
LEITNER = [
    (0, "shaky", utc(2026, 1, 5, 15), DAY - days(1), DAY),
    (1, "", utc(2026, 1, 10, 3, 30), None, DAY),  # ticked on 9 January in Chicago
    (2, "solid", utc(2026, 1, 2, 12), DAY - days(2), DAY + days(5)),
    (3, "", utc(2025, 12, 20, 18), DAY - days(7), DAY + days(7)),
    (4, "solid", utc(2025, 11, 30, 9), DAY - days(1), DAY + days(29)),
    (1, "shaky", utc(2026, 1, 11, 23, 45), None, DAY + days(3)),
    (1, "", utc(2025, 10, 1, 8), None, None),
]


def initial_difficulty(rating: fsrs.Rating) -> float:
    """FSRS's difficulty after a first review rated ``rating``, as fsrs computes it."""
    scheduler = fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    moment = utc(2026, 1, 1)
    card, _ = scheduler.review_card(fsrs.Card(card_id=1, due=moment), rating, moment)
    return card.difficulty


@pytest.mark.django_db(transaction=True)
def test_leitner_ticks_become_fsrs_cards_and_come_back_as_boxes(syllabus, executor, settings):
    settings.TIME_ZONE = ZONE
    zone = ZoneInfo(ZONE)
    learner = get_user_model().objects.create_user(username="leitner", password="x")
    checks = list(SelfCheck.objects.order_by("pk")[: len(LEITNER)])

    old = migrate(executor, BEFORE)
    OldCheckOff = old.get_model("progress", "CheckOff")
    for check, (box, confidence, done_at, reviewed_on, due_on) in zip(checks, LEITNER, strict=True):
        OldCheckOff.objects.create(
            user_id=learner.pk,
            self_check_id=check.pk,
            box=box,
            confidence=confidence,
            reviewed_on=reviewed_on,
            due_on=due_on,
        )
        # done_at is auto_now_add: the tick's own moment is set after it.
        OldCheckOff.objects.filter(self_check_id=check.pk).update(done_at=done_at)

    new = migrate(executor, AFTER)
    NewCheckOff = new.get_model("progress", "CheckOff")
    rows = {row.self_check_id: row for row in NewCheckOff.objects.all()}

    assert set(rows) == {check.pk for check in checks}  # no tick lost, none made up
    assert {
        (row.user_id, row.self_check_id, row.confidence, row.done_at) for row in rows.values()
    } == {
        (learner.pk, check.pk, confidence, done_at)
        for check, (_, confidence, done_at, _, _) in zip(checks, LEITNER, strict=True)
    }
    for check, (box, confidence, done_at, reviewed_on, due_on) in zip(checks, LEITNER, strict=True):
        row = rows[check.pk]
        stability = INTERVALS[box]
        last_review = (
            datetime.datetime.combine(reviewed_on, datetime.time.min, tzinfo=zone)
            if reviewed_on
            else done_at
        )
        due = (
            datetime.datetime.combine(due_on, datetime.time.min, tzinfo=zone)
            if due_on
            else last_review + days(stability)
        )
        assert row.stability == stability, box
        assert row.difficulty == pytest.approx(initial_difficulty(RATING[confidence]))
        assert row.last_review == last_review
        assert row.due == due
        assert row.state == fsrs.State.Review
        assert row.reviews == (2 if reviewed_on else 1)
        # What a box's interval meant: still known, just, when it comes back. As FSRS reads the
        # card, recall after ``stability`` days is the desired retention.
        card = memory.Memory(
            state=row.state,
            stability=row.stability,
            difficulty=row.difficulty,
            due=row.due,
            last_review=row.last_review,
        )
        plain = memory.scheduler(0.9, fuzz=False)
        assert memory.recall(card, last_review + days(stability), plain) == pytest.approx(0.9)

    back = migrate(executor, BEFORE)
    restored = {
        row.self_check_id: row for row in back.get_model("progress", "CheckOff").objects.all()
    }

    assert set(restored) == {check.pk for check in checks}
    for check, (box, confidence, done_at, reviewed_on, due_on) in zip(checks, LEITNER, strict=True):
        row = restored[check.pk]
        assert (row.box, row.confidence, row.done_at, row.reviewed_on) == (
            box,
            confidence,
            done_at,
            reviewed_on,
        )
        if due_on is not None:
            assert row.due_on == due_on
        else:
            # A tick from before due days: it comes back on the day the migration gave it.
            assert row.due_on == (done_at + days(INTERVALS[box])).astimezone(zone).date()
