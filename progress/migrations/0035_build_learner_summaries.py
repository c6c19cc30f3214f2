"""Every existing learner's summary, built from their rows in their own time zone.

It runs the app's own rules (progress.summary.keep.build_all), not copies of them over the
historical models: a summary is what those rules make. On a new install there is no learner
and nothing runs; a learner whose summary is missing later is served and built on their next
page all the same.
"""

from django.db import migrations


def build(apps, schema_editor):
    from progress.summary.keep import build_all

    build_all()


def drop(apps, schema_editor):
    apps.get_model("progress", "LearnerSummary").objects.using(
        schema_editor.connection.alias
    ).all().delete()


class Migration(migrations.Migration):
    dependencies = [("progress", "0034_learner_summary")]

    operations = [migrations.RunPython(build, drop)]
