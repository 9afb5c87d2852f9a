"""Tournaments with a hosted entrant (issue #30): its games go where hosted bots are played
(CELERY_HOSTED_QUEUE, by the ladder's own rule), and a worker without the sandbox refuses them
in words as the ladder does: not played, and no fault counted against the bot."""

from pathlib import Path

import pytest

from bot_games.models import BotFault
from gameplay.bots.sandbox import SandboxUnavailable
from outside_bots import services as outside_bots
from outside_bots.models import hosted_code
from plumbing import queue
from tests.tournaments.helpers import ENTRANTS, small_tournament
from tournaments import services
from tournaments.models import Tournament, UnplayedGame

pytestmark = pytest.mark.django_db

PYTHON = (Path(__file__).resolve().parents[2] / "examples" / "outside_bot.py").read_bytes()


@pytest.fixture
def hosted_cup():
    """Four entrants at tables of three (C(4, 3) = 4 tables, one batch each): the hosted one,
    the last, sits at three of them."""
    outside_bots.outside_bot_create(name="py-bot", runtime="python",
                                    code=hosted_code(PYTHON, "bot.py", "python"))
    tournament = small_tournament(entrants=[*ENTRANTS[:3], ("Hosted", "outside:py-bot")],
                                  seats=3, games_per_table=2, batch_size=2)
    return tournament


def hosted_tables(tournament) -> set[int]:
    tournament.refresh_from_db()
    return {t for t, table in enumerate(tournament.tables[0]) if 3 in table}


def test_batches_seating_a_hosted_entrant_go_to_the_hosted_queue(
        hosted_cup, settings, monkeypatch, django_capture_on_commit_callbacks):
    settings.CELERY_HOSTED_QUEUE = "hosted"
    sent = []
    monkeypatch.setattr(queue, "send", lambda task, *args, **options: sent.append(
        (args[1], options.get("queue"))))

    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=hosted_cup)

    hosted = hosted_tables(hosted_cup)
    assert len(hosted) == 3
    assert sorted(sent) == sorted(
        ([[0, t, 0], [0, t, 1]], "hosted" if t in hosted else None) for t in range(4))


def test_a_worker_without_the_sandbox_leaves_hosted_games_unplayed_in_words(
        hosted_cup, monkeypatch, client, django_capture_on_commit_callbacks):
    def no_sandbox():
        raise SandboxUnavailable("bwrap is not installed")
    monkeypatch.setattr(outside_bots, "sandbox_check", no_sandbox)

    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=hosted_cup)

    hosted = hosted_tables(hosted_cup)
    hosted_cup.refresh_from_db()
    assert hosted_cup.status == Tournament.FINISHED
    # Played: the two games of the table without the hosted entrant.
    assert set(hosted_cup.games.values_list("table", flat=True)) == {0, 1, 2, 3} - hosted
    unplayed = UnplayedGame.objects.filter(tournament=hosted_cup)
    assert set(unplayed.values_list("table", flat=True)) == hosted and unplayed.count() == 6
    reason = unplayed.first().reason
    assert reason.startswith("this worker cannot run hosted bots (bwrap is not installed); "
                             "not your bot's fault")
    assert not BotFault.objects.exists()  # nothing counted against any bot
    page = client.get(hosted_cup.get_absolute_url()).content.decode()
    assert "6 games not played: this worker cannot run hosted bots" in page


def test_the_reconcilers_read_the_hosted_queue_when_they_ask_what_is_held(settings):
    # A batch or ladder game waiting there is held, not lost: it is not sent again each run.
    settings.CELERY_HOSTED_QUEUE = "hosted"
    assert "hosted" in queue.queue_names()
    settings.CELERY_HOSTED_QUEUE = ""  # hosted games then go with the others
    assert "" not in queue.queue_names()
