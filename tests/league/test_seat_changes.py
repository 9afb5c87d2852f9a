"""Players entering and leaving between deals (RULES.md "Players entering and leaving")."""

import pytest

from gameplay.engine.roles import Role
from league import nights, rounds, services
from league.errors import LeagueError
from league.models import AuditEntry, Seat, SeatChange
from league.selectors import game_next_deal, game_next_ranking, game_sheet, season_standings
from tests.league.factories import PlayerFactory, make_game, make_season, seated_ids

pytestmark = pytest.mark.django_db


def friday_game(players=5):
    return make_game(players=players, season_kwargs={"preset": "friday", "scoring_limit": 6})


def test_the_president_leaving_shifts_the_ranks_up_and_the_preview_changes_nothing():
    game = friday_game()
    a, b, c, d, e = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d, e])
    leaver = game.seats.get(player_id=a).player
    audit_before = AuditEntry.objects.count()

    preview = services.seat_change_preview(game=game, leaving=[leaver])

    # the Vice President becomes President, the best neutral Vice President
    assert preview == [(b, Role.PRESIDENT), (c, Role.VICE_PRESIDENT), (d, Role.VICE_SCUM),
                       (e, Role.SCUM)]
    assert not SeatChange.objects.exists()
    assert game.seats.get(player_id=a).left_before is None
    assert AuditEntry.objects.count() == audit_before

    assert services.seat_change_apply(game=game, leaving=[leaver]) == preview
    assert game_next_ranking(game=game) == preview
    change = SeatChange.objects.get()
    assert (change.player_id, change.kind, change.before_deal) == (a, "leave", 2)


def test_the_next_exchange_follows_the_shifted_ranks():
    game = friday_game()
    a, b, c, d, e = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d, e])
    services.seat_change_apply(game=game, leaving=[game.seats.get(player_id=e).player])

    nxt = game_next_deal(game=game)

    pairs = [(g.pk, r.pk, n) for g, r, n in nxt.exchanges]
    # Scum leaves: the Vice-Scum d becomes Scum and the worst neutral c Vice-Scum
    assert pairs == [(d, a, 2), (a, d, 2), (c, b, 1), (b, c, 1)]
    assert nxt.exchange_in_preset and nxt.number == 2


def test_a_joiner_is_a_citizen_and_must_be_in_the_next_finishing_order():
    game = friday_game(players=4)
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    newcomer = PlayerFactory(clubs=[game.season.club])

    ranking = services.seat_change_apply(game=game, joining=[newcomer])

    assert ranking == [(a, Role.PRESIDENT), (b, Role.VICE_PRESIDENT), (newcomer.pk, Role.CITIZEN),
                       (c, Role.VICE_SCUM), (d, Role.SCUM)]
    with pytest.raises(LeagueError, match="missing: " + newcomer.name):
        services.deal_record(game=game, finishing_order=[a, b, c, d])
    deal = services.deal_record(game=game, finishing_order=[newcomer.pk, a, b, c, d])
    assert deal.places.get(player=newcomer).seat == 4


def test_a_leaver_cannot_be_in_later_deals_but_earlier_deals_still_edit_with_them():
    game = friday_game()
    a, b, c, d, e = seated_ids(game)
    first = services.deal_record(game=game, finishing_order=[a, b, c, d, e])
    services.seat_change_apply(game=game, leaving=[game.seats.get(player_id=c).player])

    with pytest.raises(LeagueError, match="not at the table for this deal: "):
        services.deal_record(game=game, finishing_order=[a, b, c, d, e])
    services.deal_record(game=game, finishing_order=[b, a, d, e])
    services.deal_edit(deal=first, finishing_order=[c, a, b, d, e])

    assert game.seats.get(player_id=c).points == 0


@pytest.mark.parametrize("case, message", [
    ("not seated", "cannot leave: not at the table"),
    ("already seated", "cannot join: already at the table"),
    ("outsider", "does not play in"),
    ("too few", "the table cannot go on with 1 players"),
    ("nobody", "choose a player who leaves or joins"),
])
def test_impossible_seat_changes_are_refused_and_change_nothing(case, message):
    game = make_game(players=2)
    a, b = (s.player for s in game.seats.order_by("number"))
    services.deal_record(game=game, finishing_order=[a.pk, b.pk])
    kwargs = {"not seated": {"leaving": [PlayerFactory(clubs=[game.season.club])]},
              "already seated": {"joining": [a]},
              "outsider": {"joining": [PlayerFactory()]},
              "too few": {"leaving": [a]},
              "nobody": {}}[case]
    before = list(Seat.objects.values_list("pk", "left_before"))

    with pytest.raises(LeagueError, match=message):
        services.seat_change_apply(game=game, **kwargs)

    assert list(Seat.objects.values_list("pk", "left_before")) == before
    assert not SeatChange.objects.exists()


def test_no_seat_change_before_the_first_deal_or_after_the_end():
    game = make_game(season_kwargs={"scoring_limit": 2})
    a, b, c, d = seated_ids(game)
    leaver = game.seats.get(player_id=a).player

    with pytest.raises(LeagueError, match="no deal has been played yet"):
        services.seat_change_apply(game=game, leaving=[leaver])
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    with pytest.raises(LeagueError, match="has ended: players can no longer enter or leave"):
        services.seat_change_apply(game=game, leaving=[leaver])


def test_a_player_who_left_cannot_rejoin_the_same_game():
    game = friday_game()
    a, b, c, d, e = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d, e])
    leaver = game.seats.get(player_id=a).player
    services.seat_change_apply(game=game, leaving=[leaver])
    services.deal_record(game=game, finishing_order=[b, c, d, e])

    with pytest.raises(LeagueError, match="already played at this table and left"):
        services.seat_change_apply(game=game, joining=[leaver])


def test_deleting_the_last_deal_moves_a_pending_seat_change_up():
    game = friday_game()
    a, b, c, d, e = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d, e])
    last = services.deal_record(game=game, finishing_order=[b, a, c, d, e])
    services.seat_change_apply(game=game, leaving=[game.seats.get(player_id=e).player])

    services.deal_delete(deal=last)

    assert SeatChange.objects.get().before_deal == 2
    assert game.seats.get(player_id=e).left_before == 2
    assert game_next_ranking(game=game)[0] == (a, Role.PRESIDENT)


def test_a_player_seated_at_another_open_table_of_the_club_cannot_join():
    """One person, one table: Dev, still seated at game 2 (round 1, table 2 tonight), is refused
    at game 1 in words, and nothing changes; once Dev has left game 2, Dev may join. A table
    of another season of the club counts too: it is the same room."""
    first = friday_game()
    season = first.season
    club = season.club
    dev = PlayerFactory(name="Dev", clubs=[club])
    others = [PlayerFactory(clubs=[club]) for _ in range(3)]
    (second,) = nights.night_confirm(season=season, tables=[([dev, *others], 0)],
                                     while_in_play=True)
    services.deal_record(game=first, finishing_order=seated_ids(first))
    services.deal_record(game=second, finishing_order=seated_ids(second))

    with pytest.raises(LeagueError, match=r"Dev cannot join: playing at round 1, table 2 "
                                          rf"\(game {second.number}\)"):
        services.seat_change_apply(game=first, joining=[dev])
    with pytest.raises(LeagueError, match="Dev cannot join"):
        services.seat_change_preview(game=first, joining=[dev])
    assert not first.seats.filter(player=dev).exists() and not SeatChange.objects.exists()

    services.seat_change_apply(game=second, leaving=[dev])
    services.seat_change_apply(game=first, joining=[dev])
    assert first.seats.get(player=dev).joined_before == 2

    elsewhere = make_game(season=make_season(club=club, name="Winter"),
                          players=[PlayerFactory(name="Ann", clubs=[club]), *others[:3]])
    with pytest.raises(LeagueError, match=rf"Ann cannot join: playing at round 1, table 1 "
                                          rf"\(game {elsewhere.number}\) of Winter, still open"):
        services.seat_change_apply(game=first, joining=[elsewhere.seats.get(number=0).player])


def test_a_leaver_with_the_fewest_penalty_points_is_not_the_winner_nor_counted_a_win():
    """docs/league.md "Scoring and standings": a player who left before the end is not among
    the winners, decided among those still seated by the same rule."""
    game = friday_game()  # penalty to 6
    a, b, c, d, e = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d, e])  # a: 0 points
    services.seat_change_apply(game=game, leaving=[game.seats.get(player_id=a).player])
    services.deal_record(game=game, finishing_order=[b, c, d, e])
    services.deal_record(game=game, finishing_order=[b, c, d, e])  # e reaches 6

    game.refresh_from_db()
    assert game.status == "finished"
    points = dict(game.seats.values_list("player_id", "points"))
    assert points == {a: 0, b: 1, c: 3, d: 3, e: 6}  # the leaver's total stays on the record
    assert list(game.seats.filter(is_winner=True).values_list("player_id", flat=True)) == [b]
    wins = {row["player_id"]: row["wins"] for row in season_standings(season=game.season)}
    assert wins == {a: 0, b: 1, c: 0, d: 0, e: 0}


def test_time_called_after_a_leave_the_players_still_seated_share_equal_totals():
    game = friday_game()
    a, b, c, d, e = seated_ids(game)
    for last in (e, d, c, b):  # a first every deal; the others 5 points each
        services.deal_record(game=game, finishing_order=[a, *[p for p in (b, c, d, e)
                                                              if p != last], last])
    services.seat_change_apply(game=game, leaving=[game.seats.get(player_id=a).player])

    leading = nights.night_board(game.season, rounds.night_of()).rounds[0][0].leaders
    assert sorted(leading) == [b, c, d, e]  # who would win if time were called now
    sheet = game_sheet(game=game).score
    sheet.call_time()  # the "Call time…" page's preview
    assert sorted(sheet.winners) == [b, c, d, e]

    services.game_time_called(game=game)

    points = dict(game.seats.values_list("player_id", "points"))
    assert points == {a: 0, b: 5, c: 5, d: 5, e: 5}
    winners = game.seats.filter(is_winner=True).values_list("player_id", flat=True)
    assert sorted(winners) == [b, c, d, e]
    wins = {row["player_id"]: row["wins"] for row in season_standings(season=game.season)}
    assert wins == {a: 0, b: 1, c: 1, d: 1, e: 1}
