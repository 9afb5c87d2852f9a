"""Exports: ratings in the standings CSV, points and winners in the results CSV, and a
transcripts export that says when a season has none."""

import csv
import io

import pytest
from django.urls import reverse

from league import rating_jobs, services
from league.models import Rating
from tests.league.factories import make_game, seated_ids
from tests.pages.test_reads import transcript_for

pytestmark = pytest.mark.django_db


def rows_of(client, name, season):
    response = client.get(reverse(name, args=[season.pk]))
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_the_standings_csv_has_each_players_season_rating(client):
    game = make_game()
    ids = seated_ids(game)
    services.deal_record(game=game, finishing_order=ids)
    services.deal_record(game=game, finishing_order=ids[1:] + ids[:1])
    rating_jobs.ratings_recompute(scope=f"season:{game.season.pk}")

    rows = rows_of(client, "league:export_standings", game.season)

    assert len(rows) == 4
    for row in rows:
        rating = Rating.objects.get(season=game.season, player__name=row["player"])
        assert float(row["rating"]) == round(rating.ordinal, 4)
        assert float(row["rating_mu"]) == round(rating.mu, 4)
        assert float(row["rating_sigma"]) == round(rating.sigma, 4)
        assert row["rated_deals"] == "2"
    # The last player's rating is below 0 and stays a number a spreadsheet can add up.
    assert float(rows[-1]["rating"]) < 0 and rows[-1]["rating"].startswith("-")


def test_the_standings_csv_leaves_the_rating_empty_before_it_is_computed(client):
    game = make_game()
    services.deal_record(game=game, finishing_order=seated_ids(game))
    Rating.objects.filter(season=game.season).delete()

    rows = rows_of(client, "league:export_standings", game.season)

    assert len(rows) == 4 and {r["rating"] for r in rows} == {""}


def test_the_results_csv_has_each_places_points_and_the_games_winners(client):
    penalty = make_game()  # penalty points to 4: first 0, last 2, the others 1
    ids = seated_ids(penalty)
    names = dict(penalty.seats.values_list("player_id", "player__name"))
    services.deal_record(game=penalty, finishing_order=ids)
    services.deal_record(game=penalty, finishing_order=ids)  # the last reaches 4: it ends
    still_open = make_game(season=penalty.season)
    services.deal_record(game=still_open, finishing_order=seated_ids(still_open))

    rows = rows_of(client, "league:export_results", penalty.season)

    first = [(r["deal"], r["player"], r["points"], r["game_winner"]) for r in rows
             if r["game"] == "1"]
    assert first[:4] == [("1", names[ids[0]], "0", "yes"), ("1", names[ids[1]], "1", "no"),
                         ("1", names[ids[2]], "1", "no"), ("1", names[ids[3]], "2", "no")]
    assert len(first) == 8
    # A game still being played has no winner yet: the column is empty, not "no".
    assert {r["game_winner"] for r in rows if r["game"] == "2"} == {""}


def test_the_results_csv_scores_role_points_under_first_to_eleven(client):
    game = make_game(players=5, season_kwargs={"scoring_system": "first-to-eleven"})
    ids = seated_ids(game)
    services.deal_record(game=game, finishing_order=ids)

    rows = rows_of(client, "league:export_results", game.season)

    assert [r["points"] for r in rows] == ["2", "1", "0", "0", "0"]


@pytest.mark.parametrize(("preset", "names"), [
    ("presidents-deck", ["President", "Vice President", "Citizen", "Couch Potato", "Turd"]),
    ("friday", ["President", "Vice President", "Citizen", "Vice Idiot", "Idiot"]),
    ("classic", ["President", "Vice President", "Citizen", "Vice-Scum", "Scum"]),
])
def test_the_results_csv_names_each_role_in_the_presets_words_beside_its_key(
        client, preset, names):
    """A walk-through found every preset's roles exported as the engine's keys ("vice-scum"
    for a Couch Potato); the key stays for the scripts that read it."""
    game = make_game(players=5, season_kwargs={"preset": preset})
    services.deal_record(game=game, finishing_order=seated_ids(game))

    rows = rows_of(client, "league:export_results", game.season)

    assert [r["role"] for r in rows] == [
        "president", "vice-president", "citizen", "vice-scum", "scum"]
    assert [r["role_name"] for r in rows] == names
    assert list(rows[0])[6:9] == ["role", "role_name", "points"]


def test_the_transcripts_export_says_when_a_season_has_none(client):
    game = make_game()
    services.deal_record(game=game, finishing_order=seated_ids(game))

    response = client.get(reverse("league:export_transcripts", args=[game.season.pk]))

    assert response.status_code == 404
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == (f"{game.season} has no transcripts: its deals were "
                                         "recorded as finishing orders only.\n")


def test_the_transcripts_export_still_streams_a_season_with_transcripts(client):
    game = make_game()
    services.deal_record(game=game, transcript=transcript_for(4))

    response = client.get(reverse("league:export_transcripts", args=[game.season.pk]))

    assert response.status_code == 200
    assert len(b"".join(response.streaming_content).splitlines()) == 1
