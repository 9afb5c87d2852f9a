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


def replay_marked(steps: dict, *, game_id: int, log_seats: set[int]) -> list[dict]:
    """Mark a replay's steps (league.replays, the whole game's) with the decisions each seat
    took there: ``step["decided"]``, one {seat, bot, ms, safe, logs} a seat, where ``safe`` says a
    safe move was played for it (a fault, or its time bank spent). The logs are only those of
    ``log_seats`` (their bots' authors' own); they also come back as a list of {step, seat,
    bot, text}, in order."""
    shown = steps["steps"]
    logs = []
    for seat in BotSeat.objects.filter(game_id=game_id).only("seat", "timeline", "logs"):
        marks: dict[int, dict] = {}
        for point in seat.timeline:
            if point["step"] is not None and point["step"] <= len(shown):
                mark = marks.setdefault(point["step"], {
                    "seat": seat.seat, "bot": steps["players"][seat.seat], "ms": 0.0,
                    "safe": False, "logs": []})
                mark["ms"] = round(mark["ms"] + point["ms"], 1)
                mark["safe"] = mark["safe"] or point.get("safe", False)
        for log in seat.logs if seat.seat in log_seats else []:
            if log["step"] in marks:
                marks[log["step"]]["logs"].append(log["text"])
                logs.append({**log, "seat": seat.seat, "bot": steps["players"][seat.seat]})
        for step, mark in marks.items():
            shown[step - 1].setdefault("decided", []).append(mark)
    logs.sort(key=lambda log: (log["step"], log["seat"]))
    return logs
