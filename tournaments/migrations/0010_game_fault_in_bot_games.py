"""A tournament game's faults are its bot game's alone (issue #27: one home for a bot game):
an entrant's are read through its player's seat in the league game. Rows its bot game lacks
are copied in batches before GameFault goes. Reversing brings the table back empty (the
faults stay in bot_games)."""

from django.db import migrations

from bot_games.fault_copy import faults_copied


def faults_to_bot_games(apps, schema_editor):
    faults_copied(apps, apps.get_model("gameplay", "GameFault").objects)


class Migration(migrations.Migration):

    dependencies = [
        ("gameplay", "0009_tournament_game_in_bot_games"),
        ("bot_games", "0002_bot_logs"),
    ]

    operations = [
        migrations.RunPython(faults_to_bot_games, migrations.RunPython.noop),
        migrations.DeleteModel(name="GameFault"),
    ]
