"""Season standings: aggregated in the database, tie-breaks as docs/league.md says."""

import pytest

from league import services
from league.selectors import season_standings
from tests.league.factories import PlayerFactory, make_game, make_season, seated_ids

pytestmark = pytest.mark.django_db


def test_standings_count_games_wins_points_positions_and_roles():
    season = make_season(scoring_limit=4)
    game = make_game(season=season)
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[a, c, b, d])  # d 4: a wins
    other = make_game(season=season, players=[p.player for p in game.seats.all()][:3])
    services.deal_record(game=other, finishing_order=[b, a, c])

    rows = {row["player_id"]: row for row in season_standings(season=season)}

    assert (rows[a]["games"], rows[a]["wins"], rows[a]["points"]) == (2, 1, 1)
    assert rows[a]["mean_position"] == pytest.approx((1 + 1 + 2) / 3)
    assert (rows[a]["presidents"], rows[a]["citizens"]) == (2, 1)
    assert (rows[d]["games"], rows[d]["scums"], rows[d]["points"]) == (1, 2, 4)
    assert (rows[b]["vice_presidents"], rows[b]["vice_scums"], rows[b]["presidents"]) == (1, 1, 1)


def test_standings_order_wins_then_points_then_mean_position_then_presidents_then_name():
    season = make_season(scoring_limit=6)
    players = [PlayerFactory(name=name, clubs=[season.club]) for name in "ZYXW"]
    game = make_game(season=season, players=players)
    z, y, x, w = (p.pk for p in players)
    # No game has ended: no wins. Penalty: fewer points first.
    services.deal_record(game=game, finishing_order=[z, y, x, w])  # z0 y1 x1 w2
    services.deal_record(game=game, finishing_order=[x, y, z, w])  # z1 y2 x1 w4

    names = [row["name"] for row in season_standings(season=season)]
    # z and x tie on 1 point; x's mean position 2.0 ties z's 2.0; both one President: by name
    assert names == ["X", "Z", "Y", "W"]

    services.deal_record(game=game, finishing_order=[y, z, x, w])  # w 6: ends, y2 z2 x2
    names = [row["name"] for row in season_standings(season=season)]
    # no one has fewer than 2: y, z, x share the win; mean positions y 5/3, z 2, x 7/3
    assert names == ["Y", "Z", "X", "W"]


def test_more_points_rank_higher_outside_penalty_scoring():
    season = make_season(scoring_system="fixed-rounds", scoring_deals=5)
    game = make_game(season=season)
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])  # a 2, b 1
    services.deal_record(game=game, finishing_order=[b, c, d, a])  # b 2, c 1

    order = [row["player_id"] for row in season_standings(season=season)]

    # b 3, a 2, c 1, d 0: a's 2 points beat c's 1 though both have mean position 2.5
    assert order == [b, a, c, d]


def build_season(players, games, deals_per_game):
    season = make_season(scoring_system="fixed-rounds", scoring_deals=deals_per_game)
    people = [PlayerFactory(clubs=[season.club]) for _ in range(players)]
    for g in range(games):
        table = [people[(g + i) % players] for i in range(4)]
        game = services.game_create(season=season, players=table)
        for k in range(deals_per_game):
            order = [p.pk for p in table[k % 4:] + table[:k % 4]]
            services.deal_record(game=game, finishing_order=order)
    return season


@pytest.mark.parametrize("players, games, deals", [(4, 1, 2), (12, 9, 5)])
def test_standings_take_the_same_queries_whatever_the_size(django_assert_num_queries, players,
                                                           games, deals):
    season = build_season(players, games, deals)

    with django_assert_num_queries(2):  # the results version, then the aggregate
        rows = season_standings(season=season)
    with django_assert_num_queries(1):  # cached: the results version only
        assert season_standings(season=season) == rows

    assert len(rows) == players
    assert sum(row["deals_played"] for row in rows) == games * deals * 4


def test_cached_standings_change_with_every_recorded_edited_or_deleted_deal():
    season = make_season(scoring_limit=6)
    game = make_game(season=season)
    a, b, c, d = seated_ids(game)

    def points():
        return {row["player_id"]: row["points"] for row in season_standings(season=season)}

    deal = services.deal_record(game=game, finishing_order=[a, b, c, d])
    assert points() == {a: 0, b: 1, c: 1, d: 2}
    services.deal_edit(deal=deal, finishing_order=[d, b, c, a])
    assert points() == {a: 2, b: 1, c: 1, d: 0}
    services.deal_record(game=game, finishing_order=[d, a, b, c])
    assert points() == {a: 3, b: 2, c: 3, d: 0}
    services.deal_delete(deal=game.deal_set.get(number=2))
    assert points() == {a: 2, b: 1, c: 1, d: 0}


def test_saving_a_stale_season_never_moves_its_results_version_back():
    season = make_season(scoring_limit=6)
    stale = type(season).objects.get(pk=season.pk)
    game = make_game(season=season)
    services.deal_record(game=game, finishing_order=seated_ids(game))
    version = type(season).objects.get(pk=season.pk).results_version
    assert version > stale.results_version

    stale.name = "Renamed"
    stale.save()

    fresh = type(season).objects.get(pk=season.pk)
    assert (fresh.name, fresh.results_version) == ("Renamed", version)
