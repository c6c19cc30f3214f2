"""Accounts made before django-allauth: each address on an account becomes its primary
EmailAddress, not verified (nobody has confirmed it), so no reminder goes to it until its owner
opens a confirmation link. Going back leaves the rows to allauth's own migrations."""

from django.db import migrations


def addresses_from_accounts(apps, schema_editor):
    User = apps.get_model("auth", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    have = set(EmailAddress.objects.values_list("user_id", flat=True))
    EmailAddress.objects.bulk_create(
        EmailAddress(user_id=user_id, email=email.lower(), primary=True, verified=False)
        for user_id, email in User.objects.exclude(email="")
        .order_by("pk")
        .values_list("pk", "email")
        if user_id not in have
    )


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0017_review_log_from_cards"),
        ("account", "0009_emailaddress_unique_primary_email"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(addresses_from_accounts, migrations.RunPython.noop)]
