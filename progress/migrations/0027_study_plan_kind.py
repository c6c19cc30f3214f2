"""The plan's kind, one field: paced, fitted or short notice, where two booleans let a plan be
both fitted and short notice. Three migrations, so that on PostgreSQL no schema change shares a
transaction with the rows the data migration updates ("pending trigger events"): this one adds the
field, 0028 fills it from the booleans, 0029 drops the booleans and constrains the field."""

from django.db import migrations, models


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
    ]
