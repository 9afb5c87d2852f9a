"""What a club night's phones and organisers see on a table's entry page when the night moves
on around it (found by running a night from several phones at once)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from league import services
from tests.league.factories import PlayerFactory
from tests.league.test_table_links import confirmed_round

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
