"""The playout kernel against the engine, the judge: the same legal moves in the same order, the
same state after every move, the heuristic's choices and the same playouts, on every preset."""

import dataclasses
import random
import re
from collections import Counter
from dataclasses import fields
from pathlib import Path

import pytest

from gameplay.bots import inference, kernel, make_bot
from gameplay.bots.base import BotDecider
from gameplay.bots.heuristic import PLAIN, HeuristicBot, heuristic_move
from gameplay.bots.kernel import build
from gameplay.bots.montecarlo import TUNED, MonteCarloBot, heuristic_policy, playout
from gameplay.bots.observation import GameLog, observe
from gameplay.bots.simple import RandomBot
from gameplay.engine import cards, selfplay
from gameplay.engine.deal import CCW, CONSEC, EIGHT_BELOW, KKK, MODE_NAMES, SIXTY_NINE, Deal
from gameplay.engine.errors import OptionsError
from gameplay.engine.game import Game
from gameplay.engine.options import OPTIONS, PRESETS, Options, preset
from gameplay.engine.plays import BLIND, BOMB, LONE_DOPPELGANGER, MIX, PASS
from gameplay.engine.ruleset import Rules
from gameplay.engine.scoring import Scoring
from tests.engine.test_perft import TREES, perft, position
from tests.toy_option import toy_option  # noqa: F401 (a fixture)

PRESET_NAMES = list(PRESETS)


def engine_key(move) -> tuple:
    if move is PASS or move is BLIND:
        return (move,)
    return (move.kind, move.face, move.count, move.wilds, move.reverses, move.mask)


def kernel_key(rules, code: int) -> tuple:
    fields = kernel.unpack(rules, code)
    return fields[:1] if fields[0] is PASS or fields[0] is BLIND else fields


def engine_view(d: Deal) -> dict:
    return {"hands": list(d.hands), "active": d.active, "finishing_order": d.finishing_order,
            "turn": d.turn, "direction": d.direction,
            "last": engine_key(d.last) if d.last is not None else None,
            "last_seat": d.last_seat,
            "before_last": engine_key(d.before_last) if d.before_last is not None else None,
            "passed": d.passed, "mode": d.mode, "reversed": d.reversed, "opening": d.opening,
            "over": d.over}


def kernel_view(rules, state: bytes) -> dict:
    view = kernel.view(rules, state)
    del view["mode_count"]  # stale in the engine once the 69 ends; read only under 69
    return view


# Each preset at several table sizes, and the options no preset turns on by default.
TABLES = [(name, {}, players) for name in PRESET_NAMES for players in (2, 3, 4, 6)] + [
    ("friday", {"revolution": True, "jokers": 2}, 4),
    ("friday", {"revolution": True, "jokers": 2}, 3),
    ("presidents-deck", {}, 12),  # two decks
    ("classic", {"decks": 2}, 5),
]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_kernel_plays_the_engines_moves(name):
    """Deals played half at random, half by the heuristic: at every position the kernel's
    legal moves are the engine's, in its order, and after every move both states agree."""
    compared = 0
    seen_modes, seen_kinds, reversed_seen = set(), set(), False
    for table_name, overrides, players in [t for t in TABLES if t[0] == name]:
        rules = Rules(preset(table_name, **overrides), players)
        for seed in range(12):
            rng = random.Random(seed)
            d = selfplay.fresh_deal(rules, rng)
            state = kernel.state(d)
            while not d.over:
                legal = d.legal_moves()
                assert [kernel_key(rules, m) for m in kernel.legal(rules, state)] == [
                    engine_key(m) for m in legal], (table_name, players, seed, d.mode, d.last)
                if rng.random() < 0.5:
                    move = legal[rng.randrange(len(legal))]
                else:
                    move = heuristic_policy(d, legal, 0, rng)
                d.apply(move)
                state = kernel.apply(rules, state, kernel.move(rules, move))
                assert kernel_view(rules, state) == engine_view(d), (table_name, players, seed)
                compared += 1
                seen_modes.add(d.mode)
                reversed_seen |= d.reversed
                if move is not PASS:
                    seen_kinds.add(move.kind)
    assert compared >= 2000
    # the rules each preset brings were reached, not just its plain tricks
    if name == "school-scum":
        assert {CONSEC, EIGHT_BELOW, SIXTY_NINE, KKK} <= seen_modes
        assert MIX in seen_kinds
    if name == "presidents-deck":
        assert {BOMB, LONE_DOPPELGANGER} <= seen_kinds
    if name == "friday":
        assert reversed_seen


class Checked:
    """A seat's decider that checks the kernel's policy at each of its decisions against the
    heuristic on the seat's real observation, in the plain style and the preset's tuned one."""

    def __init__(self, seat: BotDecider, log: GameLog, game: Game, tally: list):
        self.seat, self.log, self.game, self.tally = seat, log, game, tally

    def move(self, deal, legal):
        rules = deal.rules
        obs = observe(deal, self.game, self.log, self.seat.seat)
        state = kernel.state(deal)
        for style in {PLAIN, TUNED.get(rules.options.preset, PLAIN)}:
            expected = legal[0] if len(legal) == 1 else heuristic_move(rules, obs, legal, style)
            assert kernel_key(rules, kernel.choose(rules, state, style)) == engine_key(expected)
        move = self.seat.move(deal, legal)
        if isinstance(self.seat.bot, HeuristicBot):  # and what the heuristic bot played
            assert kernel_key(rules, kernel.choose(rules, state)) == engine_key(move)
        self.tally.append(len(legal))
        return move

    def __getattr__(self, name):
        return getattr(self.seat, name)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_kernel_policy_picks_the_heuristic_bots_move(name):
    """Whole games with exchanges (penalty scoring), heuristic bots and random ones (for
    positions a heuristic table never reaches): at every decision the kernel's policy is the
    heuristic's choice."""
    tally = []
    for seed in range(3):
        rules = Rules(preset(name), 4)
        game = Game(rules, dealer=0, scoring=Scoring("penalty", limit=4))
        log = GameLog()
        bots = [HeuristicBot(), RandomBot(seed), HeuristicBot(), HeuristicBot()]
        seats = [Checked(BotDecider(b, s, log, game), log, game, tally) for s, b in enumerate(bots)]
        rng = random.Random(seed)
        while not game.over and len(game.records) < 6:
            selfplay.play_deal(game, seats, rng)
    assert len(tally) >= 300
    assert sum(n > 1 for n in tally) >= 200  # real choices, not forced moves


def positions(rules: Rules, rng: random.Random, share: float, deals: int = 3):
    """A ``share`` of the positions of ``deals`` deals of four heuristic players, with their
    legal moves (a position is looked at before the deal moves on)."""
    for _ in range(deals):
        d = selfplay.fresh_deal(rules, rng)
        while not d.over:
            legal = d.legal_moves()
            if rng.random() < share:
                yield d, legal
            d.apply(heuristic_policy(d, legal, 0, rng))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_kernel_playouts_end_as_the_engines(name):
    """From positions of real deals, each legal move played out in the kernel scores what
    ``montecarlo.playout`` scores, the searching seat in the preset's style."""
    rules = Rules(preset(name), 4)
    style = TUNED.get(name, PLAIN)
    rng = random.Random(5)
    played = 0
    for d, legal in positions(rules, rng, 0.2):
        state = kernel.state(d)
        for move in legal:
            after = d.copy()
            after.apply(move)
            expected = playout(after, d.turn, rng, heuristic_policy, style)
            assert kernel.playout(rules, state, kernel.move(rules, move), d.turn,
                                  style) == expected
            played += 1
    assert played >= 30


@pytest.mark.parametrize("name", ["classic", "presidents-deck"])
def test_kernel_playouts_in_one_call_are_the_single_playouts(name):
    """``kernel.playouts`` (par's one call a round of seats) plays each (seat, style) out as
    ``kernel.playout`` with no move does, and refuses a seat the table has not."""
    rules = Rules(preset(name), 4)
    rng = random.Random(8)
    styles = [PLAIN, *TUNED.values()]
    for d, _ in positions(rules, rng, 0.1, deals=2):
        state = kernel.state(d)
        plays = [(rng.randrange(4), rng.choice(styles)) for _ in range(6)]
        assert kernel.playouts(rules, state, plays) == [
            kernel.playout(rules, state, kernel.NO_MOVE, seat, style) for seat, style in plays]
    with pytest.raises(ValueError, match="no seat 4"):
        kernel.playouts(rules, state, [(4, PLAIN)])


@pytest.mark.parametrize("name", ["school-scum", "classic"])
def test_random_seats_play_at_random_from_the_seed(name):
    """``random_seats`` (montecarlo's ``random_below``): those seats draw a legal move from
    the seed, so one seed plays one line and other seeds other lines; without them the
    playout is the heuristic's whatever the seed."""
    rules = Rules(preset(name), 4)
    rng = random.Random(9)
    varied = 0
    for d, _ in positions(rules, rng, 0.1, deals=2):
        state = kernel.state(d)
        others = sum(1 << s for s in range(4) if s != d.turn)
        plain = kernel.playout(rules, state, kernel.NO_MOVE, d.turn)
        assert all(kernel.playout(rules, state, kernel.NO_MOVE, d.turn, seed=seed) == plain
                   for seed in range(5))
        drawn = [kernel.playout(rules, state, kernel.NO_MOVE, d.turn, seed=seed,
                                random_seats=others) for seed in range(12)]
        assert drawn == [kernel.playout(rules, state, kernel.NO_MOVE, d.turn, seed=seed,
                                        random_seats=others) for seed in range(12)]
        varied += len(set(drawn)) > 1
    assert varied >= 3


def looking_playout(d: Deal, seat: int, style, looks: int) -> float:
    """The kernel's playout with look-ahead, on the engine: at ``seat``'s first ``looks``
    decisions with a choice each of the first 24 legal moves is played out and the best kept
    (the policy's move on ties)."""
    while looks and not d.over and d.active >> seat & 1:
        legal = d.legal_moves()
        pick = heuristic_policy(d, legal, 0, None, style if d.turn == seat else PLAIN)
        if d.turn == seat and len(legal) > 1:
            looks -= 1

            def value(move):
                after = d.copy()
                after.apply(move)
                return playout(after, seat, None, heuristic_policy, style)

            best = value(pick)
            for move in legal[:24]:
                if move is not pick and (v := value(move)) > best:
                    best, pick = v, move
        d.apply(pick)
    return playout(d, seat, None, heuristic_policy, style)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_kernel_playouts_that_look_ahead_end_as_the_engines(name):
    """With ``looks``, the seat's own later decisions try each move: the kernel's playout
    scores what the same look-ahead on the engine scores, and never less than the plain
    playout from the same position (the policy's move is one of those tried)."""
    rules = Rules(preset(name), 4)
    style = TUNED.get(name, PLAIN)
    rng = random.Random(11)
    played = better = 0
    for d, legal in positions(rules, rng, 0.15):
        state = kernel.state(d)
        for move in legal[:6]:
            after = d.copy()
            after.apply(move)
            expected = looking_playout(after, d.turn, style, 2)
            code = kernel.move(rules, move)
            assert kernel.playout(rules, state, code, d.turn, style, 2) == expected
            plain = kernel.playout(rules, state, code, d.turn, style)
            assert expected >= plain
            better += expected > plain
            played += 1
    assert played >= 20
    assert better  # looking ahead finds better later moves than the policy somewhere


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_montecarlo_with_the_kernel_plays_legal_moves_and_the_same_ones(name):
    """montecarlo with ``kernel=1`` plays legal moves (its seat raises on any other), the same
    moves again for the same seed, and (without the exact endgame) the same moves as without
    the kernel: its playouts score the same."""

    def moves(spec, seed):
        rules = Rules(preset(name), 4)
        game = Game(rules, dealer=0, scoring=None)
        log = GameLog()
        bots = [make_bot(spec, seed=seed)] + [HeuristicBot() for _ in range(3)]
        seats = [BotDecider(b, s, log, game) for s, b in enumerate(bots)]
        record = selfplay.play_deal(game, seats, random.Random(seed))
        assert not seats[0].stats.faults
        return [(s, engine_key(m)) for s, m in record.moves]

    with_kernel = moves("montecarlo:playouts=16,kernel=1", 3)
    assert with_kernel == moves("montecarlo:playouts=16,kernel=1", 3)
    # the exact endgame and looking ahead are the kernel's only: without them the moves are the
    # Python playouts'
    assert moves("montecarlo:playouts=16,kernel=1,endgame=0,looks=0", 3) == moves(
        "montecarlo:playouts=16,kernel=0", 3)


def test_montecarlo_with_the_kernel_falls_back_where_it_does_not_play():
    """Blind piles (friday's two-player option) are not in the kernel: the playouts run in
    Python and the bot still plays a legal game."""
    rules = Rules(preset("friday", blind=True), 2)
    assert not kernel.supports(rules)
    game = Game(rules, dealer=0, scoring=None)
    log = GameLog()
    bots = [make_bot("montecarlo:playouts=8,kernel=1", seed=1), HeuristicBot()]
    seats = [BotDecider(b, s, log, game) for s, b in enumerate(bots)]
    record = selfplay.play_deal(game, seats, random.Random(1))
    assert record.finished and not seats[0].stats.faults


def test_the_kernel_plays_only_the_heuristic_policy():
    """The ``fast`` policy's playouts stay in Python, kernel or not."""
    assert MonteCarloBot(policy="fast").fast(Rules(preset("classic"), 4)) is None
    assert MonteCarloBot().fast(Rules(preset("classic"), 4)) is kernel


# --- checked, not trusted: the engine's move-tree counts, its constants, what is refused ----

def kernel_perft(rules: Rules, state: bytes, depth: int, leaves: Counter) -> int:
    """``test_perft.perft`` on the kernel's moves and states."""
    moves = kernel.legal(rules, state) if depth else []
    if not moves:  # the depth is reached or the deal is over
        view = kernel.view(rules, state)
        if view["mode"]:
            leaves[MODE_NAMES[view["mode"]]] += 1
        if view["direction"] == CCW:
            leaves["ccw"] += 1
        return 1
    return sum(kernel_perft(rules, kernel.apply(rules, state, m), depth - 1, leaves)
               for m in moves)


@pytest.mark.parametrize(("name", "seed", "moves", "counts", "special"), TREES)
def test_the_kernel_counts_the_engines_move_trees(name, seed, moves, counts, special):
    """tests/engine/test_perft.py's trees of every preset, counted through the kernel."""
    deal = position(name, seed, moves)
    state = kernel.state(deal)
    leaves = Counter()
    found = [kernel_perft(deal.rules, state, depth,
                          leaves if depth == len(counts) else Counter())
             for depth in range(1, len(counts) + 1)]
    assert found == counts
    assert dict(leaves) == special


def sampled_rules(rng: random.Random, count: int):
    """``count`` rulesets of a random preset with random values of the options it takes (the
    ones the kernel plays), each one the engine accepts at a table of 3 to 6."""
    found = []
    while len(found) < count:
        name = rng.choice(PRESET_NAMES)
        overrides = {option: (rng.random() < 0.5 if spec.kind is bool
                              else rng.randint(spec.least, spec.most))
                     for option, spec in OPTIONS.items()
                     if spec.kernel and spec.taken_by(name) and rng.random() < 0.4}
        try:
            found.append(Rules(preset(name, **overrides), rng.randint(3, 6)))
        except OptionsError:
            continue
    return found


def test_the_kernel_counts_the_engines_move_trees_under_sampled_options():
    """From positions of deals under sampled option values, the kernel's move trees are the
    engine's, leaf for leaf (the trick's mode, the direction), to depth 3 or the first depth
    past 2,000 sequences (wide packs: three decks, six jokers)."""
    rng = random.Random(27)
    compared = 0
    for rules in sampled_rules(rng, 40):
        d = selfplay.fresh_deal(rules, rng)
        for _ in range(2):  # the deal's first lead, then a position some moves on
            for depth in (1, 2, 3):
                leaves, kernel_leaves = Counter(), Counter()
                count = perft(d, depth, leaves)
                assert kernel_perft(rules, kernel.state(d), depth, kernel_leaves) == count, (
                    rules.options.overrides(), rules.players, depth)
                assert kernel_leaves == leaves
                if count > 2000:
                    break
            for _ in range(rng.randint(4, 16)):
                if d.over:
                    break
                legal = d.legal_moves()
                d.apply(legal[rng.randrange(len(legal))])
            compared += 1
    assert compared == 80


def test_every_option_is_played_by_the_kernel_or_refused():
    """Each field of the engine's Options reaches the kernel, by name as a flag or through the
    engine's Rules (the deck, ranks and count rule), or is refused at any value but its
    default (OPTIONS' ``kernel``), or does not touch a deal's play: a new field fails here
    until it is one of these."""
    through_rules = {"decks", "jokers", "two_high", "jokers_wild", "presidents_deck",
                     "count_rule", "max_play"}
    outside_play = {"preset", "lead", "exchange", "scum_deals_next", "scum_name",
                    "vice_scum_name"}
    refused = {name for name, spec in OPTIONS.items() if not spec.kernel}
    flags = set(build.FLAGS) - {"jokers_on_top"}
    assert {f.name for f in fields(Options)} == flags | through_rules | outside_play | refused
    assert set(build.COUNT_RULES.values()) == {PRESETS[name].count_rule for name in PRESETS}


def test_the_kernel_is_built_from_the_engines_constants():
    """_kernel.c types none of the constants build.py writes from the engine, and a kernel
    built from other constants (one engine value changed) would not import."""
    source = (Path(kernel.__file__).parent / "_kernel.c").read_text()
    written = re.findall(r"^#define (\w+)", build.header(), re.MULTILINE)
    assert "KING" in written and "RULE_FLAGS" in written
    assert not [name for name in written if re.search(rf"#define {name}\b|\b{name},? *=",
                                                      source)]
    assert kernel._kernel.ENGINE_DIGEST == build.digest()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cards, "KING", 12)
        assert build.digest() != kernel._kernel.ENGINE_DIGEST


@pytest.mark.usefixtures("toy_option")
def test_an_option_the_kernel_does_not_play_sends_montecarlo_to_python():
    """A new option turned on by a season's override: the kernel refuses the rules, and
    montecarlo with ``kernel=1`` plays the moves of its Python playouts (no exact endgame,
    no looking ahead), where before the kernel played on, ignoring the option."""
    rules = Rules(preset("friday", toy_rule=True), 4)
    assert not kernel.supports(rules)
    assert kernel.refused(rules) == ["toy_rule"]
    assert kernel.supports(Rules(preset("friday"), 4))
    assert MonteCarloBot().fast(rules) is None

    def moves(spec):
        game = Game(rules, dealer=0, scoring=None)
        log = GameLog()
        bots = [make_bot(spec, seed=3)] + [HeuristicBot() for _ in range(3)]
        seats = [BotDecider(b, s, log, game) for s, b in enumerate(bots)]
        record = selfplay.play_deal(game, seats, random.Random(3))
        assert record.finished and not seats[0].stats.faults
        return [(s, engine_key(m)) for s, m in record.moves]

    assert moves("montecarlo:playouts=16,kernel=1") == moves("montecarlo:playouts=16,kernel=0")


@pytest.mark.usefixtures("toy_option")
def test_an_option_the_inference_does_not_know_turns_the_reading_off():
    """montecarlo reads the other seats' moves (inference.py) only under rules it knows: a
    new option turned on makes it sample hands without the reading."""
    assert inference.readable(Rules(preset("school-scum"), 4))
    rules = Rules(preset("school-scum", toy_rule=True), 4)
    assert not inference.readable(rules)


def test_the_kernel_shuffles_with_the_same_draws_as_python():
    """The kernel's shuffle draws from the generator as ``random.Random.shuffle`` does: the
    same order, the generator left in the same state."""
    source = random.Random(11)
    for seed in range(50):
        python, fast = random.Random(seed), random.Random(seed)
        pool = source.sample(range(68), source.randrange(1, 60))
        theirs = pool[:]
        python.shuffle(pool)
        kernel.shuffle(fast, theirs)
        assert theirs == pool
        assert python.getstate() == fast.getstate()


@pytest.mark.parametrize("name", ["school-scum", "classic"])
def test_the_kernel_deals_the_worlds_montecarlo_deals_in_python(name):
    """montecarlo's dealer in the kernel deals the very worlds of the Python dealer (shuffle,
    the cards it gave kept with their receiver, dealing around the banned cards, the first
    world of ``infer`` tries that keeps to the constraints) from the same generator, which it
    leaves in the same state: so the same moves at fixed playouts."""
    from tests.bots.test_montecarlo import _play_spied

    dealt = Counter()

    def check(obs, deal):
        found = inference.constraints(obs)
        if not found:
            return
        rng = random.Random(len(obs.moves))
        gave = {}
        if rng.random() < 0.5:  # as if this seat had given a card still unseen
            seat = rng.choice([s for s in range(4) if s != obs.seat and obs.held[s]])
            gave = {seat: [rng.choice(cards.mask_cards(deal.hands[seat]))]}
        view = dataclasses.replace(obs, gave=gave)
        worlds = []
        for fast in (0, 1):
            bot = MonteCarloBot(seed=len(obs.moves), kernel=fast)
            deal_one = bot.dealer(view, found)
            worlds.append(([deal_one() for _ in range(3)], bot.rng.getstate()))
        assert worlds[0] == worlds[1], obs.moves
        dealt[bool(gave)] += 1

    for seed in range(3):
        _play_spied(name, seed, check)
    assert dealt[True] > 5 and dealt[False] > 5


@pytest.mark.parametrize("name", ["school-scum", "classic"])
def test_the_kernel_counts_the_constraints_a_world_breaks_as_inference_does(name):
    """montecarlo counts the inference constraints a dealt world breaks in the kernel: the
    same weight as ``inference.violations``, for each kind of constraint, on dealt worlds, with
    each constraint weighing 1 and weighing its seat's fit below 1."""
    from tests.bots.test_montecarlo import _play_spied

    kinds = Counter()
    counts = Counter()

    def check(obs, deal):
        found = inference.constraints(obs)
        if not found:
            return
        kinds.update(c.kind for c in found)
        bot = MonteCarloBot(seed=len(obs.moves), kernel=0)
        worlds = [deal.hands] + [bot.sample(obs)[0] for _ in range(4)]
        for fit in (None, lambda seat: (1 + seat % 3) / 4):
            if fit:
                for c in found:
                    c.weight = fit(c.seat)
            packed = kernel.constraints(found)
            for world in worlds:
                broken = inference.violations(found, world)
                assert kernel.violations(packed, world) == broken, obs.moves
                counts[broken > 0] += 1

    for seed in range(3):
        _play_spied(name, seed, check)
    assert min(kinds[k] for k in (0, 1, 2)) > 0
    assert counts[True] > 40 and counts[False] > 40


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_state_with_other_hands_is_the_state_of_the_deal_with_them(name):
    """montecarlo puts each world's hands into one state of the table (``with_hands``): the
    same state as the kernel's of a deal that differs only in its hands and their counts."""
    rules = Rules(preset(name), 4)
    rng = random.Random(5)
    for _ in range(10):
        d = selfplay.fresh_deal(rules, rng)
        for _ in range(rng.randrange(12)):
            if d.over:
                break
            d.apply(rng.choice(d.legal_moves()))
        hands = d.hands[1:] + d.hands[:1]  # other hands, other counts
        other = d.copy()
        other.hands, other.held = hands, [cards.mask_count(h) for h in hands]
        assert kernel.with_hands(rules, kernel.state(d), hands) == kernel.state(other)
        assert kernel.with_hands(rules, kernel.state(d), hands) != kernel.state(d)
