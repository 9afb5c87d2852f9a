"""Par of a deal (issue #31, docs/par.md): what a fixed reference player is expected to score
from each seat of a dealt position, so the luck of the deal can be taken out of a result.

*Par* of a seat: the points (under the game's scoring) the reference policy scores from that
seat, on average over ``playouts`` play-outs of the position with the reference at every seat.
The position is the dealt hands with the roles of the deal before; the reference makes the
exchange too (the heuristic bot's give-back), so par depends on the deal alone and never on
the choices of the players actually seated. Each play-out draws the seat's style of play near
the heuristic's (``STYLES``) from a seed of the deal alone: the same deal has the same par on
every run, whoever sits there. *Luck* is a seat's par minus the table's mean par (it sums to
zero over the table); the *luck-adjusted result* is the result minus the luck. Par is a control
variate: it never looks at the seated players' play, so an adjusted mean estimates the same as
the raw one, with less spread.

Play-outs run in the C kernel (a few microseconds each) where it plays the rules, else in
Python with the same policy; ``seconds`` caps the time per deal (fewer play-outs, counted in
``Par.playouts``, on a slow machine).
"""

import itertools
import random
import time
from dataclasses import dataclass

from gameplay.bots.base import BotDecider
from gameplay.bots.heuristic import HeuristicBot, Style
from gameplay.bots.montecarlo import heuristic_policy
from gameplay.bots.montecarlo import playout as python_playout
from gameplay.bots.observation import GameLog
from gameplay.engine import cards as C
from gameplay.engine.game import DealRecord, Game
from gameplay.engine.ruleset import Rules
from gameplay.engine.scoring import Scoring, deal_points
from gameplay.engine.selfplay import begin_deal
from gameplay.engine.transcript import parse
from gameplay.runner.figures import seed_of
from gameplay.runner.role_par import baseline

try:  # the kernel is built by `make kernel`; without it par plays out in Python
    from gameplay.bots import kernel
except ImportError:  # pragma: no cover - depends on the build
    kernel = None

PLAYOUTS = 16  # play-outs per seat: 32 or 64 narrowed no spread more (docs/par.md "Tuning")
SECONDS = 0.25  # at most this long per deal, whatever the play-outs asked

# The thresholds a play-out's seat plays with, one drawn per play-out: the heuristic's own
# (heuristic.Style) and others far from them, so the play-outs spread over ways of playing the
# hand instead of repeating one line of play (wider sets narrowed the adjusted spread more:
# docs/par.md "Tuning").
STYLE_CHOICES = {"pass_jump": (1, 6, 20), "danger": (0, 2, 6), "endgame_margin": (-3, 1, 10),
                 "split_total": (1, 6, 20), "controls_below_top": (0, 1, 2),
                 "pass_total": (2, 8, 20), "lead_big": (0, 3), "safe_groups": (0, 2, 4),
                 "pass_near_top": (1, 3, 6)}
STYLES = tuple(Style(**dict(zip(STYLE_CHOICES, values, strict=True)))
               for values in itertools.product(*STYLE_CHOICES.values()))


@dataclass(frozen=True)
class Par:
    """Each seat's par of one deal, the play-outs per seat it took and each seat's role par
    (the par expected from its starting role before the cards are seen; zeros without one)."""

    pars: tuple[float, ...]
    playouts: int
    role_pars: tuple[float, ...]

    @property
    def luck(self) -> tuple[float, ...]:
        """Each seat's par over its role par, less the table's mean of the same: zero over the
        table. Over the role par, because a role is earned by the deal before: the President's
        better cards after the exchange are its due, not luck (without this an adjusted mean
        would not estimate the raw one once roles differ in skill)."""
        over = [p - r for p, r in zip(self.pars, self.role_pars, strict=True)]
        mean = sum(over) / len(over)
        return tuple(o - mean for o in over)

    def adjusted(self, results) -> tuple[float, ...]:
        """Each seat's luck-adjusted result: its result (points of the deal) less its luck."""
        return tuple(r - luck for r, luck in zip(results, self.luck, strict=True))


def before_deal(rules: Rules, dealer: int, previous_order=None) -> Game:
    """A game about to deal its next deal: ``dealer`` deals, and the roles are those of
    ``previous_order`` (none: the first deal, no exchange)."""
    game = Game(rules, dealer=dealer)
    if previous_order:
        game.records.append(DealRecord(hands=[], finishing_order=list(previous_order),
                                       finished=True))
    return game


def start(game: Game, hands: list[int], blind=None):
    """The ``Deal`` of ``hands`` as dealt in ``game`` after the reference's exchange and choice
    of leader: the position par plays out."""
    log = GameLog()
    deciders = [BotDecider(HeuristicBot(), s, log, game) for s in range(game.rules.players)]
    return begin_deal(game, list(hands), blind and [list(p) for p in blind], deciders)[1]


def deal_seed(game: Game, hands: list[int], blind=None) -> int:
    """The seed of a deal's play-outs: from the rules, the dealer, the roles and the cards."""
    return seed_of("par", game.rules.options, game.rules.players, game.dealer,
                   game.previous_order, hands, blind)


def finishes(game: Game, hands: list[int], blind=None, *, playouts: int = PLAYOUTS,
             seconds: float = SECONDS) -> tuple[list[list[float]], int]:
    """Each seat's share of the play-outs of the deal of ``hands`` in ``game`` in which it
    finished in each position (0 = first out), and the play-outs per seat that were played."""
    n = game.rules.players
    deal = start(game, hands, blind)
    rng = random.Random(deal_seed(game, hands, blind))
    play_out = _kernel_playouts(deal) or (lambda plays: [python_playout(
        deal.copy(), seat, rng, heuristic_policy, style) for seat, style in plays])
    counts = [[0] * n for _ in range(n)]
    deadline = time.perf_counter() + seconds
    done = 0
    while done < playouts and (not done or time.perf_counter() < deadline):
        plays = [(seat, rng.choice(STYLES)) for seat in range(n)]
        for seat, value in enumerate(play_out(plays)):  # 1 first out … 0 last
            counts[seat][round((1 - value) * (n - 1))] += 1
        done += 1
    return [[c / done for c in row] for row in counts], done


def par(game: Game, hands: list[int], blind=None, *, scoring: Scoring,
        playouts: int = PLAYOUTS, seconds: float = SECONDS) -> Par:
    """Each seat's par of the deal of ``hands`` (and ``blind``, as dealt) in ``game``."""
    n = game.rules.players
    shares, done = finishes(game, hands, blind, playouts=playouts, seconds=seconds)
    points = deal_points(scoring, list(range(n)))  # by finishing position
    pars = tuple(sum(share * points[p] for p, share in enumerate(row)) for row in shares)
    base = baseline(game.rules.options, n, scoring.system.name, game.dealer,
                    game.previous_order)
    return Par(pars, done, tuple(base or [0.0] * n))


def _kernel_playouts(deal):
    if kernel is None or not kernel.supports(deal.rules):
        return None
    state = kernel.state(deal)
    return lambda plays: kernel.playouts(deal.rules, state, plays)


def positions(transcript: dict, finishing_orders):
    """Each deal of a played game as par sees it: (the game before the deal, its hands as
    dealt, its blind piles), first deal first. The game is the same object, moved on a deal
    each time: use each before asking for the next."""
    played = parse(transcript, moves=False)
    game = before_deal(Rules(played.options, played.players), played.dealer)
    for entry, order in zip(played.deals, finishing_orders, strict=True):
        yield game, [C.cards_mask(h) for h in entry.hands], entry.blind
        game.end(DealRecord(hands=entry.hands, finishing_order=list(order), finished=True))


def game_pars(transcript: dict, finishing_orders, *, scoring: Scoring | None = None,
              **settings) -> list[Par]:
    """The par of every deal of a played game, from its transcript and each deal's finishing
    order (a bot game's ``GameResult``; an uploaded transcript with the checker's orders),
    under its scoring or ``scoring``."""
    scoring = scoring or Scoring.from_dict(transcript["scoring"])
    return [par(game, hands, blind, scoring=scoring, **settings)
            for game, hands, blind in positions(transcript, finishing_orders)]
