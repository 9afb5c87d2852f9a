"""What a club night's phones and organisers see on a table's entry page when the night moves
on around it (found by running a night from several phones at once)."""

import pytest
from django.test import Client
from django.urls import reverse

from league import services
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
