"""``montecarlo``: determinized Monte Carlo search (docs/bots.md has the whole story).

For each decision with a choice it samples the hidden cards consistently with what the seat has
seen (the unseen cards dealt to the other seats and the blind piles by their counts; cards it
gave away in the exchange stay with the seat it gave them to until played) and with what the
other seats chose: ``inference.py``'s constraints where they read the rules, else ``chains``
worlds kept through the deal in which every earlier choice of theirs is the one a heuristic
player would have made with those cards (``worlds.py``).  It plays every candidate out in the
same world with the heuristic policy and keeps the best mean finish; where a style tuned for
the preset is known (``TUNED``) its own later moves follow that style, whose choice wins unless
another beats it by ``lean``.  Its knobs are one ``SearchConfig``.
"""

import functools
import json
import random
import time
import warnings
from collections import Counter
from dataclasses import dataclass, fields
from pathlib import Path

from gameplay.bots import cardset as C
from gameplay.bots import giving, inference
from gameplay.bots.heuristic import PLAIN, HeuristicBot, Style, control_at, heuristic_move
from gameplay.bots.observation import Observation
from gameplay.bots.worlds import History, Worlds
from gameplay.engine.deal import CCW, CW, Deal
from gameplay.engine.plays import BLIND, BOMB, LONE_DOPPELGANGER, PASS

PLAYOUT_MOVES = 2000  # a playout never runs longer than this (a deal ends far sooner)
# Fixed parts of the search (bench/README.md has the measurements):
SETTLE = 200  # swaps tried at most to bring a followed world to one the history allows (not
# measured on its own)
# The exact endgame is tried from this many cards held by the two players left: within 20000
# nodes it settled every two-player position of 16 cards or fewer on every preset, 59–93% of
# those of 17–20 and 4–58% of those of 21–24 (``bench/endgame.py --deals 20 --seed 1``).
ENDGAME_CARDS = 20

# Styles that beat three plain heuristic players (``python bench/style.py --tune``), by preset.
# Where one is known montecarlo plays its own later moves in it and leans on its choice.
TUNED = {
    "presidents-deck": Style(pass_jump=8, endgame_margin=5, controls_below_top=1, lead_big=3),
    "wild-jokers": Style(endgame_margin=5, split_total=13),
}

# Presets whose playouts look ahead less than SearchConfig's 3 (``looks``).  school-scum's
# looks are dear (two decks, wild jokers: 1,202 playouts a decision in 50 ms with them, 3,013
# without), and without them it plays better in the same time: three heuristic bots, 50 ms,
# 400 duplicate deals, seed 11, looks 3 → 0: first-out 0.445 → 0.500, last place 0.095 →
# 0.045, mean place 1.950 → 1.722.
LOOKS = {"school-scum": 0}


@dataclass(frozen=True)
class SearchConfig:
    """montecarlo's settings (bot spec ``montecarlo:key=value,…``).  Each default is the one
    the measurement beside it chose; bench/README.md has the commands."""

    # Time per decision.  Decisions bench, presidents-deck, 100 deals: 50 / 100 / 200 ms gave a
    # mean true value of 0.594 / 0.601 / 0.612, about a point per doubling; 50 ms plays at
    # 30–39 ms per decision on average (forced moves take none).
    budget_ms: float = 50
    # A fixed number of playouts instead of the clock: reproducible games from the seed
    # (tests and bench/search.py's digests use it).
    playouts: int | None = None
    # Worlds kept through a deal, taken in turn.  Decisions bench, 898 decisions: 1 / 4 / 8
    # chains 0.614 / 0.627 / 0.627; 50 ms, 800 deals: presidents-deck first-out 0.354 → 0.374.
    chains: int = 4
    # Swaps tried between the worlds one decision plays out (0: no history walk).  2,000
    # duplicate deals, first-out without → with the walk: friday 0.341 → 0.366, modern
    # 0.428 → 0.458, wild-jokers 0.311 → 0.362, presidents-deck 0.314 → 0.333; 30 swaps were
    # within noise of 10.  (school-scum and classic use inference instead: 0.373 against 0.312.)
    walk: int = 10
    # Tries per sampled world to meet inference.py's constraints (0: no inference).  classic,
    # 200 playouts, 400 deals: first-out 0.313 without, 0.363 with 20 tries, 0.375 with 6 at
    # 23.6 ms per decision instead of 30.7.
    infer: int = 6
    # Play its own later moves in the preset's TUNED style.  presidents-deck, 2,000 deals:
    # first-out 0.333 → 0.344; wild-jokers, 800 deals: 0.370 → 0.386.
    tuned: bool = True
    # How much better in mean finish another move must be than the tuned style's choice.
    # presidents-deck, 800 deals: 0.08 / 0.15 / 0.25 gave first-out 0.315 / 0.354 / 0.344.
    lean: float = 0.15
    # The playout policy.  presidents-deck, 200 playouts, 200 deals: first-out 0.215 with
    # ``fast`` (lowest play keeping controls and groups), 0.325 with ``heuristic``.
    # ``learned`` (kernel only): its own later moves drawn from the softmax of LEARNED's
    # weights for the preset, the other seats' heuristic; ``learned_all``: every seat's
    # learned.  The heuristic where no weights were trained for the preset.
    policy: str = "heuristic"
    # Play the heuristic policy's playouts in the C kernel (gameplay/bots/kernel/, built by
    # `make kernel`): the same playouts, so the same moves at fixed playouts, many times faster
    # (bench/kernel.py).  Decisions bench, 50 ms, 40 deals: mean true value without → with
    # classic 0.598 → 0.604, presidents-deck 0.533 → 0.563.
    kernel: bool = True
    # The candidates: pass, the heuristic's choice, the ``keep`` lowest plays and the extras.
    keep: int = 5
    # After 4 worlds drop candidates more than ``halving``·√worlds behind the best (0: never).
    halving: float = 0.8
    # In the kernel's playouts its own first ``looks`` later decisions with a choice try each
    # move (the first 24) with a plain playout and keep the best: the policy alone plays them
    # worse than the search would.  Heuristic table, fixed playouts, mean position 0 → 3 or 4
    # looks: classic 1.955 → 1.868 (300 playouts, 400 deals), presidents-deck 1.975 → 1.935
    # (300, 400), school-scum 1.890 → 1.883 (200, 300); 10–25% more time per playout; at
    # 50 ms on classic (400 deals, a loaded machine) 2.005 → 1.968.  None: the preset's
    # (LOOKS), else 3.
    looks: int | None = None
    # The exact endgame (kernel only): with two players left holding ENDGAME_CARDS or fewer
    # and every card known, the node limit of a win/loss search over both players' moves; a
    # winning move found is played, else the search goes on as usual (0: off).  100 playouts,
    # 400 deals against three heuristic bots: last place school-scum 0.125 → 0.115,
    # wild-jokers 0.115 → 0.110, modern 0.080 → 0.0775, the other three unchanged; 26–445
    # nodes a search.  Two seats, classic, 200 deals: unchanged, 29 of 908 not settled.
    endgame: int = 20000
    # Choose the give-back (and seed 004's asks) by search over the coming deal (giving.py;
    # with the kernel only: a whole deal per playout is too slow in Python).  presidents-deck,
    # 100 playouts: 400 whole games, game wins 0.492 with and without; deals after giving,
    # paired (bench/giving.py): +0.017 [-0.015, 0.049] in mean finish.  No gain shows: off.
    exchange: bool = False
    # Time where it matters: a decision it does not search (one legal move, going out, a won
    # endgame) or that settles early (one candidate left alive) saves the rest of its budget
    # for the deal's later decisions, and a decision still open at its budget (two candidates
    # or more alive) goes on for up to ``bank`` budgets more from what is saved (0: off; each
    # decision then spends its whole budget, as before).  Three heuristic bots, 200 playouts,
    # 800 duplicate deals, seed 11, bank 0 → 2: classic first-out 0.419 → 0.416, mean place
    # 1.915 → 1.913 (201 → 263 playouts a searched decision); presidents-deck 0.388 → 0.398,
    # 2.007 → 1.989 (201 → 211).  Within noise: off.
    bank: float = 0
    # A seat whose reading (inference.py) explains under this share of its moves (its fit)
    # plays a random legal move in the playouts, as the ``random`` bot does, instead of the
    # heuristic's (0: every seat plays the heuristic's).  Heuristic seats keep fit 1, so a
    # table of them plays exactly as before; greedy seats fall under 1 in about 43% of
    # school-scum's readings, random ones in 65%.  Mean place, 0 → 1, heuristic, greedy and
    # random opponents: school-scum 250 playouts, 480 deals, seed 12, 2.100 → 2.008 (the
    # heuristic bot's 1.840 → 1.929); 100 playouts, seed 11, 1.977 → 1.925; three greedy,
    # 2.042 → 2.033; classic, 200 playouts, 1.694 → 1.683; against three montecarlo bots
    # without it, classic 100 playouts 2.438 → 2.442 and school-scum 60 playouts 2.525 →
    # 2.513 (400 and 240 deals).  Only where inference reads the rules (school-scum,
    # classic); the kernel's playouts only.
    random_below: float = 1
    # Where the walk reads the moves (presidents-deck and the rest): a seat whose moves the
    # best of the worlds still breaks at this share or more (over 4 of its choices or more) is
    # read as a random player for the rest of the deal: its moves no longer shape the worlds
    # and it plays at random in the playouts (0: off).  presidents-deck, at montecarlo's
    # decisions the best worlds break on average 0.49 of a random player's choices so far,
    # 0.14 of spender's, 0.13 of greedy's, 0.06 of hoarder's, 0.01 of heuristic's; 0.4 or more
    # at 73%, 3%, 2%, 4% and none of those decisions.  50 ms, 600 duplicate deals, mean place
    # 0 → 0.4 (lead over the best opponent): random, spender, hoarder 1.968 → 1.868 (0.14 →
    # 0.26); heuristic, greedy, random 1.860 → 1.738 (0.24 → 0.44); greedy, random, spender
    # 1.852 → 1.723 (0.27 → 0.45); heuristic, random, spender 1.915 → 1.815 (0.23 → 0.36);
    # greedy, spender, hoarder 2.100 → 2.135 (0.35 → 0.34); three heuristic: the same moves.
    strange: float = 0.4

    def __post_init__(self):
        if self.bank < 0:
            raise ValueError(f"bank is at least 0, not {self.bank}")
        if self.chains < 1:
            raise ValueError(f"chains is at least 1, not {self.chains}")
        if self.policy not in PLAYOUT_POLICIES:
            raise ValueError(f"policy is one of {', '.join(PLAYOUT_POLICIES)}, "
                             f"not {self.policy!r}")

    @classmethod
    def of(cls, settings: dict) -> "SearchConfig":
        """The config for a spec's settings, naming any it does not know."""
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(settings) - set(known))
        if unknown:
            raise ValueError(f"montecarlo has no setting {', '.join(unknown)}; its settings "
                             f"are {', '.join(known)}")
        return cls(**settings)


@functools.cache
def _kernel():
    """The playout kernel, or None where it is not built (an installed kit without a C
    compiler, docs/kit.md): the same playouts in Python, many times slower, said once."""
    try:
        from gameplay.bots import kernel
    except ImportError as error:
        warnings.warn(f"montecarlo plays its playouts in Python: {error}", stacklevel=3)
        return None
    return kernel


class MonteCarloBot(HeuristicBot):
    name = "montecarlo"

    def __init__(self, seed: int = 0, config: SearchConfig | None = None, **settings):
        self.config = config if config is not None else SearchConfig.of(settings)
        self.rng = random.Random(seed)
        self.searches = self.playouts_run = 0  # decisions searched and their playouts (figures)
        self.endgames = Counter()  # exact endgames searched, their results and nodes (figures)
        # kept from decision to decision through a deal; rounds take them in turn
        self.chains = [Worlds(self.rng) for _ in range(self.config.chains)]
        self.policy = PLAYOUT_POLICIES[self.config.policy]
        self._asked: dict[int, list[str]] = {}  # seed 004: this deal's asks, chosen at the first
        self.kernel = None
        self.saved = (-1, 0.0)  # the deal and the budgets saved in it (config.bank)
        self.strangers = (-1, 0)  # the deal and its seats read as random players (strange)
        self._fast = (None, None)  # fast()'s last rules and answer
        self._learned = (None, None)  # learned()'s last rules and answer
        self._unseen = (None, [])  # sample()'s last unseen cards, as a mask and listed
        if self.config.kernel and self.config.policy in KERNEL_POLICIES:
            self.kernel = _kernel()

    def fast(self, rules):
        """The kernel where it plays these rules, else None (playouts in Python)."""
        if rules is not self._fast[0]:  # asked for every world dealt: the last answer is kept
            self._fast = (rules, self.kernel if self.kernel is not None
                          and self.kernel.supports(rules) else None)
        return self._fast[1]

    def play(self, obs, legal):
        started = time.perf_counter()
        extra = self.bank_take(obs)
        move, done = self.search(obs, legal, started, extra)
        self.bank_keep(obs, started, done)
        return move

    def bank_take(self, obs) -> float:
        """The budgets this decision may spend beyond its own (config.bank)."""
        deal, saved = self.saved
        if deal != obs.deal_number:
            self.saved = (obs.deal_number, 0.0)
            return 0.0
        return min(saved, self.config.bank)

    def bank_keep(self, obs, started: float, done: int | None) -> None:
        """Add what the decision left of its budget (``done`` playouts, None: not searched)
        to the deal's savings, or take off what it spent beyond it."""
        if not self.config.bank:
            return
        config = self.config
        if done is None:
            used = 0.0
        elif config.playouts is not None:
            used = done / config.playouts
        else:
            used = (time.perf_counter() - started) * 1000 / config.budget_ms
        self.saved = (obs.deal_number, max(0.0, self.saved[1] + 1 - used))

    def search(self, obs, legal, started: float, extra: float):
        """The move, and the playouts it took (None: no search)."""
        if len(legal) == 1:
            return legal[0], None
        deadline = started + self.config.budget_ms / 1000  # the endgame's time counts
        rules = obs.rules
        style = self.style(rules)
        prior = heuristic_move(rules, obs, legal, style)
        candidates = self.candidates(obs, legal, prior)
        total = obs.held[obs.seat]
        for p in candidates:  # going out cannot be bettered
            if (p is not PASS and p is not BLIND and p.count == total
                    and not obs.blind_held[obs.seat] and p.kind != LONE_DOPPELGANGER):
                return p, None
        won = self.solved(obs, legal) if self.config.endgame else None
        if won is not None:
            return won, None
        n = len(candidates)
        fast = self.fast(rules)
        if fast is not None:
            moves = [fast.move(rules, c) for c in candidates]
            table = fast.state(obs.deal_with([0] * obs.players))  # each world's hands go in
        sums = [0.0] * n
        alive = list(range(n))
        runs = done = 0
        config = self.config
        found = inference.constraints(obs) if config.infer else []
        strangers = self.random_seats(found)
        if fast is not None:  # what each playout of this decision is played with
            weights, looks = self.learned(rules), self.looks(rules)
            every_seat = config.policy == "learned_all"
        deal = self.dealer(obs, found)
        # where inference.py reads the rules, its independently dealt worlds measured better
        # than the walk (school-scum first-out 0.373 against 0.312); the walk reads the rest
        walking = (config.walk and not any(obs.blind_held)
                   and not (config.infer and inference.readable(rules)))
        if walking:
            history = History(obs, self.chains[0].history, fast)
            strange = self.strangers[1] if self.strangers[0] == obs.deal_number else 0
            history.forget(strange)
            # settling takes at most half the budget (fixed playouts ignore the clock)
            settled_by = time.perf_counter() + config.budget_ms / 2000
            for worlds in self.chains:
                worlds.follow(obs, history, deal)
                for _ in range(0, SETTLE, config.walk):
                    if worlds.consistent or (config.playouts is None
                                             and time.perf_counter() > settled_by):
                        break
                    worlds.walk(config.walk)
            if config.strange:
                strange |= self.strange_seats(history)
                history.forget(strange)
                for worlds in self.chains:
                    worlds.forget(strange)
                self.strangers = (obs.deal_number, strange)
                strangers |= strange
        while True:
            if walking:
                worlds = self.chains[runs % len(self.chains)]
                hands = worlds.walk(config.walk)[:obs.players]
                hands[obs.seat] = obs.hand
                blind = None
            else:
                hands, blind = deal()
            if fast is not None:
                world = fast.with_hands(rules, table, hands)
                draws = self.rng.getrandbits(64) if weights is not None or strangers else 0
                for i in alive:  # one world (and the same draws) for all: common random numbers
                    sums[i] += fast.playout(rules, world, moves[i], obs.seat, style, looks,
                                            weights, draws, every_seat, strangers)
            else:
                base = obs.deal_with(hands, blind)
                for i in alive:
                    d = base.copy()
                    d.apply(candidates[i])
                    sums[i] += playout(d, obs.seat, self.rng, self.policy, style)
            runs += 1
            done += len(alive)
            if config.halving and runs >= 4 and len(alive) > 1:
                # drop candidates clearly behind the best so far: more worlds for the rest
                top = max(sums[i] for i in alive)
                margin = config.halving * runs ** 0.5
                alive = [i for i in alive if sums[i] >= top - margin]
            if config.bank and len(alive) == 1:
                break  # settled: the rest of the budget is saved
            if self.spent(done, deadline, extra if len(alive) > 1 else 0.0):
                break
        self.searches += 1
        self.playouts_run += done
        # the heuristic's choice wins ties and near-ties: within half a playout for the plain
        # style's, within ``lean`` of the mean finish for a tuned style's
        bonus = 0.5 if style is PLAIN else config.lean * runs
        best = max(alive, key=lambda i: (sums[i] + (bonus if candidates[i] is prior else 0), -i))
        return candidates[best], done

    def give_back(self, obs, count, allowed):
        prior = super().give_back(obs, count, allowed)
        if not self.config.exchange or self.fast(obs.rules) is None:
            return prior
        return giving.give_back(self, obs, count, allowed, prior, self._asked.get(
            obs.deal_number, []), self.play_out)

    def ask(self, obs, index):
        if not self.config.exchange or self.fast(obs.rules) is None:
            return super().ask(obs, index)
        if index == 0 or obs.deal_number not in self._asked:
            self._asked = {obs.deal_number: giving.asks(self, obs, self.play_out) or []}
        asked = self._asked[obs.deal_number]
        return asked[index] if index < len(asked) else super().ask(obs, index)

    def play_out(self, deal, seat: int) -> float:
        """One kernel playout of ``deal`` from its start for ``seat`` (the exchange search)."""
        fast = self.fast(deal.rules)
        return fast.playout(deal.rules, fast.state(deal), fast.NO_MOVE, seat,
                            self.style(deal.rules))

    def figures(self) -> dict[str, int]:
        return {"searches": self.searches, "playouts": self.playouts_run, **self.endgames}

    def solved(self, obs, legal):
        """The exact endgame's winning move when two players are left, holding ENDGAME_CARDS or
        fewer, and the other's hand is exactly the unseen cards (nothing in blind piles), else
        None."""
        fast = self.fast(obs.rules)
        if fast is None or len(obs.active) != 2 or any(obs.blind_held):
            return None
        other = obs.active[0] if obs.active[1] == obs.seat else obs.active[1]
        unseen = obs.unseen()
        if (C.mask_count(unseen) != obs.held[other]
                or obs.held[obs.seat] + obs.held[other] > ENDGAME_CARDS):
            return None
        hands = [0] * obs.players
        hands[obs.seat], hands[other] = obs.hand, unseen
        state = fast.state(obs.deal_with(hands))
        result, code, nodes = fast.solve(obs.rules, state, self.config.endgame)
        outcome = {fast.WON: "won", fast.LOST: "lost", fast.UNKNOWN: "unknown"}[result]
        self.endgames.update({"endgames": 1, "endgames_" + outcome: 1, "endgame_nodes": nodes})
        if result != fast.WON:
            return None
        # by its place: the kernel lists the legal moves in the engine's order, and with two
        # decks a play can have two codes (the kernel's own and the one fast.move packs)
        return legal[fast.legal(obs.rules, state).index(code)]

    def random_seats(self, found) -> int:
        """The seats whose fit (``found``'s weights) is under ``random_below``, a bit each:
        the playouts play them at random."""
        fits = {c.seat: c.weight for c in found}
        return sum(1 << seat for seat, fit in fits.items() if fit < self.config.random_below)

    def strange_seats(self, history) -> int:
        """The seats whose moves every world still breaks at ``strange``'s share or more (4
        of their choices or more), a bit each."""
        found = 0
        for seat, positions in enumerate(history.positions):
            if len(positions) >= 4 and min(w.bad[seat] for w in self.chains) >= (
                    self.config.strange * len(positions)):
                found |= 1 << seat
        return found

    def learned(self, rules) -> bytes | None:
        """The learned policy's packed weights for ``rules``'s preset, or None: the heuristic
        policy (not asked for, or none trained for the preset)."""
        if rules is not self._learned[0]:  # asked for every world: the last answer is kept
            weights = (learned_weights().get(rules.options.preset)
                       if self.config.policy.startswith("learned") else None)
            self._learned = (rules, None if weights is None else self.kernel.packed(weights))
        return self._learned[1]

    def looks(self, rules) -> int:
        """Its own later decisions a playout looks ahead at (``looks``, else the preset's)."""
        if self.config.looks is not None:
            return self.config.looks
        return LOOKS.get(rules.options.preset, 3)

    def style(self, rules) -> Style:
        """How it expects to play its own later moves."""
        return TUNED.get(rules.options.preset, PLAIN) if self.config.tuned else PLAIN

    def spent(self, done: int, deadline: float, extra: float = 0.0) -> bool:
        """The search stops after ``playouts`` when fixed, else at the deadline, each ``extra``
        budgets later."""
        if self.config.playouts is not None:
            return done >= self.config.playouts * (1 + extra)
        return time.perf_counter() >= deadline + extra * self.config.budget_ms / 1000

    def lead_and_direction(self, obs, names_leader):
        """Seed 004's dealer names the first leader and the direction: each choice is played
        out on the same sampled deals and the best mean finish is kept (ties: lead, clockwise).
        Where the leader is fixed the direction is left clockwise."""
        if not names_leader:
            return None, CW
        choices = [(obs.seat, CW), (obs.seat, CCW)]
        choices += [(s, d) for s in range(obs.players) if s != obs.seat and obs.held[s]
                    for d in (CW, CCW)]
        sums = [0.0] * len(choices)
        sums[0] = 0.5  # the plain choice wins ties and near-ties
        style = self.style(obs.rules)
        fast = self.fast(obs.rules)
        deadline = time.perf_counter() + self.config.budget_ms / 1000
        done = 0
        while True:
            hands, blind = self.sample(obs)
            for i, (leader, direction) in enumerate(choices):
                d = Deal(obs.rules, hands, leader=leader, direction=direction, blind=blind)
                if fast is not None:
                    sums[i] += fast.playout(obs.rules, fast.state(d), fast.NO_MOVE, obs.seat,
                                            style)
                else:
                    sums[i] += playout(d, obs.seat, self.rng, self.policy, style)
            done += len(choices)
            if self.spent(done, deadline):
                break
        return choices[max(range(len(choices)), key=lambda i: (sums[i], -i))]

    def candidates(self, obs, legal, prior) -> list:
        """The moves worth searching: pass, the heuristic's choice and the lowest few plays
        (a larger root spends the budget on moves no good player considers)."""
        st = obs.strengths()
        plays = [m for m in legal if m is not PASS and m is not BLIND]
        plays.sort(key=lambda p: (p.kind == BOMB, p.wilds, st[p.face] if p.face >= 0 else 0,
                                  -p.count if obs.leading else p.count))
        chosen = [m for m in legal if m is PASS or m is BLIND] + [prior] + plays[:self.config.keep]
        if plays:
            # the cheapest bomb, the cheapest play with wild cards and the highest plain play
            bombs = [p for p in plays if p.kind == BOMB]
            wild = [p for p in plays if p.kind != BOMB and p.wilds]
            plain = [p for p in plays if p.kind != BOMB and not p.wilds]
            chosen += bombs[:1] + wild[:1] + plain[-1:]
        out = []
        for m in chosen:
            if not any(m is o for o in out):
                out.append(m)
        return out

    def dealer(self, obs, found):
        """This decision's dealer: a function that deals a world breaking none of the ``found``
        constraints if one turns up within ``infer`` tries, else the one that breaks the least
        weight of them (each weighs its seat's fit; in the kernel where it plays the rules: the
        same worlds)."""
        if not found:
            return lambda: self.sample(obs)
        banned = inference.forbidden(found, obs.players)
        tries = max(1, self.config.infer)
        fast = self.fast(obs.rules)
        if fast is not None:  # no blind piles: the kernel does not play them
            dealt = fast.dealer(self.rng, C.mask_cards(obs.unseen()),
                                [0 if s == obs.seat else obs.held[s] for s in range(obs.players)],
                                [(s, card) for s, cards in obs.gave.items() for card in cards],
                                banned, found, tries)

            def deal_fast():
                hands = dealt()
                hands[obs.seat] = obs.hand
                return hands, None

            return deal_fast

        def deal():
            best, fewest = None, None
            for _ in range(tries):
                world = self.sample(obs, banned)
                broken = inference.violations(found, world[0])
                if fewest is None or broken < fewest:
                    best, fewest = world, broken
                    if not broken:
                        break
            return best

        return deal

    def sample(self, obs, banned: list[int] | None = None):
        """One determinization: (hands, blind piles) for every seat, this seat's hand as is;
        ``banned`` cards (per seat) go to other seats when the counts allow."""
        rng = self.rng
        players = obs.players
        fast = self.fast(obs.rules)
        unseen = obs.unseen()
        if unseen != self._unseen[0]:
            self._unseen = (unseen, C.mask_cards(unseen))
        pool = self._unseen[1][:]
        if fast is not None:
            fast.shuffle(rng, pool)
        else:
            rng.shuffle(pool)
        hands = [0] * players
        need = [0 if s == obs.seat else obs.held[s] for s in range(players)]
        # cards this seat gave in the exchange are still with their receiver unless played
        for seat, cards in obs.gave.items():
            for card in cards:
                if need[seat] and card in pool:
                    pool.remove(card)
                    hands[seat] += C.unit(card)
                    need[seat] -= 1
        at = 0
        if banned is not None and any(banned) and not any(obs.blind_held):
            self._deal_around(pool, need, hands, banned)
        else:
            for s in range(players):
                if need[s]:
                    hands[s] += C.cards_mask(pool[at:at + need[s]])
                    at += need[s]
        hands[obs.seat] = obs.hand
        blind = None
        if any(obs.blind_held):
            blind = []
            for s in range(players):
                blind.append(tuple(pool[at:at + obs.blind_held[s]]))
                at += obs.blind_held[s]
        return hands, blind

    def _deal_around(self, pool, need, hands, banned):
        """Deal the shuffled ``pool`` by ``need``, each card to a seat allowed to hold it (the
        most constrained cards first), weighted by the room left; a card no seat with room
        may hold goes to any seat with room.  The kernel's dealer deals the same."""
        rng = self.rng
        seats = [s for s in range(len(need)) if need[s]]
        allowed = [[s for s in seats if not C.copies(banned[s], card)] for card in pool]
        order = sorted(range(len(pool)), key=lambda i: len(allowed[i]))
        need = need[:]
        for i in order:
            room = [s for s in allowed[i] if need[s]] or [s for s in seats if need[s]]
            r = rng.randrange(sum(need[s] for s in room))
            for s in room:
                r -= need[s]
                if r < 0:
                    break
            hands[s] += C.unit(pool[i])
            need[s] -= 1


def playout(d, seat: int, rng: random.Random, policy, own: Style = PLAIN) -> float:
    """Play ``d`` to its end with ``policy`` (PLAYOUT_POLICIES) for every seat, ``seat`` in
    the ``own`` style; 1 for ``seat`` out first … 0 for last."""
    rules = d.rules
    n = rules.players
    controls_from = control_at(rules)
    for _ in range(PLAYOUT_MOVES):
        if d.over or not d.active >> seat & 1:
            break
        d.apply(policy(d, d.legal_moves(), controls_from, rng, own if d.turn == seat else PLAIN))
    order = d.finishing_order
    position = order.index(seat) if seat in order else n - 1
    return (n - 1 - position) / (n - 1)


def fast_move(d, legal, control_at: int, rng, style: Style = PLAIN):
    """The playout policy: the lowest play that does not spend a control (2s, jokers, wild
    cards, bombs) or break a group; controls only near the end; go out when possible.  It has
    no styles: ``style`` is taken for the policies' common signature and ignored."""
    st = d.strengths()
    seat = d.turn
    hand = d.hands[seat]
    held = d.held[seat]
    best = None
    best_key = None
    leading = d.last is None
    for m in legal:
        if m is PASS or m is BLIND:
            continue
        if m.count == held and m.kind != LONE_DOPPELGANGER and not (d.blind and d.blind[seat]):
            return m
        if m.kind == BOMB:
            rank, control = 90 + m.count, True
        elif m.face < 0:
            rank, control = 0, False
        else:
            rank = st[m.face] if m.face < len(st) else 0
            control = m.wilds > 0 or rank >= control_at
        natural = C.face_count(hand, m.face) if m.face >= 0 else m.count
        split = m.count - m.wilds < natural
        key = (control, split, rank, -m.count if leading else m.count)
        if best_key is None or key < best_key:
            best, best_key = m, key
    if best is None:
        return BLIND if BLIND in legal else PASS
    if leading:
        return best
    control, split = best_key[0], best_key[1]
    if (control or split) and held > 4:
        # like the heuristic bot: controls only near the end or against a player near out
        others = d.active & ~(1 << seat)
        if min(d.held[s] for s in range(len(d.held)) if others >> s & 1) > 2:
            return PASS
    return best


def heuristic_policy(d, legal, control_at, rng, style: Style = PLAIN):
    """The playout policy that plays like ``heuristic`` (BOTS.md: a policy that matches the
    opponents is worth a lot; on presidents-deck it beat ``fast_move`` by 11 points)."""
    if len(legal) == 1:
        return legal[0]
    return heuristic_move(d.rules, Observation.at(d, d.turn), legal, style)


# learned and learned_all play in the kernel; without it, their Python playouts are the
# heuristic's
PLAYOUT_POLICIES = {"heuristic": heuristic_policy, "fast": fast_move,
                    "learned": heuristic_policy, "learned_all": heuristic_policy}
KERNEL_POLICIES = ("heuristic", "learned", "learned_all")
LEARNED = Path(__file__).with_name("playout_weights.json")


@functools.cache
def learned_weights() -> dict[str, list[float]]:
    """The learned policy's weights by preset (``LEARNED``, written by
    scripts/train_playout_policy.py with how each set was made)."""
    if not LEARNED.exists():
        return {}
    presets = json.loads(LEARNED.read_text())["presets"]
    return {name: entry["weights"] for name, entry in presets.items()}
