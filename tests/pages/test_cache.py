"""The season page and the standings API are served from the cache while nothing changes, and
show a recorded deal or recomputed ratings at once (the test settings' cache is Django's
local-memory one, so the cache is on here as it is in production)."""

import json
import re

import pytest
from django.urls import reverse

from league import rating_jobs, selectors, services
from league.models import Rating, RatingHistory
from league.rules import rating_scope
from league.web import seasons
from tests.league.factories import UserFactory, make_game, make_season, seated_ids

pytestmark = pytest.mark.django_db


def page_of(client, season, **params):
    response = client.get(reverse("league:season_detail", args=[season.pk]), params)
    assert response.status_code == 200
    return response.text


def standings_on_page(text):
    """(player id, points, rating cell) of each standings row, best first."""
    body = text.split('<table id="standings"')[1].split("</tbody>")[0]
    rows = []
    for row in body.split("<tr>")[2:]:
        cells = re.findall(r"<td>(.*?)</td>", row, re.S)
        player = int(re.search(r"/league/players/(\d+)/", cells[1]).group(1))
        rows.append((player, int(cells[4]), cells[11]))
    return rows


def standings_from_api(client, season):
    response = client.get(f"/api/v1/seasons/{season.pk}/standings/")
    assert response.status_code == 200
    return [(row["player_id"], row["points"]) for row in response.json()["rows"]]


def test_a_recorded_deal_shows_at_once_on_the_page_and_the_api(
        client, django_assert_num_queries):
    game = make_game(season_kwargs={"scoring_limit": 20})
    season = game.season
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    page_of(client, season)
    standings_from_api(client, season)

    # Served from the cache: the season row is the only read.
    with django_assert_num_queries(1):
        first = standings_on_page(page_of(client, season))
    with django_assert_num_queries(1):
        assert standings_from_api(client, season) == [(p, points) for p, points, _ in first]
    assert {p: points for p, points, _ in first} == {a: 0, b: 1, c: 1, d: 2}

    services.deal_record(game=game, finishing_order=[b, a, c, d])  # penalty: 0, 1, 1, 2

    expected = {a: 1, b: 1, c: 2, d: 4}
    assert {p: points for p, points, _ in standings_on_page(page_of(client, season))} == expected
    assert dict(standings_from_api(client, season)) == expected


def test_recomputed_ratings_show_at_once_on_the_page_and_the_api(client):
    game = make_game(season_kwargs={"scoring_limit": 20})
    season = game.season
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])  # its task never runs here
    before = page_of(client, season)
    assert "Ratings are still updating" in before
    assert {rating for _, _, rating in standings_on_page(before)} == {"–"}

    rating_jobs.ratings_recompute(scope=rating_scope(season))

    after = page_of(client, season)
    assert "Ratings are still updating" not in after
    ordinal = dict(Rating.objects.filter(season=season).values_list("player_id", "ordinal"))
    assert len(ordinal) == 4
    assert [(p, rating) for p, _, rating in standings_on_page(after)] == [
        (p, f"{ordinal[p]:.2f}") for p, _, _ in standings_on_page(after)]
    api = client.get(f"/api/v1/seasons/{season.pk}/ratings/").json()
    assert {r["player"]: r["ordinal"] for r in api} == pytest.approx(ordinal)


def test_a_requested_recompute_shows_the_ratings_as_updating_at_once(client):
    game = make_game(season_kwargs={"scoring_limit": 20})
    services.deal_record(game=game, finishing_order=seated_ids(game))
    rating_jobs.ratings_recompute(scope=rating_scope(game.season))
    assert "Ratings are still updating" not in page_of(client, game.season)

    rating_jobs.ratings_request(scope=rating_scope(game.season))  # the results do not change

    assert "Ratings are still updating" in page_of(client, game.season)


def test_a_renamed_season_or_club_shows_at_once(client):
    game = make_game(season_kwargs={"scoring_limit": 20})
    season = game.season
    page_of(client, season)

    services.season_update(season=season, name="Spring league")
    assert f"<h1>{season.club.name}: Spring league</h1>" in page_of(client, season)

    services.club_update(club=season.club, name="Card room")
    assert "<h1>Card room: Spring league</h1>" in page_of(client, season)


def test_a_waiting_message_shows_to_its_reader_and_never_to_others(client):
    game = make_game(season_kwargs={"scoring_limit": 20})
    elsewhere = make_game()  # a club the reader organises
    reader = UserFactory()
    elsewhere.season.club.organisers.add(reader)
    message = "nothing was deleted"
    assert message not in page_of(client, game.season)  # now in the cache

    client.force_login(reader)
    client.post(reverse("league:deal_undo", args=[elsewhere.pk]),
                {"deal": "0"})  # refused, with a message for the next page
    assert message in page_of(client, game.season)
    client.logout()

    assert message not in page_of(client, game.season)


def test_organisers_links_never_come_from_or_go_to_the_shared_cache(client):
    game = make_game(season_kwargs={"scoring_limit": 20})
    organiser = UserFactory()
    game.season.club.organisers.add(organiser)
    enter = reverse("league:game_enter", args=[game.pk])

    assert enter not in page_of(client, game.season)  # cached for everyone else
    client.force_login(organiser)
    assert enter in page_of(client, game.season)
    client.logout()
    assert enter not in page_of(client, game.season)


def test_a_new_game_is_listed_at_once(client):
    game = make_game(season_kwargs={"scoring_limit": 20})
    assert "Game 2</a>" not in page_of(client, game.season)

    services.game_create(season=game.season,
                         players=[s.player for s in game.seats.order_by("number")])

    text = page_of(client, game.season)
    assert "Game 2</a>" in text and "2 games, newest first" in text


def test_the_games_are_listed_newest_first_a_page_at_a_time(client, monkeypatch):
    monkeypatch.setattr(seasons, "GAMES_PER_PAGE", 2)
    game = make_game(season_kwargs={"scoring_limit": 20})
    players = [s.player for s in game.seats.order_by("number")]
    for _ in range(2):
        services.game_create(season=game.season, players=players)

    first = page_of(client, game.season)
    second = page_of(client, game.season, page=2)

    assert re.findall(r"Game (\d+)</a>", first) == ["3", "2"]
    assert re.findall(r"Game (\d+)</a>", second) == ["1"]
    assert 'href="?page=2" rel="next"' in first and 'href="?page=1" rel="prev"' in second
    assert "page 2 of 2" in second
    # Too long to be a page number (and for int() to read): the first page, not an error.
    assert re.findall(r"Game (\d+)</a>", page_of(client, game.season, page="9" * 5000)) == [
        "3", "2"]


def test_the_rating_chart_shows_the_best_rated_players_at_spaced_deals(client, monkeypatch):
    monkeypatch.setattr(selectors, "CHART_PLAYERS", 2)
    monkeypatch.setattr(selectors, "CHART_POINTS", 4)
    season = make_season(scoring_system="fixed-rounds", scoring_deals=20)
    game = make_game(season=season)
    ids = seated_ids(game)
    for i in range(10):
        services.deal_record(game=game, finishing_order=ids[i % 4:] + ids[:i % 4])
    rating_jobs.ratings_recompute(scope=rating_scope(season))

    text = page_of(client, season)

    chart = json.loads(text.split('id="season-rating-data" type="application/json">')[1]
                       .split("</script>")[0])
    best = list(Rating.objects.filter(season=season).order_by("-ordinal", "player__name")
                .values_list("player_id", "player__name")[:2])
    assert [s["label"] for s in chart["series"]] == [name for _, name in best]
    assert (chart["deals"], chart["every"]) == (10, 3)
    for (player, _), series in zip(best, chart["series"], strict=True):
        after_each_deal = list(RatingHistory.objects.filter(season=season, player_id=player)
                               .order_by("deal_id").values_list("ordinal", flat=True))
        assert series["data"] == [{"x": n, "y": round(after_each_deal[n - 1], 3)}
                                  for n in (3, 6, 9, 10)]
    assert "best-rated players after every 3 deals (10 deals in all)" in text


def test_the_cached_api_document_is_what_the_renderer_gives_for_each_media_type(client):
    game = make_game(season_kwargs={"scoring_limit": 20})
    services.deal_record(game=game, finishing_order=seated_ids(game))
    url = f"/api/v1/seasons/{game.season.pk}/standings/"

    plain = client.get(url)
    indented = client.get(url, HTTP_ACCEPT="application/json; indent=4")
    browsable = client.get(url, HTTP_ACCEPT="text/html")

    assert plain["Content-Type"] == "application/json" and "Accept" in plain["Vary"]
    assert plain.content.startswith(b'{"season":')
    assert indented.content.startswith(b'{\n    "season":')
    assert indented.json() == plain.json()
    assert plain.json()["scoring_system"] == "penalty" and len(plain.json()["rows"]) == 4
    assert browsable.status_code == 200 and browsable["Content-Type"].startswith("text/html")
    assert game.seats.get(number=0).player.name in browsable.text
