"""A ladder game's faults are its bot game's alone (issue #27: one home for a bot game): an
entry's faults are read through its seat (Seat(game, seat)). Rows its bot game lacks are
copied in batches before the ladder's Fault goes. Reversing brings the table back empty (the
faults stay in bot_games, which the code of this migration's time reads)."""

from django.db import migrations

from bot_games.fault_copy import faults_copied


def faults_to_bot_games(apps, schema_editor):
    faults_copied(apps, apps.get_model("ladder", "Fault").objects)


class Migration(migrations.Migration):

    dependencies = [
        ("ladder", "0008_entry_par"),
        ("bot_games", "0002_bot_logs"),
    ]

    operations = [
        migrations.RunPython(faults_to_bot_games, migrations.RunPython.noop),
        migrations.DeleteModel(name="Fault"),
    ]
