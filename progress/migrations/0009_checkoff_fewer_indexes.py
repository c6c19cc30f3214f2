"""Two indexes fewer on ticks, so one tick writes two index entries fewer: (user, due) has had no
reader since the review queue moved to progress.memory, and user alone is the first column of
the unique (user, self-check) index, which serves every read of a learner's ticks."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0008_memory_cards"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="checkoff",
            name="check_off_due",
        ),
        migrations.AlterField(
            model_name="checkoff",
            name="user",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="check_offs",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
