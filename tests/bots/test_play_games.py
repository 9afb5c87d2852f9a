"""The play_games command: figures per bot, JSON output and saved transcripts."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from gameplay.bots import make_bot
from gameplay.engine import checker


def test_json_figures_and_transcripts(tmp_path):
    out = StringIO()
    call_command("play_games", "--preset", "presidents-deck", "--bots",
                 "heuristic,random,random,random", "--games", "6", "--seed", "2", "--json",
                 "--transcripts", str(tmp_path), stdout=out)
    report = json.loads(out.getvalue())
    bots = report["bots"]
    assert [b["bot"] for b in bots] == ["heuristic", "random", "random", "random"]
    assert all(b["games"] == 6 for b in bots)
    deals = bots[0]["deals"]
    assert all(b["deals"] == deals for b in bots) and deals >= 6
    assert sum(b["roles"].get("president", 0) for b in bots) == deals
    for b in bots:
        low, high = b["first_out_ci"]
        assert low <= b["first_out_rate"] <= high
        assert b["faults"] == 0 and b["decisions"] > 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    for path in files:
        exit_code, verdict = checker.check(json.loads(path.read_text()))
        assert exit_code == 0, verdict
        assert verdict["scores"]["finished"]


def test_text_report_names_every_bot():
    out = StringIO()
    call_command("play_games", "--preset", "classic", "--bots", "greedy,random,random",
                 "--games", "3", "--scoring", "none", "--duplicate", stdout=out, stderr=StringIO())
    text = out.getvalue()
    assert "3 games of classic" in text and "duplicate" in text
    assert text.count("random: games 3") == 2 and "greedy: games 3" in text


@pytest.mark.parametrize("bots", ["heuristic,nobody", "heuristic", "http://example.com/bot,random"])
def test_bad_lineups_are_refused(bots, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = []
    with pytest.raises(CommandError):
        call_command("play_games", "--preset", "classic", "--bots", bots, "--games", "1",
                     stdout=StringIO())


@pytest.mark.parametrize(("bot", "message"), [
    ("montecarlo:budget_ms=1e8",
     "montecarlo budget_ms must be from 1 to 2,000, not 100,000,000.0"),
    ("montecarlo:budget_ms=nan", "montecarlo budget_ms must be from 1 to 2,000, not nan"),
    ("montecarlo:playouts=10000000", "montecarlo playouts must be from 1 to 2,000, not "
                                     "10,000,000"),
    ("montecarlo:playouts=1e3", "montecarlo playouts must be a whole number from 1 to 2,000, "
                                "not 1000.0"),
    ("montecarlo:walk=1000000000", "montecarlo walk must be from 0 to 100"),
    ("montecarlo:chains=100000", "montecarlo chains must be from 1 to 16"),
    ("montecarlo:budget_ms=fast", "montecarlo budget_ms must be a number from 1 to 2,000"),
    ("montecarlo:depth=3", "montecarlo takes budget_ms, playouts, .* not 'depth'"),
    ("heuristic:budget_ms=5", "heuristic takes no settings, not 'budget_ms'"),
])
def test_bot_settings_beyond_their_bounds_are_refused_naming_them(bot, message):
    with pytest.raises(ValueError, match=message):
        make_bot(bot).close()  # before the fix: a bot holding a worker for a day a decision


def test_the_bounds_themselves_are_allowed():
    bot = make_bot("montecarlo:budget_ms=2000,playouts=2000,walk=100,chains=16,lean=0.5")
    assert (bot.config.budget_ms, bot.config.playouts, bot.config.walk, len(bot.chains)) == \
        (2000, 2000, 100, 16)


@pytest.mark.parametrize(("bot", "message"), [
    ("montecarlo:depth=3", "montecarlo takes budget_ms, playouts, .* not 'depth'"),
    ("heuristic:budget_ms=5", "heuristic takes no settings, not 'budget_ms'"),
])
def test_play_games_refuses_bot_settings_naming_them(bot, message):
    with pytest.raises(CommandError, match=message):
        call_command("play_games", "--preset", "classic", "--bots", f"{bot},random",
                     "--games", "1", stdout=StringIO())
