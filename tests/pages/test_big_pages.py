"""A player of many games and deals: their page and their rating history in the API stay the
same size whatever they played (a page of games with older ones linked, a chart of at most
CHART_POINTS points, the history a page of points at a time), and their par is read once per
change of a season's results. bench/pages.py measures the same on a club of 400 players and
18,000 deals."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import par, selectors, services
from league.models import Deal, Game, RatingHistory, Seat
from league.web.seasons import GAMES_PER_PAGE
from tests.league.factories import make_game, make_season, seated_ids

pytestmark = pytest.mark.django_db


def regular_of(games):
    """A player seated at ``games`` games of one season (rows written directly: no deals)."""
    first = make_game(season=make_season(scoring_system="fixed-rounds", scoring_deals=4))
    people = [seat.player for seat in first.seats.order_by("number")]
    rows = Game.objects.bulk_create(Game(season=first.season, number=n, dealer=0)
                                    for n in range(2, games + 1))
    Seat.objects.bulk_create(Seat(game=g, number=i, player=p)
                             for g in rows for i, p in enumerate(people))
    return people[0]


def game_links(html):
    return re.findall(r'href="/league/games/(\d+)/"', html)


def test_a_players_page_lists_one_page_of_games_newest_first_with_older_ones_linked(client):
    player = regular_of(GAMES_PER_PAGE + 5)
    url = reverse("league:player_detail", args=[player.pk])

    first = client.get(url).text
    older = client.get(url + "?page=2").text

    assert len(game_links(first)) == GAMES_PER_PAGE
    assert '<a href="?page=2" rel="next">older games</a>' in first
    assert f"{GAMES_PER_PAGE + 5} games, newest first" in first
    assert len(game_links(older)) == 5
    assert '<a href="?page=1" rel="prev">newer games</a>' in older
    newest = Seat.objects.filter(player=player).order_by("-game__created_at", "-pk")
    assert game_links(first)[0] == str(newest[0].game_id)
    assert set(game_links(first)).isdisjoint(game_links(older))


def test_a_page_past_the_last_shows_the_last_and_a_page_that_is_no_number_the_first(client):
    player = regular_of(GAMES_PER_PAGE + 5)
    url = reverse("league:player_detail", args=[player.pk])

    assert len(game_links(client.get(url + "?page=99").text)) == 5
    assert len(game_links(client.get(url + "?page=x").text)) == GAMES_PER_PAGE


def test_a_players_rating_chart_has_at_most_chart_points_and_ends_at_their_last_deal():
    game = make_game(season=make_season())
    player = seated_ids(game)[0]
    deals = Deal.objects.bulk_create(Deal(game=game, number=n, dealer=0) for n in range(1, 451))
    RatingHistory.objects.bulk_create(
        RatingHistory(player_id=player, deal=d, mu=25 + i / 100, sigma=8, ordinal=i / 100)
        for i, d in enumerate(deals))

    chart = selectors.rating_chart(player=game.seats.get(player_id=player).player)

    assert len(chart["labels"]) <= selectors.CHART_POINTS
    assert chart["labels"][-1] == 450 and chart["ordinal"][-1] == 4.49
    assert chart["labels"] == sorted(chart["labels"])
    assert len(chart["ordinal"]) == len(chart["labels"])


def test_a_players_par_is_read_once_until_a_result_of_the_season_changes():
    season = make_season(preset="presidents-deck", scoring_system="fixed-rounds",
                         scoring_deals=10)
    game = make_game(season=season, players=4)
    ids = seated_ids(game)
    services.deal_record(game=game, finishing_order=ids, transcript=None)
    player = game.seats.get(player_id=ids[3]).player
    before = par.player_pars(player)

    with CaptureQueriesContext(connection) as again:
        assert [(s.pk, p.over, why) for s, p, why in par.player_pars(player)] == [
            (s.pk, p.over, why) for s, p, why in before]
    services.deal_record(game=game, finishing_order=ids[::-1], transcript=None)
    (after,) = par.player_pars(player)

    assert not [q for q in again.captured_queries if "league_place" in q["sql"]]
    assert after[1].deals == 2 and after[1].over != before[0][1].over


def test_the_rating_history_api_answers_a_page_of_points_with_the_next_linked(client):
    game = make_game(season=make_season())
    player = seated_ids(game)[0]
    deals = Deal.objects.bulk_create(Deal(game=game, number=n, dealer=0) for n in range(1, 2511))
    RatingHistory.objects.bulk_create(
        RatingHistory(player_id=player, deal=d, mu=25, sigma=8, ordinal=i)
        for i, d in enumerate(deals))
    url = reverse("api:player-rating-history", args=[player])

    pages = [client.get(url).json()]
    while pages[-1]["next"] and len(pages) < 10:
        pages.append(client.get(pages[-1]["next"]).json())

    assert 1 < len(pages) < 10
    assert max(len(page["points"]) for page in pages) <= 1000
    assert [p["deal"] for page in pages for p in page["points"]] == [d.pk for d in deals]
    assert [p["ordinal"] for p in pages[-1]["points"]][-1] == 2509


def admin_rows(games):
    """A superuser, and a season of ``games`` games of four players with a deal each, and as
    many outside bots, for the admin's lists."""
    from django.contrib.auth import get_user_model

    from outside_bots.models import OutsideBot, name_key

    season = make_season()
    owner = get_user_model().objects.create_user(f"owner{games}")
    for n in range(games):
        game = make_game(season=season)
        services.deal_record(game=game, finishing_order=seated_ids(game), transcript=None)
        name = f"bot{games}-{n}"
        OutsideBot.objects.create(name=name, name_key=name_key(name), owner=owner,
                                  url=f"https://bots.example.org/{name}", presets=["classic"])
    return get_user_model().objects.create_superuser(f"root{games}")


@pytest.mark.parametrize("changelist", ["admin:league_game_changelist",
                                        "admin:league_deal_changelist",
                                        "admin:league_season_changelist",
                                        "admin:outside_bots_outsidebot_changelist"])
def test_the_admins_lists_run_the_same_queries_for_two_rows_as_for_six(client, changelist):
    counts = []
    for games in (2, 6):
        client.force_login(admin_rows(games))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse(changelist)).status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]


@pytest.mark.parametrize("url", ["/api/v1/deals/", "/api/v1/games/", "/api/v1/players/",
                                 "/api/v1/seasons/", "/api/v1/deals/{deal}/"])
def test_the_api_in_a_browser_runs_the_same_queries_for_two_games_as_for_six(client, url):
    """The browsable API's filter and write forms name a game, season, club or player by its
    id: a list of every game of the site was two queries a game (6,015 queries, 5 s, for
    /api/v1/deals/ on 3,000 games)."""
    counts = []
    for games in (2, 6):
        client.force_login(admin_rows(games))
        deal = Deal.objects.order_by("-pk").first()
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url.format(deal=deal.pk), HTTP_ACCEPT="text/html")
        assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
        counts.append(len(queries))

    assert counts[0] == counts[1]


def club_of(seasons, games):
    """A club of ``seasons`` seasons of ``games`` games tonight, four players each with a deal
    recorded, and its organiser."""
    from tests.league.factories import ClubFactory, UserFactory

    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    for _ in range(seasons):
        season = make_season(club=club)
        for _ in range(games):
            game = make_game(season=season)
            services.deal_record(game=game, finishing_order=seated_ids(game), transcript=None)
    return season, organiser


NIGHT_AND_CLUB_PAGES = [
    ("league:night", "season"), ("league:tonight", "season"), ("league:tonight_json", "season"),
    ("league:night_recap", "season"), ("league:table_cards", "season"),
    ("league:club_detail", "club"), ("league:organise_club", "club"),
    ("league:season_detail", "season"), ("league:player_detail", "player"),
]


@pytest.mark.parametrize("name,of", NIGHT_AND_CLUB_PAGES, ids=[p[0] for p in NIGHT_AND_CLUB_PAGES])
def test_the_night_and_club_pages_run_the_same_queries_for_a_bigger_club(client, name, of):
    """tests/pages/test_query_counts.py grows one game's deals; here the club grows: more
    seasons, more games tonight, more players. (The night page reads the rounds of each other
    season with tables tonight too, so the seasons stay two there.)"""
    night = name in ("league:night", "league:table_cards")
    counts = []
    for seasons, games in ((2, 2), (2, 6)) if night else ((1, 2), (3, 6)):
        season, organiser = club_of(seasons, games)
        player = Seat.objects.filter(game__season=season).first().player
        args = {"season": season.pk, "club": season.club_id, "player": player.pk}[of]
        client.force_login(organiser)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse(name, args=[args])).status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]
