"""The plan's two booleans gone, its kind constrained to the three it can be (see 0027)."""

from django.db import migrations, models
from django.db.models import Q

KINDS = ["paced", "fitted", "short_notice"]


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0028_study_plan_kind_from_booleans"),
    ]

    operations = [
        migrations.RemoveField(model_name="studyplan", name="fitted"),
        migrations.RemoveField(model_name="studyplan", name="short_notice"),
        migrations.AddConstraint(
            model_name="studyplan",
            constraint=models.CheckConstraint(
                condition=Q(kind__in=KINDS), name="study_plan_kind_is_known"
            ),
        ),
    ]
