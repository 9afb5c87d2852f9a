"""The game sheet isolates every player's name (<bdi>): a right-to-left name otherwise takes
the words and numbers beside it into its own direction ("Ann gives محمد 2 cards" showed the 2
first)."""

import re

import pytest
from django.urls import reverse

from league import services
from tests.league.factories import ClubFactory, PlayerFactory, make_game, make_season, seated_ids

pytestmark = pytest.mark.django_db


def sheet(client, game):
    answer = client.get(reverse("league:game_detail", args=[game.pk]))
    assert answer.status_code == 200
    return answer.content.decode()


def game_of(names, **season):
    season = make_season(club=ClubFactory(name="نادي الورق"), name="موسم", **season)
    players = [PlayerFactory(name=name, clubs=[season.club]) for name in names]
    return make_game(season=season, players=players)


def test_the_next_deals_exchanges_isolate_both_names(client):
    game = game_of(["محمد", "Ann", "Bo", "Cy"], preset="friday")
    services.deal_record(game=game, finishing_order=seated_ids(game))

    html = sheet(client, game)

    lines = re.findall(r"<li>([^<]*(?:<bdi>[^<]*</bdi>[^<]*)*? gives .*?)</li>", html)
    assert any("محمد" in line for line in lines), lines  # the President gives back
    for line in lines:
        assert re.fullmatch(r"<bdi>[^<]+</bdi> gives <bdi>[^<]+</bdi> \d+ cards?", line), line


def test_the_winners_and_the_totals_isolate_each_name(client):
    game = game_of(["محمد", "Ann", "Bo", "Cy"], scoring_system="fixed-rounds", scoring_deals=1)
    services.deal_record(game=game, finishing_order=seated_ids(game))

    html = sheet(client, game)

    assert re.search(r"Winner: <strong><bdi>محمد</bdi></strong>", html)
    for name in ("محمد", "Ann", "Bo", "Cy"):
        assert f"<tr><td><bdi>{name}</bdi></td>" in html  # the final totals

