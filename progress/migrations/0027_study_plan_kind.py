"""The plan's kind, one field: paced, fitted or short notice, where two booleans let a plan be
both fitted and short notice. Every plan keeps its kind (short notice wins where both were set,
as the calendar already read it); reversing sets the booleans back."""

from django.db import migrations, models
from django.db.models import Q

KINDS = ["paced", "fitted", "short_notice"]


def kinds_from_booleans(apps, schema_editor):
    StudyPlan = apps.get_model("progress", "StudyPlan")
    StudyPlan.objects.filter(fitted=True).update(kind="fitted")
    StudyPlan.objects.filter(short_notice=True).update(kind="short_notice")


def booleans_from_kinds(apps, schema_editor):
    StudyPlan = apps.get_model("progress", "StudyPlan")
    StudyPlan.objects.filter(kind="fitted").update(fitted=True)
    StudyPlan.objects.filter(kind="short_notice").update(short_notice=True)


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0026_memory_in_days_and_first_sight"),
    ]

    operations = [
        migrations.AddField(
            model_name="studyplan",
            name="kind",
            field=models.CharField(
                choices=[
                    ("paced", "At the schedule's own pace"),
                    ("fitted", "Compressed to finish by the exam date when no schedule does"),
                    ("short_notice", "Day by day for the days left (phases.short_notice)"),
                ],
                default="paced",
                max_length=12,
            ),
        ),
        migrations.RunPython(kinds_from_booleans, booleans_from_kinds, elidable=False),
        migrations.RemoveField(model_name="studyplan", name="fitted"),
        migrations.RemoveField(model_name="studyplan", name="short_notice"),
        migrations.AddConstraint(
            model_name="studyplan",
            constraint=models.CheckConstraint(
                condition=Q(kind__in=KINDS), name="study_plan_kind_is_known"
            ),
        ),
    ]
