"""The seat between a bot and the engine: a built-in bot's failure is a bug that stops the game
(only an outside bot's failures become recorded faults), and no seat count breaks a bot."""

import pytest

from gameplay.bots import make_bot
from gameplay.bots.base import Bot, BotError, BotFault
from gameplay.engine.options import PRESETS, preset
from gameplay.runner.match import play_game


class Raises(Bot):
    name = "raises"

    def play(self, obs, legal):
        raise RuntimeError("boom")


class Junk(Bot):
    name = "junk"

    def play(self, obs, legal):
        return "not a move"


def _lineup(first):
    return [first] + [make_bot("random", seed=s) for s in range(1, 4)]


def test_a_built_in_bots_exception_stops_the_game():
    with pytest.raises(RuntimeError, match="boom"):
        play_game(_lineup(Raises()), preset("classic"), seed=9, scoring=None)


def test_a_built_in_bots_illegal_answer_stops_the_game():
    with pytest.raises(BotError, match="junk answered play wrongly: 'not a move' is not a"):
        play_game(_lineup(Junk()), preset("classic"), seed=9, scoring=None)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_montecarlo_plays_a_deal_at_18_seats(name):
    bots = [make_bot("montecarlo:playouts=4", seed=1)] + [make_bot("heuristic")] * 17
    result = play_game(bots, preset(name), seed=1, scoring=None)
    assert len(result.finishing_orders[0]) == 18
    assert result.stats[0].decisions > 0 and result.stats[0].faults == []


class Unavailable(Bot):
    """Stands in for an outside bot that cannot be called (as the tournaments' seat does)."""

    name = "unavailable"

    def play(self, obs, legal):
        raise BotFault("error", "disabled")


def test_a_bot_fault_is_recorded_whoever_raises_it():
    result = play_game(_lineup(Unavailable()), preset("classic"), seed=9, scoring=None)
    faults = result.stats[0].faults
    assert faults and {(f["kind"], f["message"]) for f in faults} == {("error", "disabled")}
