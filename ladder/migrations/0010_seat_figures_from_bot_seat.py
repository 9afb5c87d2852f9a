"""How a ladder seat did is its bot game's seat alone (issue #27: one home for a bot game):
a Seat links its BotSeat (``bot_seat``) and loses the columns that repeated it (positions,
score, decisions, decision_ms, faults).

The bot game's seats were written from the same result as the ladder's (and migration 0005
copied the older games' figures into them), so each seat's figures are checked against its
BotSeat before they go (its count of faults aside: its bot game's faults at the seat are their
record since 0009, and the count read from them afterwards): a seat whose figures differ, or
one with figures but no bot game, stops the migration with the seats named, and nothing
changes. A seat with no figures (a game never stored: no places, no points, no decision) loses
nothing: it is linked when its bot game has its seat, and otherwise keeps no link. Reversing
brings the columns back filled from the bot game's seats.
"""

import math

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count

BATCH = 1000
FIGURES = ("positions", "score", "decisions", "decision_ms", "faults")
UNPLAYED = {"positions": [], "score": None, "decisions": 0, "decision_ms": 0.0, "faults": 0}
SHOWN = 10  # seats named in the refusal at most


def _played(apps, game_ids) -> dict:
    """The bot games' seats by (game, seat), with their figures."""
    return {(s["game_id"], s["seat"]): s for s in apps.get_model("bot_games", "BotSeat")
            .objects.filter(game_id__in=game_ids).values("id", "game_id", "seat", "positions",
                                                         "points", "decisions", "decision_ms")}


def _held(seat: dict, played: dict) -> bool:
    """The seat's figures are its bot game's seat's. Not its count of faults: since 0009 its
    bot game's faults at the seat are the one record of them, which its entry's are read
    from (a database migrated back past 0009 and forward again has the count without them)."""
    return (seat["positions"] == played["positions"] and seat["score"] == played["points"]
            and seat["decisions"] == played["decisions"]
            and math.isclose(seat["decision_ms"], played["decision_ms"], rel_tol=1e-9))


def seats_linked(apps, schema_editor):
    """Link each seat to its bot game's seat, BATCH at a time, when its figures are found
    there or it has none."""
    Seat = apps.get_model("ladder", "Seat")
    refused, last = [], 0
    while batch := list(Seat.objects.filter(id__gt=last).order_by("id").values(
            "id", "game_id", "seat", "game__bot_game_id", *FIGURES)[:BATCH]):
        last = batch[-1]["id"]
        played = _played(apps, {s["game__bot_game_id"] for s in batch} - {None})
        linked = []
        for seat in batch:
            key = (seat["game__bot_game_id"], seat["seat"])
            unplayed = all(seat[f] == UNPLAYED[f] for f in FIGURES)  # nothing to lose
            if key in played and (unplayed or _held(seat, played[key])):
                linked.append(Seat(id=seat["id"], bot_seat_id=played[key]["id"]))
            elif not unplayed:
                refused.append(f"game {seat['game_id']} seat {seat['seat']}: " + (
                    "figures but no bot game" if key[0] is None
                    else "not as its bot game's seat"))
        Seat.objects.bulk_update(linked, ["bot_seat"])
    if refused:
        raise RuntimeError(
            f"{len(refused)} ladder seats have figures their bot game does not hold, so "
            f"dropping their columns would lose them ({'; '.join(refused[:SHOWN])}); nothing "
            "was changed: mend them, or set them from the bot game's seats, and migrate again")


def figures_back(apps, schema_editor):
    """The columns filled again from each linked seat's bot game's seat, BATCH at a time."""
    Seat = apps.get_model("ladder", "Seat")
    last = 0
    while batch := list(Seat.objects.filter(id__gt=last, bot_seat__isnull=False).order_by("id")
                        .values("id", "bot_seat__game_id", "seat")[:BATCH]):
        last = batch[-1]["id"]
        games = {s["bot_seat__game_id"] for s in batch}
        played = _played(apps, games)
        faults = {(f["game_id"], f["seat"]): f["n"] for f in apps.get_model(
            "bot_games", "BotFault").objects.filter(game_id__in=games).order_by()
            .values("game_id", "seat").annotate(n=Count("id"))}
        back = []
        for seat in batch:
            key = (seat["bot_seat__game_id"], seat["seat"])
            p = played[key]
            back.append(Seat(id=seat["id"], positions=p["positions"], score=p["points"],
                             decisions=p["decisions"], decision_ms=p["decision_ms"],
                             faults=faults.get(key, 0)))
        Seat.objects.bulk_update(back, FIGURES)


class Migration(migrations.Migration):

    dependencies = [
        ("ladder", "0009_fault_in_bot_games"),
        ("bot_games", "0003_hosted_stderr"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="bot_seat",
            field=models.OneToOneField(blank=True, help_text="its seat of the game as played, once stored: places, points, decisions and their time", null=True, on_delete=django.db.models.deletion.PROTECT, related_name="ladder_seat", to="bot_games.botseat"),
        ),
        migrations.RunPython(seats_linked, figures_back),
        migrations.RemoveField(model_name="seat", name="decision_ms"),
        migrations.RemoveField(model_name="seat", name="decisions"),
        migrations.RemoveField(model_name="seat", name="faults"),
        migrations.RemoveField(model_name="seat", name="positions"),
        migrations.RemoveField(model_name="seat", name="score"),
    ]
