"""Each user name's look-alike keys (accounts.models.NameKeys), given to the users made before,
so a sign-up looks look-alikes up by index instead of reading every user."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from league.names import look_alike_keys


def keys_given(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    NameKeys = apps.get_model("accounts", "NameKeys")
    users = User.objects.exclude(name_keys__isnull=False).values_list("pk", "username")
    NameKeys.objects.bulk_create(
        (NameKeys(user_id=pk, **look_alike_keys(username)) for pk, username in users.iterator()),
        batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_addresses_of_accounts_made_by_administrators"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="NameKeys",
            fields=[
                ("user", models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                    related_name="name_keys", serialize=False, to=settings.AUTH_USER_MODEL)),
                ("look_casefolded", models.TextField(db_index=True)),
                ("look_upper", models.TextField(db_index=True)),
                ("look_written", models.TextField(db_index=True)),
            ],
            options={"verbose_name": "user name keys",
                     "verbose_name_plural": "user name keys"},
        ),
        migrations.RunPython(keys_given, migrations.RunPython.noop),
    ]
