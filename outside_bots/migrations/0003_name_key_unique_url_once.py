"""The name key unique, each new bot its own secret, one enabled bot a URL: in a migration of
their own, after 0002 filled the rows (PostgreSQL alters no table with row changes pending in
the same transaction)."""

from django.db import migrations, models

import outside_bots.models


class Migration(migrations.Migration):

    dependencies = [
        ("outside_bots", "0002_secret_name_key_normal_url"),
    ]

    operations = [
        migrations.AlterField(
            model_name="outsidebot", name="name_key",
            field=models.CharField(editable=False, max_length=50, unique=True)),
        migrations.AlterField(
            model_name="outsidebot", name="secret",
            field=models.CharField(default=outside_bots.models.new_secret, editable=False,
                                   max_length=64)),
        migrations.AddConstraint(
            model_name="outsidebot",
            constraint=models.UniqueConstraint(condition=models.Q(("enabled", True)),
                                               fields=("url",), name="outside_bot_url_once")),
    ]
