"""FSRS memory for ticks, step 2 of 3: each Leitner box becomes FSRS state.

How a Leitner tick becomes an FSRS card (``leitner_to_fsrs``), without losing a tick:

- stability: the interval of its Leitner box in days (box 0 to 4: 1, 3, 7, 14, 30). Leitner
  brought a check back after that interval expecting it still known; in FSRS that is what a
  stability means: at desired retention 0.9 the interval FSRS schedules for stability S is S days,
  when the predicted recall has fallen to 0.9.
- difficulty: FSRS's initial difficulty for the rating the tick's confidence stands for (shaky:
  Hard, not rated: Good, solid: Easy), as `fsrs` computes it for a first review.
- last review: the start of the day of its last Leitner review, else the moment it was ticked.
- due: the start of the day Leitner had it due (the same day it was due before), else last
  review plus the stability.
- state: Review (FSRS's day-scale state); reviews: 1 for the tick, 2 if it had been reviewed.

Days are read in the site's time zone (settings.TIME_ZONE). Going back restores boxes from
stability (the box whose interval is nearest) and the due day, so a tick survives both ways.
"""

import datetime
import zoneinfo

from django.conf import settings
from django.db import migrations
from django.db.models import F
from django.db.models.functions import TruncDate

INTERVALS = (1, 3, 7, 14, 30)
CONFIDENCE_RATING = {"shaky": 2, "": 3, "solid": 4}  # fsrs.Rating: Hard, Good, Easy
REVIEW = 2  # fsrs.State.Review


def _start_of(day, zone):
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=zone)


def leitner_to_fsrs(apps, schema_editor):
    """In grouped UPDATEs, not row by row: one per box, per confidence and per distinct day, so
    400,000 ticks take seconds."""
    from fsrs import Card, Rating, Scheduler

    fsrs = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    zone = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    moment = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    CheckOff = apps.get_model("progress", "CheckOff")
    ticks = CheckOff.objects.all()
    ticks.update(state=REVIEW, reviews=1)
    ticks.filter(reviewed_on__isnull=False).update(reviews=2)
    for box, days in enumerate(INTERVALS):
        boxed = ticks.filter(box__gte=box) if box == len(INTERVALS) - 1 else ticks.filter(box=box)
        boxed.update(stability=float(days))
    for confidence, rating in CONFIDENCE_RATING.items():
        card, _ = fsrs.review_card(Card(card_id=0, due=moment), Rating(rating), moment)
        ticks.filter(confidence=confidence).update(difficulty=card.difficulty)
    good, _ = fsrs.review_card(Card(card_id=0, due=moment), Rating.Good, moment)
    ticks.filter(difficulty__isnull=True).update(difficulty=good.difficulty)
    ticks.filter(reviewed_on__isnull=True).update(last_review=F("done_at"))
    days = ticks.exclude(reviewed_on=None).values_list("reviewed_on", flat=True).distinct()
    for day in list(days.order_by()):
        ticks.filter(reviewed_on=day).update(last_review=_start_of(day, zone))
    for day in list(
        ticks.exclude(due_on=None).values_list("due_on", flat=True).distinct().order_by()
    ):
        ticks.filter(due_on=day).update(due=_start_of(day, zone))
    for days in INTERVALS:
        ticks.filter(due_on=None, stability=float(days)).update(
            due=F("last_review") + datetime.timedelta(days=days)
        )


def fsrs_to_leitner(apps, schema_editor):
    """Back to boxes: the box whose interval is nearest the stability; the due day and the last
    review's day (if reviewed since the tick) in the site's time zone."""
    zone = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    CheckOff = apps.get_model("progress", "CheckOff")
    ticks = CheckOff.objects.all()
    ticks.update(due_on=TruncDate("due", tzinfo=zone))
    ticks.filter(reviews__gt=1).update(reviewed_on=TruncDate("last_review", tzinfo=zone))
    ticks.filter(stability__isnull=True).update(box=0)
    for box, days in enumerate(INTERVALS):
        nearest = ticks.filter(stability__gte=(INTERVALS[box - 1] + days) / 2) if box else ticks
        if box + 1 < len(INTERVALS):
            nearest = nearest.filter(stability__lt=(days + INTERVALS[box + 1]) / 2)
        nearest.update(box=box)


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0006_memory_fields"),
    ]

    operations = [
        migrations.RunPython(leitner_to_fsrs, fsrs_to_leitner),
    ]
