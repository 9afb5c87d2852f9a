"""Reading played bot games: a game's faults the same way whoever played it."""

from django.db.models import F, QuerySet

from bot_games.models import BotFault


def game_faults(*, game_id: int) -> QuerySet:
    """A bot game's faults in the order they were made."""
    return BotFault.objects.filter(game_id=game_id).order_by("number", "seat", "id")


def faults_of_bot(*, bot: str) -> QuerySet:
    """The faults made at seats where ``bot`` (a seat's bot name or spec) played, newest first."""
    return (BotFault.objects.filter(game__seats__bot=bot, game__seats__seat=F("seat"))
            .order_by("-game__played_at", "-id"))
