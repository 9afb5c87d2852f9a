"""A kept fault record moved into its bot game's (issue #27): the ladder's and the
tournaments' migrations that delete their own fault models call ``faults_copied``."""

BATCH = 1000
COLUMNS = ["seat", "deal", "number", "decision", "kind", "message", "answer"]


def faults_copied(apps, faults) -> None:
    """Copy the rows of ``faults`` (a historical fault model's manager, its ``game`` with a
    ``bot_game``) into BotFault where their bot game lacks them (the same seat and decision
    number), BATCH at a time, with the replay step from its seat's timeline. A fault of a
    game without a bot game is not copied: none is stored so (a game's faults were written
    with its bot game since bot_games came, and its migrations copied the older games)."""
    BotFault, BotSeat = (apps.get_model("bot_games", name) for name in ("BotFault", "BotSeat"))
    rows = faults.filter(game__bot_game__isnull=False).order_by("id")
    last = 0
    while batch := list(rows.filter(id__gt=last).values("id", "game__bot_game_id", *COLUMNS)
                        [:BATCH]):
        last = batch[-1]["id"]
        games = {f["game__bot_game_id"] for f in batch}
        have = set(BotFault.objects.filter(game_id__in=games)
                   .values_list("game_id", "seat", "number"))
        timelines = {(game, seat): timeline for game, seat, timeline in BotSeat.objects
                     .filter(game_id__in=games).values_list("game_id", "seat", "timeline")}
        BotFault.objects.bulk_create(
            BotFault(game_id=f["game__bot_game_id"], **{c: f[c] for c in COLUMNS},
                     step=_step(timelines.get((f["game__bot_game_id"], f["seat"]), []),
                                f["number"]))
            for f in batch if (f["game__bot_game_id"], f["seat"], f["number"]) not in have)


def _step(timeline: list, number: int) -> int | None:
    """The replay step of a seat's ``number``-th decision, when its timeline has it."""
    return timeline[number - 1]["step"] if 0 < number <= len(timeline) else None
