"""The match runner: bots play whole games on the engine's driver, with seat rotation and a
duplicate mode, and every game comes back as a checker-valid transcript with its figures.

A *lineup* is one bot spec per player (``["heuristic", "random", "random", "random"]``);
player ``p`` of game ``g`` sits at seat ``(p + g) % players`` (seat rotation).  In duplicate
mode the games go in blocks of ``players``: a block replays the same shuffles with the seats
rotated, so every bot holds every hand and the luck of the deal cancels out.
"""

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from gameplay.bots import make_bot
from gameplay.bots.base import BotDecider, SeatStats
from gameplay.bots.observation import GameLog
from gameplay.engine import selfplay
from gameplay.engine.game import Game
from gameplay.engine.options import Options, from_ruleset, to_ruleset
from gameplay.engine.roles import roles_by_position
from gameplay.engine.ruleset import Rules
from gameplay.engine.scoring import Scoring
from gameplay.engine.transcript import dump
from gameplay.runner import pairing
from gameplay.runner.figures import interval, mean_interval, seed_of, share


@dataclass
class GameResult:
    """One played game: the transcript and what each seat did."""

    transcript: dict
    bots: list[str]  # the bot spec at each seat
    finishing_orders: list[list[int]]  # per deal, seats first-out to last
    scores: list[int] | None
    winners: list[int]  # seats; without scoring, the first out of the (single) deal
    stats: list[SeatStats]
    over: bool = False  # the scoring ended the game (never without scoring)


def play_game(bots: list, options: Options, *, seed: int, scoring: Scoring | None = None,
              dealer: int = 0, names: list[str] | None = None) -> GameResult:
    """Play one game to its end (one deal without ``scoring``) with ``bots`` at seats 0…n-1."""
    players = len(bots)
    rules = Rules(options, players)
    game = Game(rules, dealer=dealer, scoring=scoring)
    log = GameLog()
    seats = [BotDecider(bot, s, log, game) for s, bot in enumerate(bots)]
    try:
        selfplay.play_game(game, seats, random.Random(seed))
        for seat in seats:
            seat.stats.figures = dict(seat.bot.figures())
    finally:
        for bot in bots:
            bot.close()
    orders = [list(r.finishing_order) for r in game.records]
    if game.sheet is not None:
        scores = [game.sheet.totals.get(s, 0) for s in range(players)]
        winners = list(game.sheet.winners)
    else:
        scores, winners = None, [orders[-1][0]]
    return GameResult(transcript=dump(options, players, dealer, scoring, game.records, rules),
                      bots=names or [getattr(b, "name", type(b).__name__) for b in bots],
                      finishing_orders=orders, scores=scores, winners=winners,
                      stats=[s.stats for s in seats], over=game.over)


@dataclass(frozen=True)
class GameSpec:
    """Everything needed to play game ``index`` of a match, picklable for worker processes."""

    lineup: tuple[str, ...]
    ruleset: object  # a transcript ruleset: preset name or {"preset", "options"}
    index: int
    seed: int
    scoring: dict | None = None
    duplicate: bool = False
    programs: tuple = ()  # (name, argv) pairs for local-program bots, from trusted callers

    @property
    def players(self) -> int:
        return len(self.lineup)

    @property
    def deal_seed(self) -> int:
        return seed_of("deals", self.seed, deal_block(self.index, self.players, self.duplicate))

    def seat_of(self, player: int) -> int:
        # Player p sits at seat (p + index) mod players: the lineup turns the other way round
        # from a tournament table's, as each always has, so earlier matches play again alike.
        return pairing.seating(range(self.players), -self.index).index(player)


def deal_block(number: int, players: int, duplicate: bool) -> int:
    """Which shuffles game ``number`` deals: its own, or in duplicate mode its block's (a block
    of ``players`` games, one per seat rotation, deals the same hands)."""
    return number // players if duplicate else number


def schedule(lineup, ruleset, *, games: int, seed: int, scoring: dict | None = None,
             duplicate: bool = False, programs: dict | None = None) -> list[GameSpec]:
    if isinstance(ruleset, Options):
        ruleset = to_ruleset(ruleset)
    progs = tuple(sorted((k, tuple(v)) for k, v in (programs or {}).items()))
    return [GameSpec(tuple(lineup), ruleset, g, seed, scoring, duplicate, progs)
            for g in range(games)]


def play_spec(spec: GameSpec, make: Callable = make_bot) -> tuple[GameSpec, GameResult]:
    """Play one game of a match, each bot built by ``make`` (spec, seed=, programs=)."""
    n = spec.players
    bots: list = [None] * n
    names: list = [None] * n
    for player, bot_spec in enumerate(spec.lineup):
        seat = spec.seat_of(player)
        bots[seat] = make(bot_spec, seed=seed_of("bot", spec.seed, spec.index, player),
                          programs=dict(spec.programs))
        names[seat] = bot_spec
    scoring = Scoring.from_dict(spec.scoring) if spec.scoring else None
    result = play_game(bots, from_ruleset(spec.ruleset), seed=spec.deal_seed, scoring=scoring,
                       names=names)
    return spec, result


def run(specs: list[GameSpec], *, workers: int = 1, make: Callable = make_bot):
    """Play the games, in order, on ``workers`` processes; yields (spec, result) pairs.
    ``make`` builds each bot (in one process only: the workers build theirs with make_bot)."""
    if workers <= 1:
        for spec in specs:
            yield play_spec(spec, make)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(play_spec, specs, chunksize=1)


# --- figures (gameplay.runner.figures) ---------------------------------------------------
@dataclass
class PlayerTally:
    """One player of a lineup over a match (player = lineup position, whatever its seat)."""

    bot: str
    games: int = 0
    wins: int = 0
    deals: int = 0
    firsts: int = 0
    lasts: int = 0
    positions: list[int] = field(default_factory=list)
    roles: Counter = field(default_factory=Counter)
    decisions: int = 0
    seconds: float = 0.0
    faults: int = 0
    fault_kinds: Counter = field(default_factory=Counter)
    figures: Counter = field(default_factory=Counter)  # the bot's own counts (Bot.figures)

    def add(self, seat: int, result: GameResult) -> None:
        self.games += 1
        self.wins += seat in result.winners
        for order in result.finishing_orders:
            position = order.index(seat) + 1
            self.deals += 1
            self.positions.append(position)
            self.firsts += position == 1
            self.lasts += position == len(order)
            self.roles[str(roles_by_position(len(order))[position - 1])] += 1
        stats = result.stats[seat]
        self.decisions += stats.decisions
        self.seconds += stats.seconds
        self.faults += len(stats.faults)
        self.fault_kinds.update(f["kind"] for f in stats.faults)
        self.figures.update(stats.figures)

    def summary(self) -> dict:
        n = len(self.positions)
        total = sum(self.positions)
        return {
            "bot": self.bot, "games": self.games, "wins": self.wins,
            "win_rate": share(self.wins, self.games) or 0.0,
            "win_rate_ci": interval(self.wins, self.games),
            "deals": self.deals,
            "first_out_rate": share(self.firsts, n) or 0.0,
            "first_out_ci": interval(self.firsts, n),
            "last_place_rate": share(self.lasts, n) or 0.0,
            "last_place_ci": interval(self.lasts, n),
            "mean_position": share(total, n) or 0.0,
            "mean_position_ci": mean_interval(total, sum(x * x for x in self.positions), n),
            "roles": dict(self.roles),
            "mean_decision_ms": 1000 * self.seconds / self.decisions if self.decisions else 0.0,
            "decisions": self.decisions,
            "faults": self.faults, "fault_kinds": dict(self.fault_kinds),
            "figures": dict(self.figures),
        }


class Tally:
    def __init__(self, lineup):
        self.players = [PlayerTally(bot) for bot in lineup]

    def add(self, spec: GameSpec, result: GameResult) -> None:
        for player, tally in enumerate(self.players):
            tally.add(spec.seat_of(player), result)

    def summary(self) -> list[dict]:
        return [p.summary() for p in self.players]
