"""Storing a played bot game: the one writer of ``bot_games.models``."""

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from bot_games.models import BotFault, BotGame, BotSeat
from gameplay.runner.match import GameResult


def game_store(result: GameResult, *, preset: str, options: dict | None = None, seed: int,
               times_ms: Sequence[Sequence[float]] | None = None, played_at=None) -> BotGame:
    """Write a played game, its seats and its faults from the runner's result; called inside
    the caller's transaction, which also writes the caller's row pointing at it. ``times_ms``:
    each seat's decision times, when the caller timed them one by one. The scoring is the
    transcript's, as the engine played it."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("game_store runs inside its caller's transaction")
    game = BotGame.objects.create(
        preset=preset, options=options or {}, scoring=result.transcript.get("scoring"),
        seed=seed, transcript=result.transcript, played_at=played_at or timezone.now())
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
                      if p.get("log")])
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
