"""The migrations progress 0027 to 0029, the study plan's kind: every learner's plan keeps its kind
when the two booleans become one field, and going back sets the booleans again."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from tests.migrating import migrate

BEFORE = [("progress", "0026_memory_in_days_and_first_sight")]
AFTER = [("progress", "0029_study_plan_booleans_removed")]
START = datetime.date(2026, 12, 1)


@pytest.mark.django_db(transaction=True)
def test_each_plan_keeps_its_kind_across_the_migration_and_back(syllabus, executor):
    apps = migrate(executor, BEFORE)
    StudyPlan = apps.get_model("progress", "StudyPlan")
    intensity = apps.get_model("phases", "Intensity").objects.get(slug="standard")
    booleans = {
        "paced": (False, False),
        "fitted": (True, False),
        "short": (False, True),
        "both": (True, True),  # what the booleans allowed; the calendar read it as short notice
    }
    users = get_user_model().objects
    for name, (fitted, short_notice) in booleans.items():
        StudyPlan.objects.create(
            user_id=users.create_user(username=name).pk,
            intensity=intensity,
            start_date=START,
            fitted=fitted,
            short_notice=short_notice,
        )

    apps = migrate(executor, AFTER)
    plans = apps.get_model("progress", "StudyPlan").objects

    kinds = dict(plans.values_list("user__username", "kind"))
    assert kinds == {
        "paced": "paced",
        "fitted": "fitted",
        "short": "short_notice",
        "both": "short_notice",
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        plans.filter(user__username="paced").update(kind="sprint")

    apps = migrate(executor, BEFORE)
    back = apps.get_model("progress", "StudyPlan").objects.values_list(
        "user__username", "fitted", "short_notice"
    )
    assert {name: (fitted, short) for name, fitted, short in back} == {
        "paced": (False, False),
        "fitted": (True, False),
        "short": (False, True),
        "both": (False, True),
    }
