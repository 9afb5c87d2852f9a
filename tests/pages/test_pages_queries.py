"""The new public pages run the same number of queries with a small and a larger league."""

import pytest
from django.urls import reverse

from league import services
from tests.pages.test_query_counts import count, league_of
from tests.pages.test_reads import transcript_for

pytestmark = pytest.mark.django_db

PAGES = [
    ("home", lambda g: reverse("home")),
    ("club", lambda g: reverse("league:club_detail", args=[g.season.club.pk])),
    ("search", lambda g: reverse("league:player_search") + "?q=Player"),
    ("rules", lambda g: reverse("league:rules", args=["friday"])),
    ("help", lambda g: reverse("league:rating_help")),
]


@pytest.mark.parametrize("url", [p[1] for p in PAGES], ids=[p[0] for p in PAGES])
def test_query_count_does_not_grow_with_players_and_deals(client, url):
    small, _, _ = league_of(players=4, deals=2)
    few = count(client, url(small))
    big, _, _ = league_of(players=7, deals=12)
    many = count(client, url(big))

    assert few == many


def test_the_transcripts_export_query_count_does_not_grow_with_deals(client):
    counts = []
    for players, deals in ((4, 2), (7, 12)):
        game, _, _ = league_of(players=players, deals=deals)
        services.deal_record(game=game, transcript=transcript_for(players))
        counts.append(count(client, reverse("league:export_transcripts",
                                            args=[game.season.pk])))

    assert counts[0] == counts[1]
