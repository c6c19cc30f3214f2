"""Sessions move to Django's own table (django.contrib.sessions): each session is copied
across, so nobody is logged out by the move, and the site's own session table is dropped."""

from django.db import migrations


def copy_sessions(apps, schema_editor):
    Session = apps.get_model("sessions", "Session")
    LearnerSession = apps.get_model("studyplan", "LearnerSession")
    Session.objects.bulk_create(
        (
            Session(
                session_key=row.session_key,
                session_data=row.session_data,
                expire_date=row.expire_date,
            )
            for row in LearnerSession.objects.iterator()
        ),
        batch_size=500,
        ignore_conflicts=True,
    )


def copy_back(apps, schema_editor):
    Session = apps.get_model("sessions", "Session")
    LearnerSession = apps.get_model("studyplan", "LearnerSession")
    LearnerSession.objects.bulk_create(
        (
            LearnerSession(
                session_key=row.session_key,
                session_data=row.session_data,
                expire_date=row.expire_date,
            )
            for row in Session.objects.iterator()
        ),
        batch_size=500,
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("studyplan", "0001_learner_sessions"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(copy_sessions, copy_back),
        migrations.DeleteModel(name="LearnerSession"),
    ]
