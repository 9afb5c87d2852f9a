"""Whether a bot's author was given its secret. Bots registered before secrets existed got one
from 0002 that nobody was shown, so their servers fail the validation's challenge: "My bots"
now says so, beside the button that gives a new one. Those are the HTTP bots made before 0002
was applied whose secret was not replaced since (an "outside bot secret replaced" audit row
under the bot's name)."""

from django.db import migrations, models
from django.db.migrations.recorder import MigrationRecorder


def forwards(apps, schema_editor):
    db = schema_editor.connection.alias
    OutsideBot = apps.get_model("outside_bots", "OutsideBot")
    AuditEntry = apps.get_model("league", "AuditEntry")
    secrets_since = (MigrationRecorder(schema_editor.connection).migration_qs
                     .filter(app="outside_bots", name="0002_secret_name_key_normal_url")
                     .values_list("applied", flat=True).first())
    if secrets_since is None:
        return
    replaced = AuditEntry.objects.using(db).filter(
        action="outside bot secret replaced").values_list("target", flat=True)
    (OutsideBot.objects.using(db)
     .filter(created_at__lt=secrets_since, code__isnull=True)
     .exclude(name__in=list(replaced))
     .update(secret_given=False))


class Migration(migrations.Migration):

    dependencies = [
        ("outside_bots", "0004_hosted_code"),
        ("league", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="outsidebot",
            name="secret_given",
            field=models.BooleanField(default=True, editable=False, help_text=(
                "its author was given its secret (at registration, or on replacing it)")),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
