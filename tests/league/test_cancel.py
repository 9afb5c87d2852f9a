"""Cancel and close (issue #28): a game or a round confirmed by mistake is cancelled before any
deal and vanishes from every list of games; the end of the night calls time on every open table
with each game's own scoring system's rule (docs/league.md "Time called")."""

import pytest
from django.urls import reverse

from league import nights, rounds, selectors, services
from league.errors import Conflict, LeagueError
from league.models import AuditEntry, Game
from tests.league.factories import PlayerFactory, UserFactory, make_season, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    return make_season(scoring_limit=20)


@pytest.fixture
def people(season):
    return [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(8)]


def confirm(season, people, **kwargs):
    return nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:8], 1)],
                                **kwargs)


def test_a_cancelled_game_vanishes_from_every_list_of_games(client, season, people):
    first, second = confirm(season, people)
    services.deal_record(game=first, finishing_order=seated_ids(first))
    services.game_cancel(game=second, by=UserFactory())
    tonight = rounds.night_of()
    assert [t.game for t in nights.night_board(season, tonight).rounds[0]] == [first]
    assert rounds.season_rounds(season)[0].tables == (
        rounds.season_rounds(season)[0].tables[0],)
    assert list(selectors.season_games(season=season)) == [first]
    assert [g.pk for g in selectors.recent_games()] == [first.pk]
    assert list(selectors.player_seats(player=people[5])) == []
    assert {row["name"] for row in selectors.season_standings(season=season)} == {
        p.name for p in people[:4]}
    shown, cancelled = (reverse("league:game_detail", args=[g.pk]) for g in (first, second))
    for page in (reverse("home"), reverse("league:player_detail", args=[people[1].pk]),
                 reverse("league:season_detail", args=[season.pk])):
        text = client.get(page).text
        assert f'href="{shown}"' in text and f'href="{cancelled}"' not in text, page
    entry = AuditEntry.objects.get(action="game cancelled")
    assert entry.details["players"] == [p.name for p in people[4:8]]


def test_a_game_with_deals_or_ended_cannot_be_cancelled_and_a_cancelled_one_takes_no_deal(
        season, people):
    first, second = confirm(season, people)
    services.deal_record(game=first, finishing_order=seated_ids(first))
    with pytest.raises(Conflict, match="game 1 has 1 deal: a game that was played cannot"):
        services.game_cancel(game=first)
    services.game_cancel(game=second)
    with pytest.raises(Conflict, match="game 2 was already cancelled"):
        services.game_cancel(game=second)
    with pytest.raises(Conflict, match="game 2 was cancelled: nothing can be entered"):
        services.deal_record(game=second, finishing_order=seated_ids(second))
    assert Game.objects.get(pk=first.pk).status == Game.OPEN


def test_a_round_is_cancelled_all_or_nothing(season, people):
    first, second = confirm(season, people)
    services.deal_record(game=second, finishing_order=seated_ids(second))
    with pytest.raises(Conflict, match="game 2 has 1 deal"):
        nights.round_cancel(season=season, night=rounds.night_of(), number=1)
    assert not Game.objects.filter(status=Game.CANCELLED).exists()  # game 1 neither
    with pytest.raises(LeagueError, match="there is no round 2 that night"):
        nights.round_cancel(season=season, night=rounds.night_of(), number=2)


def test_a_round_confirmed_by_mistake_is_cancelled_and_the_next_plan_forgets_it(
        season, people):
    for game in confirm(season, people):
        services.deal_record(game=game, finishing_order=seated_ids(game))
        services.game_time_called(game=game)
    mistaken = confirm(season, people, round_number=2)  # the same tables again
    nights.round_cancel(season=season, night=rounds.night_of(), number=2)
    assert {g.status for g in Game.objects.filter(pk__in=[g.pk for g in mistaken])} == {
        Game.CANCELLED}
    assert len(rounds.season_rounds(season)) == 1
    again = confirm(season, people, round_number=2)  # round 2 can be confirmed again
    assert len(rounds.night_rounds(season, rounds.night_of())) == 2
    assert [g.number for g in again] == [5, 6]


def test_a_round_already_confirmed_or_a_round_in_play_is_refused(season, people):
    first, _ = confirm(season, people, round_number=1)
    with pytest.raises(Conflict, match=r"round 1 was already confirmed \(games 1, 2\)"):
        confirm(season, people, round_number=1)
    with pytest.raises(LeagueError, match="the next is round 2, not 3"):
        confirm(season, people, round_number=3, while_in_play=True)
    services.deal_record(game=first, finishing_order=seated_ids(first))
    services.game_time_called(game=first)
    table_one = [(people[:4], 0)]
    with pytest.raises(nights.RoundInPlay,
                       match=r"round 1 is still in play: table 2 \(game 2\)"):
        nights.night_confirm(season=season, tables=table_one, round_number=2)
    # Yes, start it anyway: not with those still playing at table 2 (one person, one table).
    with pytest.raises(Conflict, match=r"P4, P5, P6 and P7 are still playing at round 1, "
                                       r"table 2 \(game 2\)"):
        confirm(season, people, round_number=2, while_in_play=True)
    assert Game.objects.count() == 2
    nights.night_confirm(season=season, tables=table_one, round_number=2, while_in_play=True)
    assert Game.objects.count() == 3


def test_same_table_continues_its_round_and_its_table(season, people):
    first, second = confirm(season, people)
    services.deal_record(game=first, finishing_order=seated_ids(first))
    first = services.game_time_called(game=first)
    again = services.game_same_table(game=first)
    assert again.continues == first
    assert services.game_same_table(game=first) == again  # found, not made twice
    (tables,) = rounds.night_rounds(season, rounds.night_of())
    assert [(g.number, t) for g, t in tables] == [(1, 1), (3, 1), (2, 2)]
    assert [(g.number, t) for g, t in rounds.in_play(tables)] == [(3, 1), (2, 2)]
