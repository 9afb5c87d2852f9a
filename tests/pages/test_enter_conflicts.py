"""The entry page's side of issue #26, items 1 and 2: a deal number recorded meanwhile on
another phone is refused in words (the form's post and the script's JSON), and a game that
has ended is reopened, after a preview in words, before its deals are undone or corrected."""

import pytest

from league import services
from league.models import Deal, Game
from tests.league.factories import UserFactory, make_game, seated_ids
from tests.pages.test_enter import words
from tests.pages.test_enter_correct import enter_url, organiser  # noqa: F401 (organiser: a fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("organiser")]


@pytest.fixture
def game():
    """A new game, penalty points to 6; ``organiser`` is signed in as its organiser, "org"."""
    return make_game(season_kwargs={"scoring_limit": 6})


def order_data(order, number, token="t1"):
    return {"token": token, "number": number,
            **{f"place_{i}": p for i, p in enumerate(order, start=1)}}


@pytest.mark.parametrize("action", ["deal_preview", "deal_record"])
def test_a_deal_recorded_meanwhile_on_another_phone_is_refused_in_words(client, game, action):
    order = seated_ids(game)
    services.deal_record(game=game, finishing_order=order, number=1, source=Deal.API,
                         by=UserFactory(username="api-user"))

    page = client.post(enter_url(game, action), order_data(order[::-1], 1), follow=True)

    assert page.redirect_chain[-1][0] == enter_url(game)
    assert "Deal 1 was already recorded at " in page.text
    assert "from the API by api-user (finishing order: " in page.text
    assert "nothing was recorded, the next deal is deal 2." in page.text
    assert f"Game {game.number}: deal 2" in page.text
    assert game.deal_set.count() == 1


def test_the_script_gets_409_and_a_replay_of_its_own_deal_is_still_answered_as_before(
        client, game):
    order = seated_ids(game)
    json = {"Accept": "application/json"}
    record = enter_url(game, "deal_record")
    mine = client.post(record, order_data(order, 1, token="mine"), headers=json)

    replayed = client.post(record, order_data(order, 1, token="mine"), headers=json)
    other_phone = client.post(record, order_data(order, 1, token="theirs"), headers=json)

    assert mine.status_code == 201
    assert replayed.status_code == 200 and replayed.json()["recorded"] is False
    assert other_phone.status_code == 409 and other_phone.json()["conflict"] is True
    assert other_phone.json()["error"].startswith("deal 1 was already recorded at ")
    assert "from the entry page by org" in other_phone.json()["error"]
    assert game.deal_set.count() == 1


@pytest.fixture
def called(game):
    """Time called after two deals: a and b share the win on 1 point each."""
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[b, a, c, d])
    services.game_time_called(game=game)
    return game


def test_an_ended_game_offers_reopening_instead_of_undo_and_refuses_an_undo(client, called):
    last = called.deal_set.get(number=2)

    page = client.get(enter_url(called))
    undo = client.post(enter_url(called, "deal_undo"), {"deal": last.pk}, follow=True)

    assert "Undo deal 2" not in page.text and "?correct=" not in page.text
    assert "Reopen game 1…" in page.text
    assert ("Game 1 has ended (time was called): an organiser must reopen it before undoing "
            "its last deal; nothing was changed") in undo.text
    assert called.deal_set.count() == 2


def test_reopening_says_whose_result_changes_then_undo_and_entry_work(client, called):
    names = dict(called.seats.values_list("player_id", "player__name"))
    a, b, c, d = seated_ids(called)

    asked = client.get(enter_url(called), {"reopen": "1"})

    assert asked.status_code == 200
    assert (f"Reopened, it goes on: {names[a]} and {names[b]} no longer win, and nobody has "
            "won until the game ends again") in words(asked.text)
    assert "<dt>Winner once reopened</dt><dd>nobody yet</dd>" in asked.text
    assert Game.objects.get(pk=called.pk).status == Game.FINISHED  # asking changes nothing

    done = client.post(enter_url(called, "game_reopen"), follow=True)

    assert "Game 1 reopened: its deals can be undone or corrected." in done.text
    assert Game.objects.get(pk=called.pk).status == Game.OPEN
    last = called.deal_set.get(number=2)
    undone = client.post(enter_url(called, "deal_undo"), {"deal": last.pk}, follow=True)
    assert "Deal 2 undone." in undone.text
    client.post(enter_url(called, "deal_record"), order_data([a, b, c, d], 2))
    assert list(called.deal_set.values_list("number", flat=True)) == [1, 2]
