"""FSRS memory for ticks, step 1 of 3: the new columns, empty (0007 fills them, 0008 drops the
Leitner ones). Three migrations, each its own transaction: PostgreSQL refuses to alter a table in
the transaction that has just updated its rows."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0005_profile_and_fitted_plan"),
    ]

    operations = [
        migrations.AddField(
            model_name="checkoff",
            name="state",
            field=models.PositiveSmallIntegerField(
                db_default=2, default=2, help_text="FSRS: 1 learning, 2 review, 3 relearning."
            ),
        ),
        migrations.AddField(
            model_name="checkoff",
            name="stability",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="checkoff",
            name="difficulty",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="checkoff",
            name="due",
            field=models.DateTimeField(
                help_text="When it next comes back to the review queue.", null=True
            ),
        ),
        migrations.AddField(
            model_name="checkoff",
            name="last_review",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="checkoff",
            name="reviews",
            field=models.PositiveIntegerField(db_default=0, default=0),
        ),
    ]
