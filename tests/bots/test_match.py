"""The match runner: every built-in bot's games are checker-valid, replay to the same
finishing orders, and the same seed gives the same transcript."""

import pytest

from gameplay.bots import make_bot
from gameplay.bots.base import Bot
from gameplay.engine import checker
from gameplay.engine.options import PRESETS, preset
from gameplay.engine.plays import PASS
from gameplay.engine.scoring import Scoring
from gameplay.runner.figures import interval
from gameplay.runner.match import Tally, play_game, run, schedule

FAST_BOTS = ["random", "greedy", "heuristic", "spender", "hoarder", "montecarlo:playouts=6"]


def _checked(result):
    exit_code, verdict = checker.check(result.transcript)
    assert exit_code == 0, verdict
    assert [d["finishing_order"] for d in verdict["deals"]] == result.finishing_orders
    if result.scores is not None:
        assert verdict["scores"]["totals"] == result.scores
        assert sorted(verdict["scores"]["winners"]) == sorted(result.winners)
    return verdict


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("bot", FAST_BOTS)
def test_every_bot_plays_checker_valid_games_on_every_preset(name, bot):
    lineup = [bot, "random", bot, "greedy"]
    specs = schedule(lineup, name, games=2, seed=7, scoring={"system": "penalty", "deals": 3})
    for _spec, result in run(specs):
        _checked(result)
        assert len(result.finishing_orders) == 3
        assert all(stats.faults == [] for stats in result.stats)


@pytest.mark.parametrize("name", ["presidents-deck", "school-scum", "friday"])
def test_same_seed_same_transcript(name):
    lineup = ["montecarlo:playouts=4", "heuristic", "random", "greedy"]
    first = [r.transcript for _, r in run(schedule(lineup, name, games=2, seed=3,
                                                   scoring={"system": "penalty"}))]
    again = [r.transcript for _, r in run(schedule(lineup, name, games=2, seed=3,
                                                   scoring={"system": "penalty"}))]
    other = [r.transcript for _, r in run(schedule(lineup, name, games=2, seed=4,
                                                   scoring={"system": "penalty"}))]
    assert first == again
    assert first != other


def test_blind_option_two_players():
    bots = [make_bot("heuristic", seed=1), make_bot("random", seed=2)]
    result = play_game(bots, preset("friday", blind=True), seed=5,
                       scoring=None)
    _checked(result)
    assert "blind" in result.transcript["deals"][0]


def test_duplicate_mode_replays_the_same_deals_with_seats_rotated():
    specs = schedule(["greedy", "random", "random", "random"], "classic", games=8, seed=11,
                     duplicate=True)
    results = [r for _, r in run(specs)]
    first_hands = [r.transcript["deals"][0]["hands"] for r in results]
    assert first_hands[0] == first_hands[1] == first_hands[2] == first_hands[3]
    assert first_hands[4] != first_hands[0]
    assert [s.seat_of(0) for s in specs[:4]] == [0, 1, 2, 3]
    assert [r.bots.index("greedy") for r in results[:4]] == [0, 1, 2, 3]


def test_seat_rotation_without_duplicate_changes_the_deals():
    specs = schedule(["greedy", "random", "random"], "classic", games=3, seed=11)
    hands = [r.transcript["deals"][0]["hands"] for _, r in run(specs)]
    assert hands[0] != hands[1]
    assert [s.seat_of(0) for s in specs] == [0, 1, 2]


def test_tally_counts_positions_roles_and_wins():
    specs = schedule(["greedy", "random", "random", "random"], "classic", games=8, seed=2)
    tally = Tally(specs[0].lineup)
    results = list(run(specs))
    for spec, result in results:
        tally.add(spec, result)
    summary = tally.summary()
    assert [p["deals"] for p in summary] == [8] * 4
    assert sum(p["roles"].get("president", 0) for p in summary) == 8
    assert sum(p["wins"] for p in summary) == 8  # one deal: the first out wins
    for player, p in enumerate(summary):
        positions = [r.finishing_orders[0].index(s.seat_of(player)) + 1 for s, r in results]
        assert p["mean_position"] == sum(positions) / 8
        low, high = p["mean_position_ci"]
        assert low <= p["mean_position"] <= high
    assert sum(p["mean_position"] for p in summary) == pytest.approx(10)


def test_wilson_interval():
    low, high = interval(50, 100)
    assert low == pytest.approx(0.404, abs=1e-3) and high == pytest.approx(0.596, abs=1e-3)
    assert interval(0, 0) == (0.0, 0.0)


class Broken(Bot):
    """Answers every decision wrongly, as an outside bot may."""

    name = "broken"
    outside = True

    def __init__(self, how):
        self.how = how

    def play(self, obs, legal):
        if self.how == "raise":
            raise RuntimeError("boom")
        if self.how == "pass-on-lead":
            return PASS
        return "not a move"

    def give_back(self, obs, count, allowed):
        return [obs.received[0]] * count if obs.received else ["x"]

    def ask(self, obs, index):
        return "middle"

    def lead_and_direction(self, obs, names_leader):
        return (99, 7)


@pytest.mark.parametrize("how", ["raise", "pass-on-lead", "junk"])
@pytest.mark.parametrize("name", ["presidents-deck", "school-scum", "friday"])
def test_faulty_bot_falls_back_to_a_safe_move_and_is_counted(how, name):
    bots = [Broken(how), make_bot("random", seed=1), make_bot("random", seed=2),
            make_bot("random", seed=3)]
    result = play_game(bots, preset(name), seed=9, scoring=Scoring("penalty", deals=3))
    _checked(result)
    faults = result.stats[0].faults
    assert faults and all(f["decision"] for f in faults)
    kinds = {f["kind"] for f in faults if f["decision"] == "play"}
    assert kinds == ({"error"} if how == "raise" else {"illegal"})
    assert all(f["kind"] == "illegal" for f in faults if f["decision"] != "play")
    assert result.stats[1].faults == []
