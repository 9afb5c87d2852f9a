"""Each bot's look-alike keys (league.names.look_alike_keys), given to the bots registered
before, so a new name looks the bots like it up by index instead of reading every bot."""

from django.db import migrations, models

from league.names import look_alike_keys


def keys_given(apps, schema_editor):
    OutsideBot = apps.get_model("outside_bots", "OutsideBot")
    bots = list(OutsideBot.objects.only("name"))
    for bot in bots:
        for field, key in look_alike_keys(bot.name).items():
            setattr(bot, field, key)
    OutsideBot.objects.bulk_update(bots, list(look_alike_keys("")), batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ("outside_bots", "0005_secret_given"),
    ]

    operations = [
        *(migrations.AddField(
            model_name="outsidebot", name=field,
            field=models.CharField(db_index=True, default="", editable=False, max_length=50),
            preserve_default=False) for field in ("look_casefolded", "look_upper",
                                                  "look_written")),
        migrations.RunPython(keys_given, migrations.RunPython.noop),
    ]
