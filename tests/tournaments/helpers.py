"""Small tournaments for the tests: four quick bots, one-deal games."""

from django.db.models import F

from bot_games.models import BotFault
from league import services as league
from league.models import Club
from tournaments import services

ENTRANTS = [("Rita", "random"), ("Greg", "greedy"), ("Rob", "random"), ("Gil", "greedy")]


def bot_club(name="Bot club") -> Club:
    return Club.objects.filter(name=name).first() or league.club_create(name=name)


def small_tournament(name="Cup", *, entrants=ENTRANTS, seats=3, games_per_table=4, **kwargs):
    return services.tournament_create(club=bot_club(), name=name, entrants=entrants, seats=seats,
                                      games_per_table=games_per_table, **kwargs)


def tournament_faults(tournament):
    """Its games' faults (their bot games'), each with ``player_name``: the league player's at
    its seat."""
    return BotFault.objects.filter(
        game__tournament_game__tournament=tournament,
        game__tournament_game__game__seats__number=F("seat")).annotate(
        player_name=F("game__tournament_game__game__seats__player__name"))
