"""Sessions move to Django's own table (django.contrib.sessions): each session is copied
across, so nobody is logged out by the move, and the site's own session table is dropped."""

from django.db import migrations

OURS = ("studyplan", "LearnerSession")
DJANGOS = ("sessions", "Session")


def copy(apps, source, target):
    Target = apps.get_model(*target)
    Target.objects.bulk_create(
        (
            Target(
                session_key=row.session_key,
                session_data=row.session_data,
                expire_date=row.expire_date,
            )
            for row in apps.get_model(*source).objects.iterator()
        ),
        batch_size=500,
        ignore_conflicts=True,
    )


def copy_sessions(apps, schema_editor):
    copy(apps, OURS, DJANGOS)


def copy_back(apps, schema_editor):
    copy(apps, DJANGOS, OURS)


class Migration(migrations.Migration):
    dependencies = [
        ("studyplan", "0001_learner_sessions"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(copy_sessions, copy_back),
        migrations.DeleteModel(name="LearnerSession"),
    ]
