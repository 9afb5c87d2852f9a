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
    BotSeat.objects.bulk_create(
        BotSeat(game=game, seat=seat, bot=bot,
                positions=[order.index(seat) + 1 for order in result.finishing_orders],
                points=result.scores[seat] if result.scores else None,
                decisions=stats.decisions, decision_ms=1000 * stats.seconds,
                decision_ms_max=max(times_ms[seat], default=None) if times_ms else None)
        for seat, (bot, stats) in enumerate(zip(result.bots, result.stats, strict=True)))
    BotFault.objects.bulk_create(
        BotFault(game=game, seat=seat, deal=max(0, f["deal"]), number=f["number"],
                 decision=f["decision"], kind=f["kind"], message=f["message"],
                 answer=f["answer"] or "")
        for seat, stats in enumerate(result.stats) for f in stats.faults)
    return game
