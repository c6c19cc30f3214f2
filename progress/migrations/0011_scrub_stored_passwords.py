"""Mask the passwords django-axes kept from failed tries before every password field was named
in AXES_SENSITIVE_PARAMETERS (a password change with a wrong current password stored
old_password, new_password1 and new_password2 verbatim in AccessAttempt.post_data).

post_data is axes' "key=value" lines. A line whose key is a password field is masked, and so
is any line that is not "key=value" at all: the rest of a value that held a line break. What was
typed cannot be recovered, and nothing else in the row changes. Not reversible: the masked
values are gone, as they should be."""

import re

from django.db import migrations

MASK = "********************"
SENSITIVE = {
    "password",
    "password1",
    "password2",
    "old_password",
    "new_password1",
    "new_password2",
}
LINE = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)=")


def scrubbed(post_data: str) -> str:
    lines = []
    for line in post_data.split("\n"):
        match = LINE.match(line)
        if match is None:
            lines.append(MASK)
        elif match.group(1) in SENSITIVE:
            lines.append(f"{match.group(1)}={MASK}")
        else:
            lines.append(line)
    return "\n".join(lines)


def scrub(apps, schema_editor):
    AccessAttempt = apps.get_model("axes", "AccessAttempt")
    for attempt in AccessAttempt.objects.exclude(post_data="").only("pk", "post_data").iterator():
        clean = scrubbed(attempt.post_data)
        if clean != attempt.post_data:
            AccessAttempt.objects.filter(pk=attempt.pk).update(post_data=clean)


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0010_progress_version_stamp"),
        ("axes", "0010_accessattemptexpiration"),
    ]

    operations = [migrations.RunPython(scrub, migrations.RunPython.noop)]
