"""Migration bot_games 0004: a fault stored before answers were kept without their "log" loses
the log's text (docs/bots.md "Who sees them"), and keeps the rest of the answer."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("bot_games", "0003_hosted_stderr")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_stored_faults_lose_their_logs_text():
    old = _migrate(BEFORE)
    game = old.get_model("bot_games", "BotGame").objects.create(
        preset="classic", seed=1, transcript={}, played_at=datetime.now(UTC))
    fault = old.get_model("bot_games", "BotFault")
    kept = dict(game=game, seat=0, deal=0, decision="play", kind="illegal", message="no")
    logged = fault.objects.create(number=1, answer='{"choice": 9, "log": "my plan"}', **kept)
    plain = fault.objects.create(number=2, answer='{"choice": 9}', **kept)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    logged.refresh_from_db()
    plain.refresh_from_db()
    assert (logged.answer, plain.answer) == ('{"choice": 9, "log": "…"}', '{"choice": 9}')
