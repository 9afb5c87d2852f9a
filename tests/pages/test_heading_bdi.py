"""The game sheet's and the replays' headings isolate the club's and the season's (or
tournament's) names (<bdi>): "نادي الورق: موسم الخريف, game 1" unisolated shows the season's name
first, as one right-to-left run with the club's, and a Latin club's ", game 1" after an Arabic
tournament's name is carried to its left."""

import pytest
from django.urls import reverse

from gameplay.engine.options import preset
from gameplay.engine.scoring import Scoring
from gameplay.engine.selfplay import play_random_game
from league import services
from tests.league.factories import ClubFactory, make_game, make_season, seated_ids
from tests.tournaments.helpers import small_tournament
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

CLUB, SEASON, CUP = "نادي الورق", "موسم الخريف", "كأس الربيع"


def heading(answer) -> str:
    assert answer.status_code == 200
    return answer.content.decode().split("<h1>")[1].split("</h1>")[0]


def arabic_game():
    return make_game(season=make_season(club=ClubFactory(name=CLUB), name=SEASON))


def test_the_game_sheet_isolates_the_club_and_the_season(client):
    game = arabic_game()

    assert heading(client.get(reverse("league:game_detail", args=[game.pk]))) == (
        f"<bdi>{CLUB}</bdi>: <bdi>{SEASON}</bdi>, game {game.number}")


def test_a_deals_replay_isolates_the_club_and_the_season(client):
    game = arabic_game()
    transcript = play_random_game(preset(game.season.preset), 4, seed=3,
                                  scoring=Scoring("penalty"))
    transcript.pop("scoring")
    transcript["deals"] = transcript["deals"][:1]
    services.deal_record(game=game, finishing_order=seated_ids(game))  # deal 1, no transcript
    deal = services.deal_record(game=game, transcript=transcript)

    assert heading(client.get(reverse("league:deal_replay", args=[deal.pk]))) == (
        f"Replay: <bdi>{CLUB}</bdi> – <bdi>{SEASON}</bdi> – game {game.number} – deal 2")


def test_a_tournament_games_sheet_and_replay_isolate_the_club_and_the_tournament(client):
    tournament = small_tournament(name=CUP, seats=4, scoring={"system": "fixed-rounds",
                                                              "deals": 1})
    tournament.tables = [tournaments._tables_of_round(tournament, 0)]
    seated, result = tournaments.tournament_game_play(tournament=tournament, key=(0, 0, 0))
    stored = tournaments.tournament_game_store(tournament=tournament, key=(0, 0, 0),
                                               seated=seated, result=result)
    linked = f'<bdi><a href="{tournament.get_absolute_url()}">{CUP}</a></bdi>'

    sheet = client.get(reverse("league:game_detail", args=[stored.game_id]))
    replay = client.get(reverse("gameplay:deal_replay", args=[stored.pk, 1]))

    assert heading(sheet) == f"<bdi>Bot club</bdi>: {linked}, game {stored.game.number}"
    assert heading(replay) == (
        f"Replay: <bdi>Bot club</bdi>: {linked}, game {stored.game.number}, deal 1 of 1")
