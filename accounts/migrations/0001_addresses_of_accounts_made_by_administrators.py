"""Accounts made before sign-up existed (in the admin, by createsuperuser) have an e-mail
address but no allauth address row, so password reset did not find them and anyone could sign
up with their address. Each gets its address as a verified one, unless the address is shared
(then an administrator decides whose it is, in the admin)."""

from collections import Counter

from django.conf import settings
from django.db import migrations


def addresses_given(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    EmailAddress = apps.get_model("account", "EmailAddress")
    users = list(User.objects.exclude(email=""))
    uses = Counter(user.email.lower() for user in users)
    uses.update(email.lower() for email in EmailAddress.objects.values_list("email", flat=True))
    with_rows = set(EmailAddress.objects.values_list("user_id", flat=True))
    EmailAddress.objects.bulk_create(
        EmailAddress(user=user, email=user.email.lower(), verified=True, primary=True)
        for user in users if user.pk not in with_rows and uses[user.email.lower()] == 1)


class Migration(migrations.Migration):
    dependencies = [
        ("account", "0009_emailaddress_unique_primary_email"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(addresses_given, migrations.RunPython.noop)]
