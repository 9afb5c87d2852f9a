"""Result entry for organisers: preview, confirm once, undo, leave and join, refusals."""

import pytest
from django.urls import reverse

from league import services
from league.models import Deal, Seat
from tests.league.factories import PlayerFactory, UserFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return make_game()


@pytest.fixture
def organiser(game):
    user = UserFactory(username="org")
    game.season.club.organisers.add(user)
    return user


def words(html):
    """The page's sentences without the <bdi> that isolates each name in them."""
    return html.replace("<bdi>", "").replace("</bdi>", "")


def enter_url(game, action="game_enter"):
    """The entry page, or where one of its actions posts (league/web/urls.py)."""
    return reverse(f"league:{action}", args=[game.pk])


def order_data(order, token="t1", number=1):
    return {"token": token, "number": number,
            **{f"place_{i}": p for i, p in enumerate(order, start=1)}}


def test_the_entry_page_offers_each_seated_player_with_a_label(client, game, organiser):
    client.force_login(organiser)
    page = client.get(enter_url(game))
    assert page.status_code == 200
    for seat in game.seats.select_related("player"):
        assert f'data-player="{seat.player_id}"' in page.text
    assert '<label for="id_place_1">1st out</label>' in page.text
    assert '<label for="id_place_4">4th out</label>' in page.text


def test_preview_shows_roles_and_next_exchange_and_records_nothing(client, organiser):
    game = make_game(season_kwargs={"preset": "friday"})
    game.season.club.organisers.add(organiser)
    client.force_login(organiser)
    order = seated_ids(game)[::-1]
    names = dict(game.seats.values_list("player_id", "player__name"))

    page = client.post(enter_url(game, "deal_preview"), order_data(order))

    assert page.status_code == 200
    # friday's own words (seed 001): the last is the Idiot
    assert "<td>Vice President</td>" in page.text and "<td>Idiot</td>" in page.text
    assert "Scum" not in page.text
    assert f"<bdi>{names[order[-1]]}</bdi> gives <bdi>{names[order[0]]}</bdi> 2 cards" in page.text
    assert "Confirm deal 1" in page.text
    assert not Deal.objects.exists()


def test_preview_says_when_the_preset_has_no_exchange(client, game, organiser):
    client.force_login(organiser)
    page = client.post(enter_url(game, "deal_preview"), order_data(seated_ids(game)))
    assert "No card exchange under classic." in page.text


def test_confirm_records_the_deal_through_the_service(client, game, organiser):
    client.force_login(organiser)
    order = seated_ids(game)[::-1]

    page = client.post(enter_url(game, "deal_record"), order_data(order), follow=True)

    assert "Deal 1 recorded." in page.text
    deal = Deal.objects.get()
    assert list(deal.places.values_list("player_id", flat=True)) == order
    assert deal.recorded_by == organiser


def test_a_double_submitted_deal_is_stored_once(client, game, organiser):
    client.force_login(organiser)
    data = order_data(seated_ids(game), token="same-form")

    client.post(enter_url(game, "deal_record"), data)
    second = client.post(enter_url(game, "deal_record"), data, follow=True)

    assert Deal.objects.filter(game=game).count() == 1
    assert second.text.count("Deal 1 recorded.") == 1 and "already recorded" not in second.text


def test_a_new_form_token_records_the_next_deal(client, game, organiser):
    client.force_login(organiser)
    client.post(enter_url(game, "deal_record"), order_data(seated_ids(game), token="a"))
    client.post(enter_url(game, "deal_record"), order_data(seated_ids(game), token="b", number=2))
    assert list(game.deal_set.values_list("number", flat=True)) == [1, 2]


@pytest.mark.parametrize("action", ["deal_preview", "deal_record"])
def test_a_player_listed_twice_is_refused_with_the_services_message(client, game, organiser,
                                                                    action):
    client.force_login(organiser)
    ids = seated_ids(game)
    names = dict(game.seats.values_list("player_id", "player__name"))
    page = client.post(enter_url(game, action), order_data([ids[0], ids[0], ids[1], ids[2]]))
    assert page.status_code == 400
    assert (f"the finishing order of deal 1 must list each of the 4 seated players once "
            f"(listed twice: {names[ids[0]]}; missing: {names[ids[3]]})") in page.text
    assert not Deal.objects.exists()


def test_a_missing_place_is_refused_with_a_message(client, game, organiser):
    client.force_login(organiser)
    ids = seated_ids(game)
    last = game.seats.get(player_id=ids[3]).player.name
    page = client.post(enter_url(game, "deal_record"), order_data(ids[:3]))
    assert page.status_code == 400
    assert f"(missing: {last})" in page.text
    assert not Deal.objects.exists()


def test_undo_deletes_the_last_deal_once(client, game, organiser):
    client.force_login(organiser)
    # two deals: still open
    services.season_update(season=game.season, scoring={"system": "penalty", "limit": 50})
    services.deal_record(game=game, finishing_order=seated_ids(game))
    last = services.deal_record(game=game, finishing_order=seated_ids(game))

    page = client.post(enter_url(game, "deal_undo"), {"deal": last.pk}, follow=True)
    again = client.post(enter_url(game, "deal_undo"), {"deal": last.pk}, follow=True)

    assert "Deal 2 undone." in page.text
    assert "no longer the last one" in again.text
    assert list(game.deal_set.values_list("number", flat=True)) == [1]


def test_a_leave_and_join_is_previewed_then_applied(client, game, organiser):
    client.force_login(organiser)
    order = seated_ids(game)
    services.deal_record(game=game, finishing_order=order)
    newcomer = PlayerFactory(name="Newcomer", clubs=[game.season.club])
    data = {"leaving": [order[0]], "joining": [newcomer.pk]}

    preview = client.post(enter_url(game, "seat_change_preview"), data)

    assert preview.status_code == 200
    assert "Roles after the change" in preview.text and "Newcomer: Citizen" in words(preview.text)
    assert not Seat.objects.filter(player=newcomer).exists()

    done = client.post(enter_url(game, "seat_change"), data, follow=True)

    assert "<bdi>Newcomer</bdi> joins" in done.text
    assert Seat.objects.get(player=newcomer).joined_before == 2
    assert game.seats.get(player_id=order[0]).left_before == 2


def test_a_refused_seat_change_shows_the_services_message(client, game, organiser):
    client.force_login(organiser)
    services.deal_record(game=game, finishing_order=seated_ids(game))
    ids = seated_ids(game)
    page = client.post(enter_url(game, "seat_change_preview"), {"leaving": ids[:3]})
    assert page.status_code == 400
    assert "the table cannot go on with 1 players" in page.text


def test_nothing_chosen_for_a_seat_change_is_refused(client, game, organiser):
    client.force_login(organiser)
    services.deal_record(game=game, finishing_order=seated_ids(game))
    page = client.post(enter_url(game, "seat_change_preview"), {})
    assert page.status_code == 400 and "choose a player who leaves or joins" in page.text


def test_an_ended_game_takes_no_deal(client, organiser, game):
    client.force_login(organiser)
    services.season_update(season=game.season, scoring={"system": "fixed-rounds", "deals": 1})
    services.deal_record(game=game, finishing_order=seated_ids(game))
    page = client.post(enter_url(game, "deal_record"),
                       order_data(seated_ids(game), token="late", number=2))
    assert page.status_code == 400
    assert "has ended: no more deals can be recorded" in page.text
    assert game.deal_set.count() == 1


@pytest.mark.parametrize("who", ["anonymous", "stranger", "other club's organiser"])
def test_only_the_clubs_organisers_enter_results(client, game, who):
    if who != "anonymous":
        user = UserFactory(username=who.replace(" ", "-").replace("'", ""))
        if who == "other club's organiser":
            make_game().season.club.organisers.add(user)
        client.force_login(user)

    page = client.get(enter_url(game))
    post = client.post(enter_url(game, "deal_record"), order_data(seated_ids(game)))

    assert page.status_code == 403 and post.status_code == 403
    club = game.season.club
    said = (f"Scan the code on the table card again, or sign in as an organiser of {club}, "
            "to enter its results." if who == "anonymous"
            else f"Only organisers of {club} enter its results.")
    assert said in page.text and said in post.content.decode()
    assert not Deal.objects.exists()


def json_post(client, game, data):
    return client.post(enter_url(game, "deal_record"), data,
                       headers={"Accept": "application/json"})


@pytest.mark.parametrize(("field", "value", "said"), [
    ("number", "abc", "The deal's number: Enter a whole number."),
    ("token", "", "The form's token: This field is required."),
    ("token", "x" * 65, "The form's token: Ensure this value has at most 64 characters"),
])
def test_a_hidden_field_refused_in_json_is_named_in_words(
        client, game, organiser, field, value, said):
    """The outbox shows the answer's words: a hidden field was named "None"."""
    client.force_login(organiser)
    refused = json_post(client, game, {**order_data(seated_ids(game)), field: value})
    assert refused.status_code == 400 and said in refused.json()["error"]
    assert "None" not in refused.json()["error"] and not game.deal_set.exists()


def test_a_deal_sent_by_the_page_script_is_answered_in_json_and_stored_once(
        client, game, organiser):
    client.force_login(organiser)
    data = order_data(seated_ids(game)[::-1], token="kept-offline")

    first = json_post(client, game, data)
    again = json_post(client, game, data)

    assert first.status_code == 201
    assert first.json() == {"number": 1, "recorded": True, "message": "Deal 1 recorded."}
    assert again.status_code == 200 and again.json()["recorded"] is False
    assert game.deal_set.count() == 1


def test_a_deal_refused_on_arrival_gets_its_reason_in_json(client, game, organiser):
    client.force_login(organiser)
    services.season_update(season=game.season, scoring={"system": "fixed-rounds", "deals": 1})
    services.deal_record(game=game, finishing_order=seated_ids(game))

    late = json_post(client, game, order_data(seated_ids(game), token="late", number=2))

    assert late.status_code == 400
    assert "has ended: no more deals can be recorded" in late.json()["error"]
    assert game.deal_set.count() == 1


def test_an_order_no_longer_valid_on_arrival_says_who_is_not_at_the_table(client, game, organiser):
    client.force_login(organiser)
    ids = seated_ids(game)
    services.deal_record(game=game, finishing_order=ids)
    newcomer = PlayerFactory(clubs=[game.season.club])
    services.seat_change_apply(game=game, leaving=[game.seats.get(player_id=ids[0]).player],
                               joining=[newcomer])
    # kept on the phone before the change: it still names the player who left
    stale = json_post(client, game, order_data(ids, token="stale", number=2))
    assert stale.status_code == 400
    left = game.seats.get(player_id=ids[0]).player.name
    assert f"not at the table for this deal: {left}" in stale.json()["error"]
    assert f"missing: {newcomer.name}" in stale.json()["error"]
    assert game.deal_set.count() == 1


def test_a_stranger_sending_a_deal_gets_json_403(client, game):
    client.force_login(UserFactory(username="stranger"))
    answer = json_post(client, game, order_data(seated_ids(game)))
    assert answer.status_code == 403 and "Only organisers" in answer.json()["error"]
    assert not Deal.objects.exists()


def test_without_script_undo_asks_on_its_own_page_first(client, game, organiser):
    client.force_login(organiser)
    services.deal_record(game=game, finishing_order=seated_ids(game))
    last = services.deal_record(game=game, finishing_order=seated_ids(game))

    asked = client.get(enter_url(game), {"undo": last.pk})

    assert "Undo deal 2?" in asked.text and "Yes, undo deal 2" in asked.text
    assert game.deal_set.count() == 2
    gone = client.get(enter_url(game), {"undo": last.pk + 100})
    assert "no longer the last one" in gone.text


def test_the_next_dealer_and_exchange_come_first(client, organiser):
    game = make_game(season_kwargs={"preset": "friday"}, dealer=2)
    game.season.club.organisers.add(organiser)
    client.force_login(organiser)
    ids = seated_ids(game)
    names = dict(game.seats.values_list("player_id", "player__name"))
    services.deal_record(game=game, finishing_order=ids)

    page = client.get(enter_url(game)).text

    top = page[page.index('id="next"'):page.index('id="order-form"')]
    assert f"<strong><bdi>{names[ids[3]]}</bdi></strong> deals." in top  # one seat left of 2
    top = words(top)
    assert f"{names[ids[3]]} gives {names[ids[0]]} 2 cards" in top
    assert f"{names[ids[1]]} Vice President" in top and f"{names[ids[2]]} Vice Idiot" in top


def test_a_leave_and_join_says_each_shift_in_words(client, organiser):
    game = make_game(season_kwargs={"preset": "presidents-deck"})
    game.season.club.organisers.add(organiser)
    client.force_login(organiser)
    ids = seated_ids(game)
    names = dict(game.seats.values_list("player_id", "player__name"))
    services.deal_record(game=game, finishing_order=ids)
    newcomer = PlayerFactory(name="Nina", clubs=[game.season.club])

    president_leaves = client.post(enter_url(game, "seat_change_preview"), {"leaving": [ids[0]]})
    turd_leaves = client.post(enter_url(game, "seat_change_preview"),
                              {"leaving": [ids[3]], "joining": [newcomer.pk]}).text

    assert (f"{names[ids[0]]} (President) leaves: {names[ids[1]]} moves up from Vice "
            f"President to President; {names[ids[2]]} moves up from Couch Potato to Citizen, "
            "as only 3 players stay from the last deal and with 3 there is no Couch Potato."
            ) in words(president_leaves.text)
    assert (f"{names[ids[3]]} (Turd) leaves: {names[ids[1]]} moves down from Vice President "
            "to Citizen, as only 3 players stay from the last deal and with 3 there is no Vice "
            f"President; {names[ids[2]]} moves down from Couch Potato to Turd."
            ) in words(turd_leaves)
    assert ("<bdi>Nina</bdi> joins as a Citizen, just above the Turd: a newcomer takes no role "
            "from anyone, so there is no Vice President or Couch Potato until the next deal is "
            "played.") in turd_leaves


def test_the_service_worker_covers_the_entry_pages_and_keeps_our_assets(client):
    answer = client.get(reverse("league:entry_service_worker"))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript"
    assert enter_url(make_game()).startswith(reverse("league:entry_service_worker")
                                             .rsplit("/", 1)[0] + "/")
    for asset in ("league/league.css", "league/enter.js", "league/outbox.js",
                  "league/first_error.js"):
        assert f'"/static/{asset}"' in answer.text


def test_a_finished_games_entry_page_names_the_winner_and_starts_a_new_game_at_that_table(
        client, organiser, game):
    client.force_login(organiser)
    services.season_update(season=game.season, scoring={"system": "fixed-rounds", "deals": 1})
    order = seated_ids(game)
    services.deal_record(game=game, finishing_order=order)
    winner = game.seats.get(player_id=order[0]).player

    page = client.get(enter_url(game))
    assert page.status_code == 200
    assert f"Winner: <strong><bdi>{winner}</bdi></strong>" in page.text
    assert "New game, same table" in page.text

    started = client.post(enter_url(game, "same_table"), {})
    again = client.post(enter_url(game, "same_table"), {})  # a double tap

    new = game.season.games.get(number=game.number + 1)
    assert started["Location"] == again["Location"] == enter_url(new)
    assert game.season.games.count() == 2, "a second press finds the game the first one made"
    assert [s.player_id for s in new.seats.order_by("number")] == \
        [s.player_id for s in game.seats.order_by("number")]
    # RULES.md "Common to all": the deal passes one seat on, as it would have in this game
    assert new.dealer == (game.deal_set.get().dealer + 1) % len(order)


@pytest.mark.parametrize(("deals", "said"), [(1, "over after 1 deal"), (2, "over after 2 deals")])
def test_a_finished_games_heading_names_no_deal_it_does_not_have(
        client, organiser, game, deals, said):
    client.force_login(organiser)
    services.season_update(season=game.season,
                           scoring={"system": "fixed-rounds", "deals": deals})
    for _ in range(deals):
        services.deal_record(game=game, finishing_order=seated_ids(game))
    page = client.get(enter_url(game))
    assert f"<h1>Game {game.number}: {said}</h1>" in page.text
    assert f"deal {deals + 1}" not in page.text


def test_an_open_game_cannot_start_a_new_one_at_its_table(client, organiser, game):
    client.force_login(organiser)

    page = client.post(enter_url(game, "same_table"), {})

    assert page.status_code == 400 and "is still being played" in page.text
    assert game.season.games.count() == 1
