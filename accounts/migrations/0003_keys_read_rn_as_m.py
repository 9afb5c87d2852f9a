"""The look-alike keys read a small "rn" as "m" now (league.names.look_alike_keys): every
user's keys written again, so "rnodem" finds the modem registered before."""

from django.db import migrations

from league.names import look_alike_keys


def keys_written_again(apps, schema_editor):
    NameKeys = apps.get_model("accounts", "NameKeys")
    rows = list(NameKeys.objects.select_related("user").only("user__username"))
    for row in rows:
        for field, key in look_alike_keys(row.user.username).items():
            setattr(row, field, key)
    NameKeys.objects.bulk_update(rows, list(look_alike_keys("")), batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_namekeys")]
    operations = [migrations.RunPython(keys_written_again, migrations.RunPython.noop)]
