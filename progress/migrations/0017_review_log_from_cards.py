"""The review log starts with what the cards still know of their reviews.

Before the log, a review overwrote its card, so all that is left of a card's history is its
first review (the tick, or the miss) and its latest one. One row each is written:

- the first review, at the tick (``done_at``) or the miss (``missed_at``), rated as it was: a
  tick by its confidence (unrated: knew it, shaky: hard, solid: easy; a later "forgot" made it
  shaky, so a shaky tick reviewed since may have been rated knew it), a miss "forgot". Its
  memory after is known only if it was the card's only review.
- the latest review, when the card had more than one, at ``last_review``, with the memory it
  left. Its rating, the memory before it and the recall predicted then are unknown (left empty).

Every review between the first and the latest is lost, and so are the reviews of a card that was
unticked. Rows without a rating are never used to check the forecast (progress.calibration).
"""

from django.db import migrations

RATING = {"": 3, "shaky": 2, "solid": 4}
DAY = 86400.0


def recover(apps, schema_editor):
    CheckOff = apps.get_model("progress", "CheckOff")
    QuestionCard = apps.get_model("progress", "QuestionCard")
    ReviewLog = apps.get_model("progress", "ReviewLog")
    rows = []

    def rows_for(card, *, kind, key, first_at, first_rating):
        only = card.reviews <= 1
        after = (
            {
                "state_after": card.state,
                "stability_after": card.stability,
                "difficulty_after": card.difficulty,
                "scheduled_days": (card.due - first_at).total_seconds() / DAY,
            }
            if only
            else {}
        )
        rows.append(
            ReviewLog(
                user_id=card.user_id,
                reviewed_at=first_at,
                first=True,
                rating=first_rating,
                **{kind: key},
                kind="check" if kind == "self_check_id" else "question",
                **after,
            )
        )
        if not only and card.last_review is not None:
            rows.append(
                ReviewLog(
                    user_id=card.user_id,
                    kind="check" if kind == "self_check_id" else "question",
                    **{kind: key},
                    reviewed_at=card.last_review,
                    first=False,
                    rating=None,
                    state_after=card.state,
                    stability_after=card.stability,
                    difficulty_after=card.difficulty,
                    scheduled_days=(card.due - card.last_review).total_seconds() / DAY,
                )
            )

    for card in CheckOff.objects.all().iterator():
        rows_for(
            card,
            kind="self_check_id",
            key=card.self_check_id,
            first_at=card.done_at,
            first_rating=RATING.get(card.confidence, 3),
        )
    for card in QuestionCard.objects.all().iterator():
        rows_for(
            card, kind="question_id", key=card.question_id, first_at=card.missed_at, first_rating=1
        )
    ReviewLog.objects.bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("progress", "0016_review_log")]

    operations = [migrations.RunPython(recover, migrations.RunPython.noop)]
