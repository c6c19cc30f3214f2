"""The summary keeps the learner's recorded study time too (minutes by phase and domain, and by
day); every existing learner's summary is built (again), from their rows in their own time
zone, by the app's own rules (progress.summary.keep.build_all): a summary is what those rules
make. They read and write today's summary model, so they run in the latest migration that adds
a column to it (this one; 0035 no longer builds). On a new install there is no learner and
nothing runs; a learner whose summary is missing later is served and built on their next page
all the same."""

from django.db import migrations, models


def build(apps, schema_editor):
    from progress.summary.keep import build_all

    build_all()


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0036_review_log_check_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="learnersummary",
            name="minutes",
            field=models.JSONField(blank=True, null=True),
        ),
        # Going back drops the column, and the minutes built in it.
        migrations.RunPython(build, migrations.RunPython.noop),
    ]
