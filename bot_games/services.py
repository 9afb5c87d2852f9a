"""Storing a played bot game: the one writer of ``bot_games.models``."""

from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bot_games.models import BotFault, BotGame, BotSeat
from gameplay.engine.scoring import Scoring, deal_points
from gameplay.runner.match import GameResult
from gameplay.runner.par import game_pars


def game_par(result: GameResult) -> dict | None:
    """The par of each deal of a played game (issue #31, docs/par.md), for ``game_store``:
    per deal, each seat's par, luck (par over role par, less the table's mean: zero over the
    table), points and luck-adjusted points (points less luck), and the play-outs per seat it
    took. None when par is off (``PAR_PLAYOUTS`` 0) or the game has no scoring. Slow work
    (at most ``PAR_SECONDS`` a deal): run it before the store's transaction, in the worker."""
    scoring = result.transcript.get("scoring")
    if not settings.PAR_PLAYOUTS or not scoring or not result.finishing_orders:
        return None
    scoring = Scoring.from_dict(scoring)
    deals = []
    pars = game_pars(result.transcript, result.finishing_orders, scoring=scoring,
                     playouts=settings.PAR_PLAYOUTS, seconds=settings.PAR_SECONDS)
    for par, order in zip(pars, result.finishing_orders, strict=True):
        points = deal_points(scoring, order)
        points = [points[seat] for seat in range(len(par.pars))]
        deals.append({"par": _rounded(par.pars), "luck": _rounded(par.luck), "points": points,
                      "adjusted": _rounded(par.adjusted(points)), "playouts": par.playouts})
    return {"deals": deals}


def _rounded(values) -> list[float]:
    return [round(v, 4) for v in values]


def game_store(result: GameResult, *, preset: str, options: dict | None = None, seed: int,
               times_ms: Sequence[Sequence[float]] | None = None, played_at=None,
               par: dict | None = None, stderr: Sequence[str] | None = None) -> BotGame:
    """Write a played game, its seats and its faults from the runner's result; called inside
    the caller's transaction, which also writes the caller's row pointing at it. ``times_ms``:
    each seat's decision times, when the caller timed them one by one; ``par``: ``game_par``'s,
    computed before the transaction; ``stderr``: each seat's, for a hosted bot. The scoring
    is the transcript's, as the engine played it."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("game_store runs inside its caller's transaction")
    game = BotGame.objects.create(
        preset=preset, options=options or {}, scoring=result.transcript.get("scoring"),
        seed=seed, transcript=result.transcript, par=par, played_at=played_at or timezone.now())
    deals = deal_steps(result.transcript)
    timelines = [[_step(deals, point) for point in stats.timeline] for stats in result.stats]
    BotSeat.objects.bulk_create(
        BotSeat(game=game, seat=seat, bot=bot,
                positions=[order.index(seat) + 1 for order in result.finishing_orders],
                points=result.scores[seat] if result.scores else None,
                decisions=stats.decisions, decision_ms=1000 * stats.seconds,
                decision_ms_max=max(times_ms[seat], default=None) if times_ms else None,
                timeline=[{"step": step, "ms": p["ms"], **({"safe": True} if p["safe"] else {})}
                          for step, p in zip(timelines[seat], stats.timeline, strict=True)],
                logs=[{"step": step, "text": p["log"]}
                      for step, p in zip(timelines[seat], stats.timeline, strict=True)
                      if p.get("log")],
                stderr=stderr[seat] if stderr else "")
        for seat, (bot, stats) in enumerate(zip(result.bots, result.stats, strict=True)))
    BotFault.objects.bulk_create(
        BotFault(game=game, seat=seat, deal=max(0, f["deal"]), number=f["number"],
                 decision=f["decision"], kind=f["kind"], message=f["message"],
                 answer=f["answer"] or "", body=f.get("body") or "",
                 step=timelines[seat][f["number"] - 1] if f["number"] <= len(timelines[seat])
                 else None)
        for seat, stats in enumerate(result.stats) for f in stats.faults)
    return game


def deal_steps(transcript: dict) -> list[tuple[int, int]]:
    """Each deal's first replay step (its dealing) and the step its play begins at (its
    leader named), from 1: the replay (league.replays) shows a deal as its dealing, each
    exchange, the lead, then each move."""
    steps, first = [], 1
    for deal in transcript.get("deals", []):
        exchanges = len(deal.get("exchanges", []))
        steps.append((first, first + exchanges + 1))
        first += 2 + exchanges + len(deal["moves"])
    return steps


def _step(deals: list[tuple[int, int]], point: dict) -> int | None:
    """A decision's replay step: its move's, or, before play, the lead's (the exchanges done)."""
    if not 0 <= point["deal"] < len(deals):
        return None
    return deals[point["deal"]][1] + (0 if point["move"] is None else point["move"] + 1)
