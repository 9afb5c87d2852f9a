"""Table links through the services (league.table_links, issue #28): confirming a round gives
each game a link; a link writes its own game's deals and seat changes and undoes only its own
last deal, until it is revoked or time is called on its game."""

import pytest

from league import nights, services, table_links
from league.errors import Conflict, LeagueError
from league.models import AuditEntry, Deal, IdempotentRequest, TableLink
from tests.league.factories import PlayerFactory, UserFactory, make_season

pytestmark = pytest.mark.django_db


def confirmed_round(tables=2, size=4, dealers=None):
    """A round of ``tables`` tables of ``size`` players (P0, P1, …) confirmed by an organiser
    (penalty scoring to 50: several deals before a game ends), each table's first dealer in
    ``dealers`` (seat numbers; seat 0 by default): the organiser and the games."""
    season = make_season(scoring={"system": "penalty", "limit": 50})
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    players = [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(tables * size)]
    dealers = dealers or [0] * tables
    games = nights.night_confirm(
        season=season, by=organiser,
        tables=[(players[i * size:(i + 1) * size], dealers[i]) for i in range(tables)])
    return organiser, games


def order_of(game):
    return list(game.seats.order_by("number").values_list("player_id", flat=True))


def test_confirming_a_round_gives_each_game_one_unguessable_link():
    organiser, games = confirmed_round(tables=3)
    links = list(TableLink.objects.order_by("game__number"))
    assert [link.game for link in links] == games
    assert all(link.created_by == organiser and link.revoked_at is None for link in links)
    # token_urlsafe(32): 32 random bytes, 43 characters; all different
    assert all(len(link.token) >= 43 for link in links)
    assert len({link.token for link in links}) == 3


def test_a_link_records_its_games_deal_said_to_come_from_it():
    _, (game, _) = confirmed_round()
    link = game.table_links.get()
    deal = services.deal_record(game=game, finishing_order=order_of(game), number=1,
                                source=Deal.PAGE, table_link=link)
    assert (deal.source, deal.table_link, deal.recorded_by) == (Deal.TABLE_LINK, link, None)


def test_a_link_is_refused_for_another_game():
    _, (game, other) = confirmed_round()
    link = game.table_links.get()
    with pytest.raises(table_links.LinkRefused, match="another game"):
        services.deal_record(game=other, finishing_order=order_of(other), number=1,
                             table_link=link)
    with pytest.raises(table_links.LinkRefused, match="another game"):
        services.seat_change_apply(game=other, leaving=[other.seats.first().player],
                                   table_link=link)
    assert not Deal.objects.exists()


def test_a_revoked_link_is_refused_and_the_revoke_is_audited():
    organiser, (game, _) = confirmed_round()
    link = game.table_links.get()
    table_links.link_revoke(link=link, by=organiser)
    table_links.link_revoke(link=link, by=organiser)  # twice is once
    with pytest.raises(table_links.LinkRefused, match="revoked"):
        services.deal_record(game=game, finishing_order=order_of(game), number=1,
                             table_link=link)
    assert not Deal.objects.exists()
    assert AuditEntry.objects.filter(action="table link revoked").count() == 1
    assert table_links.live_links([game]) == []


def test_time_called_stops_the_link():
    organiser, (game, _) = confirmed_round()
    link = game.table_links.get()
    services.deal_record(game=game, finishing_order=order_of(game), table_link=link)
    services.game_time_called(game=game, by=organiser)
    with pytest.raises(table_links.LinkRefused, match="time was called"):
        services.deal_undo(game=game, deal_id=game.deal_set.get().pk, table_link=link)
    assert table_links.live_links([game]) == []
    assert table_links.refusal(TableLink.objects.get(pk=link.pk)) is not None


def test_a_link_undoes_its_own_last_deal_only():
    organiser, (game, _) = confirmed_round()
    link = game.table_links.get()
    mine = services.deal_record(game=game, finishing_order=order_of(game), table_link=link)
    assert services.deal_undo(game=game, deal_id=mine.pk, table_link=link) == (1, [])
    theirs = services.deal_record(game=game, finishing_order=order_of(game), by=organiser,
                                  source=Deal.PAGE)
    with pytest.raises(table_links.LinkRefused, match="not entered with this table link"):
        services.deal_undo(game=game, deal_id=theirs.pk, table_link=link)
    assert game.deal_set.get() == theirs


def test_a_link_enters_a_seat_change_of_its_game():
    _, (game, _) = confirmed_round(size=5)
    link = game.table_links.get()
    services.deal_record(game=game, finishing_order=order_of(game), table_link=link)
    leaver = game.seats.order_by("number").first().player
    services.seat_change_apply(game=game, leaving=[leaver], table_link=link)
    assert game.seats.get(player=leaver).left_before == 2


def test_a_form_sent_twice_through_a_link_records_once_under_the_links_key():
    _, (game, _) = confirmed_round()
    link = game.table_links.get()
    sent = {"game": game, "finishing_order": order_of(game), "number": 1,
            "source": Deal.OUTBOX, "by": None, "token": "t1", "table_link": link}
    assert services.deal_record_once(**sent) == (1, True)
    assert services.deal_record_once(**sent) == (1, False)
    assert game.deal_set.count() == 1
    assert IdempotentRequest.objects.get().table_link == link


def test_one_links_form_token_is_not_anothers():
    _, (game, other) = confirmed_round()
    mine, theirs = game.table_links.get(), other.table_links.get()
    services.deal_record_once(game=game, finishing_order=order_of(game), number=1,
                              source=Deal.PAGE, by=None, token="same", table_link=mine)
    assert services.deal_record_once(game=other, finishing_order=order_of(other), number=1,
                                     source=Deal.PAGE, by=None, token="same",
                                     table_link=theirs) == (1, True)


def test_a_token_is_found_only_whole():
    _, (game, _) = confirmed_round()
    link = game.table_links.get()
    assert table_links.link_of_token(link.token) == link
    assert table_links.link_of_token(link.token[:-1]) is None
    assert table_links.link_of_token("") is None
    assert table_links.link_of_token("x" * 10_000) is None


def test_an_organisers_deal_is_no_links_and_a_link_is_no_way_round_the_rules():
    organiser, (game, _) = confirmed_round()
    deal = services.deal_record(game=game, finishing_order=order_of(game), by=organiser,
                                source=Deal.PAGE)
    assert (deal.source, deal.table_link) == (Deal.PAGE, None)
    with pytest.raises(LeagueError, match="finishing order"):
        services.deal_record(game=game, finishing_order=order_of(game)[:2],
                             table_link=game.table_links.get())
    assert game.deal_set.count() == 1


def test_new_game_same_table_takes_the_tables_link_along():
    """The phones at a table keep entering when its game ends and the organiser starts "New
    game, same table" (issue #28: the link is the table's, and that game stays at its table)."""
    organiser, (game, _) = confirmed_round()
    link = game.table_links.get()
    first = services.deal_record(game=game, finishing_order=order_of(game), number=1,
                                 table_link=link)
    game = services.game_time_called(game=game, by=organiser)
    following = services.game_same_table(game=game, by=organiser)
    link.refresh_from_db()
    assert link.game == following and table_links.refusal(link) is None
    deal = services.deal_record(game=following, finishing_order=order_of(following), number=1,
                                table_link=link)
    assert deal.table_link == link
    with pytest.raises(table_links.LinkRefused, match="another game"):  # the ended game's undo
        services.deal_undo(game=game, deal_id=first.pk, table_link=link)


def test_a_revoked_tables_link_is_replaced_by_a_new_one_and_only_while_it_has_none():
    """A revoke tapped by mistake need not take the table's phone away for the rest of the
    game: an organiser makes the table a new link (a new token; the old one stays revoked)."""
    organiser, (game, other) = confirmed_round()
    old = game.table_links.get()
    with pytest.raises(Conflict, match=f"game {game.number} already has a working table link"):
        table_links.link_new(game=game, by=organiser)
    table_links.link_revoke(link=old, by=organiser)

    new = table_links.link_new(game=game, by=organiser)

    assert new.token != old.token and table_links.refusal(new) is None
    assert table_links.live_links([game]) == [new]
    assert table_links.refusal(TableLink.objects.get(pk=old.pk)) is not None
    assert AuditEntry.objects.filter(action="table link made", actor=organiser).count() == 1
    services.deal_record(game=game, finishing_order=order_of(game), table_link=new)

    services.game_time_called(game=game, by=organiser)
    table_links.link_revoke(link=new, by=organiser)
    with pytest.raises(LeagueError, match=f"game {game.number} has ended"):
        table_links.link_new(game=game, by=organiser)
    assert TableLink.objects.filter(game=game).count() == 2
