"""Every page runs the same number of queries with a small and a larger league."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import rating_jobs, services
from tests.league.factories import UserFactory, make_game, make_season, seated_ids

pytestmark = pytest.mark.django_db


def league_of(players, deals):
    season = make_season(scoring_system="fixed-rounds", scoring_deals=deals + 1)
    game = make_game(season=season, players=players)
    ids = seated_ids(game)
    for i in range(deals):
        services.deal_record(game=game, finishing_order=ids[i % players:] + ids[:i % players],
                             transcript=None)
    rating_jobs.ratings_request(scope=f"season:{season.pk}")
    rating_jobs.ratings_recompute(scope=f"season:{season.pk}")
    rating_jobs.ratings_recompute(scope="all-time")
    organiser = UserFactory()
    season.club.organisers.add(organiser)
    return game, ids, organiser


def count(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
    assert response.status_code == 200, url
    return len(ctx)


PAGES = [
    ("league:season_detail", lambda g, ids: [g.season.pk]),
    ("league:game_detail", lambda g, ids: [g.pk]),
    ("league:game_enter", lambda g, ids: [g.pk]),
    ("league:player_detail", lambda g, ids: [ids[0]]),
    ("league:export_standings", lambda g, ids: [g.season.pk]),
    ("league:export_results", lambda g, ids: [g.season.pk]),
    # export_transcripts: tests/pages/test_pages_queries.py (it needs deals with transcripts)
]


@pytest.mark.parametrize("name,args", PAGES, ids=[p[0] for p in PAGES])
def test_query_count_does_not_grow_with_players_and_deals(client, name, args):
    small, small_ids, small_org = league_of(players=4, deals=2)
    big, big_ids, big_org = league_of(players=7, deals=12)

    client.force_login(small_org)
    few = count(client, reverse(name, args=args(small, small_ids)))
    client.force_login(big_org)
    many = count(client, reverse(name, args=args(big, big_ids)))

    assert few == many
