"""Every existing learner's summary was built here, from their rows in their own time zone.

It ran the app's own rules (progress.summary.keep.build_all), which read and write today's
summary model: once the summary gained a column a later migration adds (0037, the minutes
studied), running them here would write a column that does not exist yet. So the summaries are
built by the latest migration that adds a column to them (0037), and this one does nothing
(a database that applied it before keeps what it built). Going back drops every summary.
"""

from django.db import migrations


def drop(apps, schema_editor):
    apps.get_model("progress", "LearnerSummary").objects.using(
        schema_editor.connection.alias
    ).all().delete()


class Migration(migrations.Migration):
    dependencies = [("progress", "0034_learner_summary")]

    operations = [migrations.RunPython(migrations.RunPython.noop, drop)]
