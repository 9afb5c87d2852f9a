"""Reading the league through the API: everyone reads, lists are filtered and paginated."""

import pytest
from rest_framework.test import APIClient

from league import rating_jobs, services
from league.models import RatingHistory
from league.rules import rating_scope
from tests.league.factories import ClubFactory, PlayerFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def anonymous():
    return APIClient()


def test_anyone_reads_clubs_filtered_by_name(game, anonymous):
    ClubFactory(name="Harbour Club")

    everyone = anonymous.get("/api/v1/clubs/").json()
    harbour = anonymous.get("/api/v1/clubs/", {"name": "harb"}).json()

    assert everyone["count"] == 2
    assert [c["name"] for c in harbour["results"]] == ["Harbour Club"]


def test_lists_are_paginated(anonymous):
    for i in range(55):
        PlayerFactory(name=f"P{i:02}")

    first = anonymous.get("/api/v1/players/").json()
    second = anonymous.get(first["next"]).json()

    assert first["count"] == 55 and len(first["results"]) == 50
    assert len(second["results"]) == 5


def test_players_filter_by_club(game, anonymous):
    PlayerFactory(name="Elsewhere", clubs=[ClubFactory()])

    response = anonymous.get("/api/v1/players/", {"club": game.season.club_id}).json()

    assert sorted(p["id"] for p in response["results"]) == sorted(seated_ids(game))


def test_a_bad_filter_value_names_the_filter(anonymous):
    response = anonymous.get("/api/v1/games/", {"season": "first"})

    assert response.status_code == 400
    assert "season" in response.json()


def test_seasons_and_games_filter_by_club_and_status(game, anonymous):
    make_game()  # another club's

    seasons = anonymous.get("/api/v1/seasons/", {"club": game.season.club_id}).json()
    games = anonymous.get("/api/v1/games/", {"club": game.season.club_id,
                                             "status": "open"}).json()

    assert [s["id"] for s in seasons["results"]] == [game.season_id]
    assert [g["id"] for g in games["results"]] == [game.pk]


def test_a_game_comes_with_its_seats_totals_and_deals(game, anonymous):
    body = anonymous.get(f"/api/v1/games/{game.pk}/").json()

    assert [s["player"] for s in body["seats"]] == seated_ids(game)
    assert body["seats"][-1]["points"] == 2 and body["seats"][0]["presidents"] == 1
    assert [d["number"] for d in body["deals"]] == [1]
    assert [p["player"] for p in body["deals"][0]["places"]] == seated_ids(game)


def test_deals_filter_by_game(game, anonymous):
    other = make_game()
    services.deal_record(game=other, finishing_order=seated_ids(other))

    response = anonymous.get("/api/v1/deals/", {"game": game.pk}).json()

    assert [d["game"] for d in response["results"]] == [game.pk]


def test_standings_state_their_tie_break_order(game, anonymous):
    services.deal_record(game=game, finishing_order=list(reversed(seated_ids(game))))

    body = anonymous.get(f"/api/v1/seasons/{game.season_id}/standings/").json()

    assert body["tie_breaks"][0] == "more wins"
    assert body["scoring_system"] == "penalty"
    # Every player has 2 points and a mean position of 2.5: Presidents first, then the name.
    ids = seated_ids(game)
    assert [r["mean_position"] for r in body["rows"]] == [2.5, 2.5, 2.5, 2.5]
    assert [r["player_id"] for r in body["rows"]] == [ids[0], ids[3], ids[1], ids[2]]


def recompute_ratings(season):
    """What the Celery task does after commit (tests run inside one transaction)."""
    rating_jobs.ratings_recompute(scope=rating_scope(season))
    rating_jobs.ratings_recompute(scope=rating_scope(None))


def test_rating_history_after_each_deal(game, anonymous):
    recompute_ratings(game.season)
    player = seated_ids(game)[0]

    season = anonymous.get(f"/api/v1/players/{player}/rating-history/",
                           {"season": game.season_id}).json()
    all_time = anonymous.get(f"/api/v1/players/{player}/rating-history/").json()

    deal = game.deal_set.get()
    assert RatingHistory.objects.filter(player_id=player).count() == 2
    assert [p["deal"] for p in season["points"]] == [deal.pk]
    assert season["season"] == game.season_id and all_time["season"] is None
    assert season["updating"] is False
    assert len(all_time["points"]) == 1


def test_rating_history_names_a_bad_season(game, anonymous):
    player = seated_ids(game)[0]

    bad = anonymous.get(f"/api/v1/players/{player}/rating-history/", {"season": "x"})
    missing = anonymous.get(f"/api/v1/players/{player}/rating-history/", {"season": 999_999})

    assert bad.status_code == 400 and "season" in bad.json()
    assert missing.status_code == 404


def test_season_ratings(game, anonymous):
    recompute_ratings(game.season)
    body = anonymous.get(f"/api/v1/seasons/{game.season_id}/ratings/").json()

    assert sorted(r["player"] for r in body) == sorted(seated_ids(game))
    assert body[0]["player"] == seated_ids(game)[0]  # the President rates highest


def test_docs_are_served_without_a_cdn(anonymous):
    schema = anonymous.get("/api/schema/")
    docs = anonymous.get("/api/docs/").content.decode()

    assert schema.status_code == 200 and b"/api/v1/deals/" in schema.content
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in docs
    assert "cdn" not in docs.lower()
