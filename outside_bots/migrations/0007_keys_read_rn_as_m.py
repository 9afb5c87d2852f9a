"""The look-alike keys read a small "rn" as "m" now (league.names.look_alike_keys): every
bot's keys written again, so "rnodem" finds the modem registered before."""

from django.db import migrations

from league.names import look_alike_keys


def keys_written_again(apps, schema_editor):
    OutsideBot = apps.get_model("outside_bots", "OutsideBot")
    bots = list(OutsideBot.objects.only("name"))
    for bot in bots:
        for field, key in look_alike_keys(bot.name).items():
            setattr(bot, field, key)
    OutsideBot.objects.bulk_update(bots, list(look_alike_keys("")), batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("outside_bots", "0006_look_alike_keys")]
    operations = [migrations.RunPython(keys_written_again, migrations.RunPython.noop)]
