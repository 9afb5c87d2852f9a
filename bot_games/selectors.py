"""Reading played bot games: a game's faults the same way whoever played it, and its replay
marked with each seat's decisions."""

from django.db.models import F, QuerySet

from bot_games.models import BotFault, BotSeat


def game_faults(*, game_id: int) -> QuerySet:
    """A bot game's faults in the order they were made."""
    return BotFault.objects.filter(game_id=game_id).order_by("number", "seat", "id")


def faults_of_bot(*, bot: str) -> QuerySet:
    """The faults made at seats where ``bot`` (a seat's bot name or spec) played, newest first."""
    return (BotFault.objects.filter(game__seats__bot=bot, game__seats__seat=F("seat"))
            .order_by("-game__played_at", "-id"))


def replay_marked(steps: dict, *, game_id: int, log_seats: set[int],
                  first: int = 1) -> list[dict]:
    """Mark a replay's steps (league.replays) with the decisions each seat took there:
    ``step["decided"]``, one {seat, bot, ms, safe, logs} a seat, where ``safe`` says a safe
    move was played for it (a fault, or its time bank spent). ``first``: the game's step the
    replay starts at (one deal's replay: its first, ``services.deal_steps``). The logs are only
    those of ``log_seats`` (their bots' authors' own); they also come back as a list of
    {step, seat, bot, text}, in order, with the replay's own step numbers."""
    shown = steps["steps"]

    def here(step):  # the replay's step, or None when it does not show it
        return step - first + 1 if step is not None and 0 < step - first + 1 <= len(shown) \
            else None

    logs = []
    for seat in BotSeat.objects.filter(game_id=game_id).only("seat", "timeline", "logs"):
        bot, marks = steps["players"][seat.seat], {}
        for point in seat.timeline:
            if (step := here(point["step"])) is not None:
                mark = marks.setdefault(step, {"seat": seat.seat, "bot": bot, "ms": 0.0,
                                               "safe": False, "logs": []})
                mark["ms"] = round(mark["ms"] + point["ms"], 1)
                mark["safe"] = mark["safe"] or point.get("safe", False)
        for log in seat.logs if seat.seat in log_seats else []:
            if (step := here(log["step"])) is not None:
                marks[step]["logs"].append(log["text"])
                logs.append({"step": step, "seat": seat.seat, "bot": bot, "text": log["text"]})
        for step, mark in marks.items():
            shown[step - 1].setdefault("decided", []).append(mark)
    logs.sort(key=lambda log: (log["step"], log["seat"]))
    return logs


def seats_stderr(*, game_id: int, log_seats: set[int]) -> list[tuple[int, str]]:
    """(seat, stderr) of the hosted bots among ``log_seats`` (their authors' own) that wrote
    any, or that the sandbox stopped."""
    return list(BotSeat.objects.filter(game_id=game_id, seat__in=log_seats).exclude(stderr="")
                .order_by("seat").values_list("seat", "stderr"))


def seat_par_sums(par: dict | None, seat: int) -> tuple[int, float, float, float, float]:
    """A seat's deals with par in a game's stored par (``services.game_par``) and the sums of
    its points, their squares, its adjusted points and their squares: what
    ``figures.par_figures`` reads. Zeros without par."""
    deals = par["deals"] if par else []
    points = [d["points"][seat] for d in deals]
    adjusted = [d["adjusted"][seat] for d in deals]
    return (len(deals), sum(points), sum(p * p for p in points), sum(adjusted),
            sum(a * a for a in adjusted))
