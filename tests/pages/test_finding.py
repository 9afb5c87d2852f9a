"""Finding things: the home page, a club's page with its all-time table, player search."""

import re
from html import unescape

import pytest
from django.urls import reverse

from league import services
from league.models import Player
from tests.league.factories import ClubFactory, PlayerFactory, make_game, make_season, seated_ids
from tests.tournaments.helpers import small_tournament
from tests.tournaments.test_replays import stored_game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def text_of(response):
    return " ".join(unescape(response.content.decode()).split())


def running(name):
    tournament = small_tournament(name=name)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.RUNNING)
    return tournament


def test_the_home_page_shows_clubs_live_tournaments_and_recent_results(client):
    game = make_game()  # penalty points to 4
    ids = seated_ids(game)
    names = dict(game.seats.values_list("player_id", "player__name"))
    services.deal_record(game=game, finishing_order=ids)
    services.deal_record(game=game, finishing_order=ids)  # the last player reaches 4: game over
    open_game = make_game(season=game.season, players=list(Player.objects.filter(pk__in=ids)))
    live = running("Spring Cup")
    bot_game = stored_game(live).game  # a tournament's game: shown on its own page
    small_tournament(name="Old Cup")  # scheduled, not live

    page = client.get(reverse("home"))

    assert page.status_code == 200
    text = text_of(page)
    club = game.season.club
    assert f'<a href="{reverse("league:club_detail", args=[club.pk])}">{club.name}</a>' in text
    assert "1 season, 4 players" in text
    assert f'<a href="{reverse("gameplay:tournament", args=[live.pk])}">Spring Cup</a>' in text
    assert "Old Cup" not in text
    results = text.split('id="recent"')[1]
    assert (f"{club.name}: {game.season.name}, game 1</a><br> Won by <bdi>{names[ids[0]]}</bdi>"
            " · 2 deals") in results
    assert f"game {open_game.number}</a><br> Playing · 0 deals" in results
    # Newest first; the tournament's own bot games are left to its page.
    assert results.index(f"game {open_game.number}<") < results.index("game 1<")
    assert f'href="{reverse("league:game_detail", args=[bot_game.pk])}"' not in results
    assert live.season.name not in results
    assert reverse("league:player_search") in text and reverse("league:rules_index") in text


def test_the_home_page_says_when_nothing_is_live(client):
    text = text_of(client.get(reverse("home")))
    assert "No tournament is being played right now." in text
    assert "No club yet." in text and "No game played yet." in text


def test_a_club_page_has_an_all_time_table_over_its_seasons(client):
    club = ClubFactory(name="Thursday Club")
    alice, bob, cleo = (PlayerFactory(name=n, clubs=[club]) for n in ("Alice", "Bob", "Cleo"))
    first = make_game(season=make_season(club=club, scoring_system="fixed-rounds",
                                         scoring_deals=2), players=[alice, bob, cleo])
    services.deal_record(game=first, finishing_order=[alice.pk, bob.pk, cleo.pk])
    services.deal_record(game=first, finishing_order=[alice.pk, bob.pk, cleo.pk])
    second = make_game(season=make_season(club=club, name="Autumn", scoring_system="fixed-rounds",
                                          scoring_deals=1), players=[alice, bob, cleo])
    services.deal_record(game=second, finishing_order=[cleo.pk, bob.pk, alice.pk])
    other = make_game()  # another club's results stay out
    services.deal_record(game=other, finishing_order=seated_ids(other))
    live = running("Thursday Cup")
    Tournament.objects.filter(pk=live.pk).update(club=club)

    page = client.get(reverse("league:club_detail", args=[club.pk]))

    assert page.status_code == 200
    text = text_of(page)
    rows = text.split('<table id="all-time"')[1].split("</table>")[0].split("<tr>")[2:]
    assert len(rows) == 3
    # Alice won game 1, Cleo game 2: wins rank first, so Cleo (mean position 7/3) is above
    # Bob (2, no win). Alice: 2 seasons, 2 games, 1 win, 3 deals at 1, 1, 3 -> 1.67.
    assert [r.split("</a>")[0].rsplit(">", 1)[1] for r in rows] == ["Alice", "Cleo", "Bob"]
    assert "<td>2</td><td>2</td><td>1</td><td>3</td><td>1.67</td><td>2</td>" in rows[0]
    assert "<td>2.33</td>" in rows[1] and "<td>2.00</td>" in rows[2]
    assert reverse("league:rating_help") in text
    assert f'<a href="{reverse("gameplay:tournament", args=[live.pk])}">Thursday Cup</a>' in text
    assert f'href="{reverse("league:rules", args=["classic"])}"' in text
    assert other.seats.first().player.name not in text
    # a date written one way on every page (a walk-through found "Jan. 1, 2025" beside
    # "27 Nov 2026")
    assert "from 1 Jan 2025" in text and "Jan. 1" not in text


def test_a_club_that_does_not_exist_is_a_404(client):
    assert client.get(reverse("league:club_detail", args=[999])).status_code == 404


def test_player_search_finds_by_part_of_a_name_names_starting_with_it_first(client):
    club = ClubFactory(name="Chess and Cards")
    for name in ("Annabel", "Hannah", "Anna", "Bob", "Joanna"):
        PlayerFactory(name=name, clubs=[club])

    page = client.get(reverse("league:player_search"), {"q": "  ANN "})

    assert page.status_code == 200
    text = text_of(page)
    found = [chunk.split("</a>")[0].rsplit(">", 1)[1]
             for chunk in text.split('<ul class="plain results">')[1].split("</ul>")[0]
             .split("<li>")[1:]]
    assert found == ["Anna", "Annabel", "Hannah", "Joanna"]
    assert "4 players whose name contains “ANN”" in text
    assert reverse("league:club_detail", args=[club.pk]) in text


def test_player_search_is_bounded_and_says_so(client):
    for i in range(25):
        PlayerFactory(name=f"Bot {i:02d}")

    text = text_of(client.get(reverse("league:player_search"), {"q": "bot"}))

    assert len(re.findall(r'<a href="/league/players/\d+/"', text)) == 20
    assert "The first 20 players whose name contains “bot”: type more of the name" in text


def test_player_search_without_a_match_and_with_too_long_a_name(client):
    PlayerFactory(name="Alice")
    none = client.get(reverse("league:player_search"), {"q": "zed"})
    assert none.status_code == 200 and "No player's name contains “zed”." in text_of(none)

    empty = client.get(reverse("league:player_search"))
    assert empty.status_code == 200 and "No player" not in text_of(empty)

    long = client.get(reverse("league:player_search"), {"q": "x" * 101})
    assert long.status_code == 400
    assert "A player's name is at most 100 characters; this search has 101." in text_of(long)

    nul = client.get(reverse("league:player_search"), {"q": "al\x00ice"})
    assert nul.status_code == 400
    assert "A player's name has no NUL character (\\x00) in it." in text_of(nul)
