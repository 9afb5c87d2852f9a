"""A hosted bot's stderr is its author's text, of any bytes: a NUL in it (which PostgreSQL
stores in no text column) must not keep its game from being stored, nor be lost: it is kept
escaped, as a fault's text is (gameplay.bots.base.fault_text). Run on PostgreSQL to see the
NUL refused (DATABASE_URL, README)."""

from pathlib import Path

import pytest

from bot_games.models import BotSeat
from gameplay.bots.sandbox import available
from ladder import services
from ladder.models import Entry, Game
from outside_bots.models import OutsideBot
from tests.ladder.test_hosted import upload, zipped
from tests.ladder.test_services import commit, entry_of  # noqa: F401

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not available(), reason="no bubblewrap sandbox here")]

ROOT = Path(__file__).resolve().parents[2]
# The example bot, after a line on stderr with a NUL and a bell in it.
NOISY = zipped({"bot.py": b"import runpy, sys\n"
                          b"sys.stderr.write('a NUL \\x00 and a bell \\x07 here\\n')\n"
                          b"runpy.run_path('/bot/example.py', run_name='__main__')\n",
                "example.py": (ROOT / "examples" / "outside_bot.py").read_bytes()})


def test_a_nul_on_a_hosted_bots_stderr_is_kept_escaped_and_its_game_stored(
        ladder_settings, author, commit):  # noqa: F811
    assert upload(author, "noisy-bot", NOISY, "bot.zip", "python").status_code == 201

    commit(services.bots_sync)

    entry = entry_of(OutsideBot.objects.get())
    assert entry.validation_game.status == Game.DONE, entry.validation_game.reason
    assert (entry.status, entry.reason) == (Entry.ACTIVE, "")
    (stderr,) = (BotSeat.objects.filter(game=entry.validation_game.bot_game)
                 .exclude(stderr="").values_list("stderr", flat=True))
    assert "\x00" not in stderr
    assert "a NUL \\x00 and a bell \\x07 here" in stderr
