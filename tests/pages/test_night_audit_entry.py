"""What a club night's phones and organisers see on a table's entry page when the night moves
on around it (found by running a night from several phones at once)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from league import services
from tests.league.factories import PlayerFactory
from tests.league.test_table_links import confirmed_round
from tests.pages.test_enter import order_data

pytestmark = pytest.mark.django_db


def at(game, action="game_enter"):
    return reverse(f"league:{action}", args=[game.pk])


def phone(link) -> Client:
    client = Client()
    client.get(reverse("league:table_link_open", args=[link.token]))
    return client


@pytest.fixture
def cancelled():
    """Round 1's table 2, cancelled by its organiser before its first deal."""
    organiser, games = confirmed_round(tables=2, size=4)
    game = games[1]
    services.game_cancel(game=game, by=organiser)
    game.refresh_from_db()
    return organiser, game


def test_a_cancelled_games_table_phone_is_told_so_and_offered_no_deal(cancelled):
    organiser, game = cancelled
    table = phone(game.table_links.get())
    page = table.get(at(game))
    assert f"Game {game.number} was cancelled" in page.text
    assert "Who went out first?" not in page.text and 'id="order-form"' not in page.text
    assert f"Game {game.number}: deal 1" not in page.text


def test_a_cancelled_games_entry_page_offers_the_organiser_no_deal(cancelled, client):
    organiser, game = cancelled
    client.force_login(organiser)
    page = client.get(at(game))
    assert page.status_code == 200
    assert f"Game {game.number} was cancelled" in page.text
    assert 'id="order-form"' not in page.text


def test_a_table_card_names_who_sits_there_now(client):
    """A table link's card (night page and printed sheet) lists the table as it is: someone
    who left is gone from it, someone who joined is on it."""
    organiser, (game, other) = confirmed_round(tables=2, size=5)
    season = game.season
    seated = list(game.seats.order_by("number").select_related("player"))
    leaver = seated[2].player
    services.deal_record(game=game, finishing_order=[s.player_id for s in seated], number=1,
                         by=organiser)
    services.seat_change_apply(game=game, leaving=[leaver], by=organiser)
    newcomer = PlayerFactory(name="Newcomer", clubs=[season.club])
    services.seat_change_apply(game=game, joining=[newcomer], by=organiser)
    client.force_login(organiser)

    for page in (client.get(reverse("league:night", args=[season.pk])),
                 client.get(reverse("league:table_cards", args=[season.pk]))):
        tables = re.findall(r'game (\d+)<.*?class="(?:seats|card-seats)">(.*?)</(?:p|ol)>',
                            page.text, re.S)
        names = {int(number): re.findall(r"<bdi>(.*?)</bdi>", seats) for number, seats in tables}
        assert names[game.number] == [s.player.name for s in seated if s.player != leaver] + [
            "Newcomer"]


@pytest.fixture
def left_meanwhile():
    """A table of four after deal 1, two phones on its link; the first enters that the third
    player leaves before deal 2, while the second phone's page still shows four."""
    organiser, (game,) = confirmed_round(tables=1, size=4)
    seated = list(game.seats.order_by("number").select_related("player"))
    services.deal_record(game=game, finishing_order=[s.player_id for s in seated], number=1,
                         by=organiser)
    first, second = phone(game.table_links.get()), phone(game.table_links.get())
    first.post(at(game, "seat_change"), {"leaving": [seated[2].player_id]})
    assert game.seats.get(player=seated[2].player).left_before == 2
    return game, second, [s.player for s in seated]


def test_a_deal_from_a_page_loaded_before_someone_left_names_who_left(left_meanwhile):
    """The second phone's deal 2 lists the four it showed: the refusal names the one who left,
    not one of those it listed as missing."""
    game, second, (ann, ben, gone, dee) = left_meanwhile
    data = order_data([gone.pk, dee.pk, ben.pk, ann.pk], number=2)
    for action in ("deal_preview", "deal_record"):
        refused = second.post(at(game, action), data, headers={"Accept": "application/json"})
        words = refused.json()["error"] if action == "deal_record" else refused.text
        assert refused.status_code == 400
        assert f"not at the table for this deal: {gone.name}" in words
        assert "missing" not in words
    assert game.deal_set.count() == 1


def test_a_leaving_entered_on_two_phones_says_it_was_entered_already(left_meanwhile):
    game, second, (ann, ben, gone, dee) = left_meanwhile
    again = second.post(at(game, "seat_change"), {"leaving": [gone.pk]})
    assert again.status_code == 400
    assert f"{gone.name} already left before deal 2" in again.text
    assert "choose a player who leaves or joins" not in again.text
    assert game.seat_changes.count() == 1


def test_a_join_from_a_page_loaded_before_the_newcomer_sat_elsewhere_says_where(client):
    organiser, (game, other) = confirmed_round(tables=2, size=4)
    for table in (game, other):
        services.deal_record(game=table, number=1, by=organiser, finishing_order=list(
            table.seats.order_by("number").values_list("player_id", flat=True)))
    newcomer = PlayerFactory(name="Nia", clubs=[game.season.club])
    table = phone(game.table_links.get())
    assert f'value="{newcomer.pk}"' in table.get(at(game)).text  # offered to join here
    services.seat_change_apply(game=other, joining=[newcomer], by=organiser)  # sat there

    refused = table.post(at(game, "seat_change"), {"joining": [newcomer.pk]})
    assert refused.status_code == 400
    assert f"Nia cannot join: they sit at round 1, table 2 (game {other.number}) now" in (
        refused.text)
    assert not game.seats.filter(player=newcomer).exists()


def test_a_deal_kept_for_a_cancelled_game_is_refused_not_a_conflict_of_numbers(cancelled):
    """The outbox shows a 409 as another phone's deal of that number ("enter it again as the
    next deal"); a game cancelled meanwhile takes no deal at all: a refusal, in its words."""
    organiser, game = cancelled
    table = phone(game.table_links.get())
    ids = list(game.seats.order_by("number").values_list("player_id", flat=True))
    sent = table.post(at(game, "deal_record"), {**order_data(ids), "kept_offline": "1"},
                      headers={"Accept": "application/json"})
    assert sent.status_code == 400
    assert sent.json()["error"] == (f"game {game.number} was cancelled: nothing can be entered "
                                    "in it; if its players sit at another table now, scan that "
                                    "table's code")
    assert not game.deal_set.exists()


def test_a_deal_kept_for_a_game_its_table_moved_on_from_is_refused_in_words(client):
    """A phone kept deal 2 offline; meanwhile time was called and the organiser started "New
    game, same table", which the link moved to. The deal is judged, not held for ever as
    "for another game": the table plays the next game now."""
    organiser, (game,) = confirmed_round(tables=1, size=4)
    ids = list(game.seats.order_by("number").values_list("player_id", flat=True))
    kept = phone(game.table_links.get())
    services.deal_record(game=game, finishing_order=ids, number=1, by=organiser)
    game = services.game_time_called(game=game, by=organiser)
    following = services.game_same_table(game=game, by=organiser)

    sent = kept.post(at(game, "deal_record"), {**order_data(ids, number=2), "kept_offline": "1"},
                     headers={"Accept": "application/json"})
    assert sent.status_code == 400
    assert sent.json()["error"] == (
        f"This table plays game {following.number} now, not game {game.number}: this was "
        f"not stored; if it was played in game {following.number}, enter it there.")
    assert game.deal_set.count() == 1 and not following.deal_set.exists()
