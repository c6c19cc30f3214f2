"""Every plan keeps its kind when the two booleans become one field (short notice wins where both
were set, as the calendar already read it); reversing sets the booleans back. Data only: see 0027."""

from django.db import migrations


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
        ("progress", "0027_study_plan_kind"),
    ]

    operations = [
        migrations.RunPython(kinds_from_booleans, booleans_from_kinds, elidable=False),
    ]
