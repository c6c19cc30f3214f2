"""The migrations progress 0034 to 0037: every existing learner gets their summary, built from
their rows in their own time zone (0037, the minutes studied with it), equal to what the app
builds; going back drops it."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from progress.auth import learner_queryset
from progress.summary.keep import build
from tests.migrating import migrate

BEFORE = [("progress", "0033_exam_outcomes")]
AFTER = [("progress", "0037_learner_summary_minutes")]


@pytest.mark.django_db(transaction=True)
def test_each_learner_gets_the_summary_their_rows_make_in_their_zone(syllabus, executor):
    apps = migrate(executor, BEFORE)
    model = apps.get_model
    now = timezone.now()
    users = get_user_model().objects
    auckland, plain = users.create_user(username="auckland"), users.create_user(username="plain")
    model("progress", "Profile").objects.create(user_id=auckland.pk, time_zone="Pacific/Auckland")
    checks = list(model("phases", "SelfCheck").objects.order_by("pk")[:2])
    for user in (auckland, plain):
        for check in checks:
            model("progress", "CheckOff").objects.create(
                user_id=user.pk,
                self_check_id=check.pk,
                done_at=now - datetime.timedelta(hours=20),
                due=now,
                state=2,
                stability=2.3,
                difficulty=2.1,
                reviews=1,
            )
    drill = model("progress", "Attempt").objects.create(
        user_id=plain.pk, kind="drill", started_at=now
    )
    for position, question in enumerate(
        model("phases", "Question").objects.filter(stretch=False).order_by("pk")[:3], start=1
    ):
        model("progress", "AttemptQuestion").objects.create(
            attempt=drill,
            question=question,
            position=position,
            order=list(range(len(question.options))),
            chosen=[i for i, option in enumerate(question.options) if option.get("correct")],
            is_correct=True,
            answered_at=now,
            first_sight=True,
        )

    model("progress", "StudySession").objects.create(
        user_id=plain.pk,
        phase=model("phases", "Phase").objects.order_by("number").first(),
        domain=model("phases", "Domain").objects.get(slug="core-ml"),
        day=timezone.localdate(now),
        minutes=45,
    )

    apps = migrate(executor, AFTER)

    summaries = apps.get_model("progress", "LearnerSummary").objects
    assert summaries.count() == 2
    for user, zone in ((auckland, "Pacific/Auckland"), (plain, "UTC")):
        kept = summaries.get(user_id=user.pk)
        with timezone.override(zone):
            made = build(learner_queryset().get(pk=user.pk), now=timezone.now())
        assert (kept.zone, kept.days, kept.window, kept.minutes) == (
            made.zone,
            made.days,
            made.window,
            made.minutes,
        )
        assert sum(day["ticks"] for day in kept.days.values()) == 2
    assert sum(len(answers) for answers in summaries.get(user_id=plain.pk).window.values()) == 3
    assert summaries.get(user_id=plain.pk).minutes["totals"] == [[1, "core-ml", 45]]
    assert summaries.get(user_id=auckland.pk).minutes == {"totals": [], "days": {}}

    apps = migrate(executor, BEFORE)
    with pytest.raises(LookupError):
        apps.get_model("progress", "LearnerSummary")
