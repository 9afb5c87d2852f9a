"""montecarlo's learned playout policy (issue #32): the kernel's features of a move, its softmax
playouts (legal to the end, the same for the same seed), the shipped weights, the option."""

import json
import random
from array import array

import pytest

from gameplay.bots import cardset as C
from gameplay.bots import kernel
from gameplay.bots.heuristic import PLAIN
from gameplay.bots.montecarlo import LEARNED, learned_weights
from gameplay.engine import checker, selfplay
from gameplay.engine.deal import CW, Deal
from gameplay.engine.options import PRESETS, preset
from gameplay.engine.ruleset import Rules
from gameplay.runner.match import run, schedule

CLASSIC = Rules(preset("classic"), 4)


def card(face: int, suit: str) -> int:
    return face * 4 + "CSDH".index(suit)


def table() -> Deal:
    """Seat 0 leads 3♣ 3♦ 7♠ K♥ 2♣; seat 2 holds two cards (an opponent near out)."""
    hands = [C.cards_mask([card(3, "C"), card(3, "D"), card(7, "S"), card(13, "H"),
                           card(2, "C")]),
             C.cards_mask([card(4, "C"), card(5, "C"), card(6, "C")]),
             C.cards_mask([card(8, "C"), card(9, "C")]),
             C.cards_mask([card(10, "C"), card(11, "C"), card(12, "C"), card(14, "C")])]
    return Deal(CLASSIC, hands, leader=0, direction=CW)


def named_features(d: Deal) -> dict:
    """Each legal move's nonzero features by (face, count), "pass" for a pass."""
    moves, rows = kernel.features(CLASSIC, kernel.state(d))
    out = {}
    for m, row in zip(moves, rows, strict=True):
        kind, face, count, *_ = kernel.unpack(CLASSIC, m)
        out["pass" if count == 0 else (face, count)] = {
            name: round(x, 3) for name, x in zip(kernel.FEATURES, row, strict=True) if x}
    return out


def test_the_features_of_a_lead():
    f = named_features(table())
    assert set(f) == {(2, 1), (3, 1), (3, 2), (7, 1), (13, 1)}
    # the pair of 3s: the heuristic's lead, the lowest play, a whole group, 3 cards left
    assert f[(3, 2)] == {"heuristic": 1, "size": 0.5, "lead_size": 0.5, "left": 0.231,
                         "whole_group": 1, "lowest": 1}
    assert f[(3, 1)] == {"size": 0.25, "lead_size": 0.25, "split": 1, "left": 0.308}
    # the 2 is the top rank, a control; seat 2's two cards put every rank in danger
    assert f[(2, 1)] == {"rank": 1, "size": 0.25, "lead_size": 0.25, "control": 1,
                         "left": 0.308, "rank_danger": 1}
    assert f[(7, 1)]["rank"] == f[(7, 1)]["rank_danger"] == round(4 / 12, 3)


def test_the_features_of_a_follow():
    d = table()
    d.apply(next(m for m in d.legal_moves() if m is not None and getattr(m, "count", 0) == 1
                 and m.face == 3))  # a single 3, splitting the pair
    f = named_features(d)
    assert set(f) == {"pass", (4, 1), (5, 1), (6, 1)}
    assert f["pass"] == {"pass": 1, "left": round(3 / 13, 3), "pass_danger": 1}
    assert f[(4, 1)] == {"heuristic": 1, "rank": 0.083, "jump": 0.083, "size": 0.25,
                         "left": 0.154, "whole_group": 1, "lowest": 1, "rank_danger": 0.083}
    assert f[(6, 1)]["jump"] == 0.25


def packed_weights(**named) -> bytes:
    return kernel.packed([named.get(name, 0.0) for name in kernel.FEATURES])


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_softmax_playouts_are_the_same_for_the_same_seed(name):
    """Every seat on the learned policy (uniform weights: the most random): a playout is a
    function of its seed, and the seeds give different playouts."""
    rules = Rules(preset(name), 4)
    if not kernel.supports(rules):
        pytest.skip("the kernel does not play this preset")
    rng = random.Random(2)
    flat = packed_weights()
    seen = set()
    for _ in range(5):
        s = kernel.state(selfplay.fresh_deal(rules, rng))
        for seed in range(8):
            first = [kernel.playout(rules, s, kernel.NO_MOVE, seat, weights=flat, seed=seed,
                                    every_seat=True) for seat in range(4)]
            assert first == [kernel.playout(rules, s, kernel.NO_MOVE, seat, weights=flat,
                                            seed=seed, every_seat=True) for seat in range(4)]
            assert sorted(first) == [0, 1 / 3, 2 / 3, 1]  # played to its end: every place
            seen.add(tuple(first))
    assert len(seen) > 5


def test_a_heavy_heuristic_weight_plays_the_heuristic_playout():
    """With all the weight on the heuristic's move the softmax plays it: the heuristic's
    playout, whatever the seed."""
    rng = random.Random(4)
    heavy = packed_weights(heuristic=50.0)
    for _ in range(10):
        s = kernel.state(selfplay.fresh_deal(CLASSIC, rng))
        for seat in range(4):
            for looks in (0, 2):
                plain = kernel.playout(CLASSIC, s, kernel.NO_MOVE, seat, looks=looks)
                assert {kernel.playout(CLASSIC, s, kernel.NO_MOVE, seat, looks=looks,
                                       weights=heavy, seed=seed, every_seat=True)
                        for seed in range(3)} == {plain}


def test_the_policy_gradients_playout_is_the_learned_playout():
    """``reinforce`` plays the playout ``playout`` plays with the same weights and seed (the
    searching seat on the policy, the others on the heuristic), and its gradient sums, over
    the seat's decisions, the chosen move's features less their mean: zero in a feature no
    move has."""
    rng = random.Random(6)
    weights = packed_weights(heuristic=1.0, rank=-1.0)
    bomb = kernel.FEATURES.index("bomb")
    differs = 0
    for _ in range(10):
        s = kernel.state(selfplay.fresh_deal(CLASSIC, rng))
        for seat in range(4):
            for seed in range(3):
                result, grad = kernel.reinforce(CLASSIC, s, seat, PLAIN, weights, seed)
                assert result == kernel.playout(CLASSIC, s, kernel.NO_MOVE, seat,
                                                weights=weights, seed=seed)
                assert grad[bomb] == 0  # no bombs in classic
                differs += result != kernel.playout(CLASSIC, s, kernel.NO_MOVE, seat)
    assert differs


def test_the_fit_climbs_to_the_chosen_moves():
    """Two decisions, each choosing its move with the first feature: the gradient at zero
    points up that feature and the Hessian is negative there."""
    n = kernel.N_FEATURES
    rows = [[1.0] + [0.0] * (n - 1), [0.0] * n]
    packed = array("d", [2, 0, *rows[0], *rows[1], 2, 0, *rows[0], *rows[1]]).tobytes()
    ll, grad, hess = kernel.logit(packed, [0.0] * n, 0.0)
    assert ll == pytest.approx(2 * -0.6931471805599453)
    assert grad[0] == pytest.approx(1.0) and all(g == 0 for g in grad[1:])
    assert hess[0][0] == pytest.approx(-0.5)


def test_the_shipped_weights_load_and_say_how_they_were_made():
    stored = json.loads(LEARNED.read_text())
    assert stored["features"] == list(kernel.FEATURES)
    assert stored["presets"]
    for name, entry in stored["presets"].items():
        assert name in PRESETS
        assert len(entry["weights"]) == kernel.N_FEATURES
        assert entry["command"].startswith("scripts/train_playout_policy.py --preset " + name)
        assert entry["games_of"] and entry["seconds"] > 0 and entry["held_out"]
        kernel.packed(entry["weights"])
    assert set(learned_weights()) == set(stored["presets"])


@pytest.mark.parametrize("policy", ["learned", "learned_all"])
def test_montecarlo_on_the_learned_policy_plays_checker_valid_games(policy):
    name = next(iter(learned_weights()))
    lineup = [f"montecarlo:playouts=12,policy={policy}", "heuristic", "random", "greedy"]
    specs = schedule(lineup, name, games=2, seed=5, scoring={"system": "penalty", "deals": 2})
    first = []
    for _spec, result in run(specs):
        exit_code, verdict = checker.check(result.transcript)
        assert exit_code == 0, verdict
        assert all(stats.faults == [] for stats in result.stats)
        first.append(result.transcript)
    assert first == [r.transcript for _, r in run(specs)]  # the same seed, the same games
