"""FSRS memory, step 3 of 3: the Leitner columns go, a tick's due moment is required, and missed
questions get cards of their own."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("phases", "0004_content_version"),
        ("progress", "0007_leitner_to_fsrs"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(model_name="checkoff", name="check_off_due"),
        migrations.RemoveField(model_name="checkoff", name="box"),
        migrations.RemoveField(model_name="checkoff", name="due_on"),
        migrations.RemoveField(model_name="checkoff", name="reviewed_on"),
        migrations.AlterField(
            model_name="checkoff",
            name="due",
            field=models.DateTimeField(help_text="When it next comes back to the review queue."),
        ),
        migrations.AddIndex(
            model_name="checkoff",
            index=models.Index(fields=["user", "due"], name="check_off_due"),
        ),
        migrations.CreateModel(
            name="QuestionCard",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "state",
                    models.PositiveSmallIntegerField(
                        db_default=2,
                        default=2,
                        help_text="FSRS: 1 learning, 2 review, 3 relearning.",
                    ),
                ),
                ("stability", models.FloatField(blank=True, null=True)),
                ("difficulty", models.FloatField(blank=True, null=True)),
                (
                    "due",
                    models.DateTimeField(help_text="When it next comes back to the review queue."),
                ),
                ("last_review", models.DateTimeField(blank=True, null=True)),
                ("reviews", models.PositiveIntegerField(db_default=0, default=0)),
                (
                    "chosen",
                    models.JSONField(help_text="The learner's wrong answer, as option indexes."),
                ),
                ("missed_at", models.DateTimeField()),
                ("right_in_a_row", models.PositiveSmallIntegerField(default=0)),
                (
                    "left_at",
                    models.DateTimeField(
                        blank=True,
                        help_text="When it left the queue, answered right enough times.",
                        null=True,
                    ),
                ),
                (
                    "question",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="phases.question",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="question_cards",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["missed_at"],
                "indexes": [models.Index(fields=["user", "due"], name="question_card_due")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "question"), name="unique_question_card"
                    )
                ],
            },
        ),
    ]
