"""Table links as pages (league/web/table_links.py, issue #28): a phone that opened a table's
link enters that game's deals and seat changes and undoes its own last deal, without an
account; everywhere else it is an anonymous visitor. The night page lists the live links with
their QR codes and a Revoke button; the table cards print."""

import io
import logging
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from django.utils.text import capfirst

from config.log_filters import RedactSecretPaths
from league import services
from league.models import AuditEntry, Deal, TableLink
from tests.league.factories import PlayerFactory, UserFactory, make_game, make_season, seated_ids
from tests.league.test_table_links import confirmed_round
from tests.pages.test_enter import order_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def games():
    """One round of two tables of five (seat 1 deals first at the first)."""
    return confirmed_round(tables=2, size=5, dealers=[1, 0])[1]


@pytest.fixture
def organiser(games):
    return games[0].season.club.organisers.get()


@pytest.fixture
def season(games):
    return games[0].season


def link_of(game):
    return game.table_links.get()


def at(game, action="game_enter"):
    return reverse(f"league:{action}", args=[game.pk])


def phone(link) -> Client:
    """A phone that never signed in and opened ``link``."""
    client = Client()
    opened = client.get(reverse("league:table_link_open", args=[link.token]))
    assert opened.status_code == 302 and opened.url == at(link.game)
    return client


def test_a_phone_with_the_link_sees_and_enters_its_games_deals(games):
    game = games[0]
    table = phone(link_of(game))
    page = table.get(at(game))
    assert page.status_code == 200 and "Who went out first?" in page.text
    assert "Correct a deal" not in page.text  # corrections are the organiser's

    preview = table.post(at(game, "deal_preview"), order_data(seated_ids(game)))
    recorded = table.post(at(game, "deal_record"), order_data(seated_ids(game)), follow=True)

    assert preview.status_code == 200 and "Check deal 1" in preview.text
    assert "Deal 1 recorded." in recorded.text
    deal = game.deal_set.get()
    assert (deal.source, deal.table_link, deal.recorded_by) == (
        Deal.TABLE_LINK, link_of(game), None)


def test_the_outbox_sends_through_the_link_once_in_json(games):
    game = games[0]
    table = phone(link_of(game))
    data = {**order_data(seated_ids(game), token="kept"), "kept_offline": "1"}
    sent = [table.post(at(game, "deal_record"), data, headers={"Accept": "application/json"})
            for _ in range(2)]
    assert [r.status_code for r in sent] == [201, 200]
    assert game.deal_set.get().source == Deal.TABLE_LINK


@pytest.mark.parametrize("who", ["table's phone", "organiser"])
def test_a_deal_kept_for_a_cancelled_game_is_refused_saying_what_to_do_next(
        client, games, organiser, who):
    """The outbox sends a deal kept for a game the organiser cancelled meanwhile: refused for
    good (400, listed with these words until dismissed, not sent again), saying what to do
    next as the game's page does, not only that nothing can be entered."""
    game = games[0]
    if who == "organiser":
        sender, next_step = client, "its players are free for another table"
        client.force_login(organiser)
    else:
        sender = phone(link_of(game))
        next_step = "if its players sit at another table now, scan that table's code"
    services.game_cancel(game=game, by=organiser)
    data = {**order_data(seated_ids(game), token="kept"), "kept_offline": "1"}
    refused = sender.post(at(game, "deal_record"), data, headers={"Accept": "application/json"})
    assert (refused.status_code, refused.json()) == (400, {"error": (
        f"game {game.number} was cancelled: nothing can be entered in it; {next_step}")})
    assert escape(capfirst(next_step) + ".") in sender.get(at(game)).text  # the page's words
    assert not game.deal_set.exists()


def test_the_link_opens_nothing_of_another_game_and_says_so(games):
    game, other = games
    table = phone(link_of(game))
    page = table.get(at(other))
    assert page.status_code == 403 and "This table link is for another game" in page.text
    assert "Sign in" not in page.text and f'href="{at(game)}"' in page.text  # its own game
    refused = table.post(at(other, "deal_record"), order_data(seated_ids(other)),
                         headers={"Accept": "application/json"})
    assert refused.status_code == 403 and "for another game" in refused.json()["error"]
    assert not other.deal_set.exists()


def test_after_new_game_same_table_the_ended_games_page_sends_the_phone_on(games, organiser):
    """The phone still shows the ended game: reloading it lands on the game that continues
    it, where the table's link now enters (docs/pages.md, Table links)."""
    game = games[0]
    table = phone(link_of(game))
    table.post(at(game, "deal_record"), order_data(seated_ids(game)))
    game = services.game_time_called(game=game, by=organiser)
    following = services.game_same_table(game=game, by=organiser)

    again = table.get(at(game))

    assert again.status_code == 302 and again.url == at(following)
    page = table.get(again.url)
    assert page.status_code == 200 and (
        f"This table has moved on from game {game.number} to game {following.number}: enter its "
        "deals here."
        in page.text)
    stale = table.post(at(game, "deal_record"), order_data(seated_ids(game), number=2),
                       headers={"Accept": "application/json"})
    # refused in words (the outbox lists it to dismiss), not held to send for ever
    assert stale.status_code == 400 and stale.json()["error"].startswith(
        f"This table plays game {following.number} now, not game {game.number}")
    assert game.deal_set.count() == 1


@pytest.mark.parametrize("action", ["correct", "deal_delete", "game_reopen", "same_table"])
def test_the_link_does_not_correct_delete_reopen_or_start_a_game(games, action):
    game = games[0]
    deal = services.deal_record(game=game, finishing_order=seated_ids(game),
                                table_link=link_of(game))
    table = phone(link_of(game))
    answer = table.post(at(game, action), {"deal": deal.pk, "token": "x",
                                           **order_data(seated_ids(game))})
    assert answer.status_code == 403
    assert game.deal_set.get().places.first().player_id == seated_ids(game)[0]


def test_every_other_page_sees_an_anonymous_visitor(games, season):
    table = phone(link_of(games[0]))
    for address in (reverse("league:night", args=[season.pk]),
                    reverse("league:table_cards", args=[season.pk]),
                    reverse("league:organise_club", args=[season.club.pk])):
        answer = table.get(address)
        assert answer.status_code == 302 and "login" in answer.url, address
    assert table.get(at(games[0]) + "?correct=1").status_code == 200  # the plain page
    assert 'id="correct"' not in table.get(at(games[0]) + "?correct=1").text


def test_the_link_undoes_only_its_own_last_deal(games, organiser):
    game = games[0]
    table = phone(link_of(game))
    table.post(at(game, "deal_record"), order_data(seated_ids(game)))
    mine = game.deal_set.get()
    undone = table.post(at(game, "deal_undo"), {"deal": mine.pk}, follow=True)
    assert "Deal 1 undone." in undone.text

    theirs = services.deal_record(game=game, finishing_order=seated_ids(game), by=organiser)
    page = table.get(at(game))
    assert "only an organiser can undo it" in page.text
    refused = table.post(at(game, "deal_undo"), {"deal": theirs.pk}, follow=True)
    assert "not entered with this table link" in refused.text
    assert game.deal_set.get() == theirs


def test_the_link_enters_a_seat_change(games):
    game = games[0]
    table = phone(link_of(game))
    table.post(at(game, "deal_record"), order_data(seated_ids(game)))
    leaver = seated_ids(game)[0]
    done = table.post(at(game, "seat_change"), {"leaving": [leaver]}, follow=True)
    assert "leaves" in done.text
    assert game.seats.get(player_id=leaver).left_before == 2


def test_a_revoked_link_is_refused_in_words_and_on_the_night_page_no_more(
        client, games, organiser, season):
    game = games[0]
    table = phone(link_of(game))
    client.force_login(organiser)
    night = client.get(reverse("league:night", args=[season.pk]))
    assert night.text.count('<svg viewBox=') == 2 and night.text.count("Revoke this link…") == 2

    client.post(reverse("league:table_link_revoke", args=[link_of(game).pk]))

    night = client.get(reverse("league:night", args=[season.pk]))
    assert night.text.count("Revoke this link…") == 1
    refused = table.post(at(game, "deal_record"), order_data(seated_ids(game)),
                         headers={"Accept": "application/json"})
    assert refused.status_code == 403 and "revoked" in refused.json()["error"]
    again = Client().get(reverse("league:table_link_open", args=[link_of(game).token]))
    assert again.status_code == 410 and "revoked" in again.text
    assert AuditEntry.objects.filter(action="table link revoked", actor=organiser).exists()
    assert not game.deal_set.exists()


def test_time_called_stops_the_link(games, organiser):
    game = games[0]
    table = phone(link_of(game))
    table.post(at(game, "deal_record"), order_data(seated_ids(game)))
    services.game_time_called(game=game, by=organiser)
    page = table.get(at(game))
    assert page.status_code == 403 and "time was called" in page.text.lower()


def test_a_stopped_link_leads_its_table_to_the_games_totals(games, organiser):
    """A phone scanning its table's code after time was called, or reloading its entry page,
    was told only to ask the organiser, with no way on: both lead to the game's totals."""
    game = games[0]
    table = phone(link_of(game))
    table.post(at(game, "deal_record"), order_data(seated_ids(game)))
    services.game_time_called(game=game, by=organiser)
    totals = (f'<a class="button" href="{reverse("league:game_detail", args=[game.pk])}">'
              f"Game {game.number}: the totals</a>")
    assert totals in table.get(at(game)).text
    scanned = Client().get(reverse("league:table_link_open", args=[link_of(game).token]))
    assert scanned.status_code == 410 and totals in scanned.text


def test_only_organisers_revoke(games, season):
    stranger = UserFactory(username="stranger")
    client = Client()
    client.force_login(stranger)
    link = link_of(games[0])
    assert client.post(reverse("league:table_link_revoke", args=[link.pk])).status_code == 403
    assert phone(link)  # still works
    assert TableLink.objects.get(pk=link.pk).revoked_at is None


def test_revoke_takes_a_post_with_its_csrf_token(games, organiser):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    link = link_of(games[0])
    assert client.get(reverse("league:table_link_revoke", args=[link.pk])).status_code == 405
    assert client.post(reverse("league:table_link_revoke", args=[link.pk])).status_code == 403
    assert TableLink.objects.get(pk=link.pk).revoked_at is None


def test_an_unknown_token_is_a_404_and_opening_links_is_throttled(games, settings):
    settings.TABLE_LINK_OPEN_RATE = "3/m"
    client = Client()
    answers = [client.get(reverse("league:table_link_open", args=["nope" * 11])).status_code
               for _ in range(4)]
    assert answers == [404, 404, 404, 429]


def test_a_club_nights_phones_behind_one_address_all_open_their_links(games, settings):
    """Every phone on a club's Wi-Fi shares one address: opening real links is not counted,
    only tokens that are no link (someone guessing), and once those are over the rate even a
    real link waits (else guessing would go on, told apart by its answers)."""
    settings.TABLE_LINK_OPEN_RATE = "3/m"
    tokens = [link_of(game).token for game in games]
    opened = [Client().get(reverse("league:table_link_open", args=[tokens[i % len(tokens)]]))
              for i in range(10)]
    assert [answer.status_code for answer in opened] == [302] * 10
    guesses = [Client().get(reverse("league:table_link_open", args=["nope" * 11])).status_code
               for _ in range(4)]
    assert guesses == [404, 404, 404, 429]
    assert Client().get(reverse("league:table_link_open", args=[tokens[0]])).status_code == 429


def test_changes_through_one_link_are_throttled(games, settings):
    settings.TABLE_LINK_RATE = "2/m"
    game = games[0]
    table = phone(link_of(game))
    answers = [table.post(at(game, "deal_preview"), order_data(seated_ids(game)),
                          headers={"Accept": "application/json"}).status_code
               for _ in range(3)]
    assert answers == [200, 200, 429]


def test_the_table_cards_show_table_seats_in_order_first_dealer_and_qr(
        client, games, organiser, season):
    client.force_login(organiser)
    sheet = client.get(reverse("league:table_cards", args=[season.pk]))
    assert sheet.status_code == 200
    cards = re.findall(r'<article class="table-card".*?</article>', sheet.text, re.S)
    assert len(cards) == 2
    first = cards[0]
    names = re.findall(r"<li><bdi>(P\d)</bdi>", first)
    assert names == ["P0", "P1", "P2", "P3", "P4"]
    assert re.search(r"<bdi>P1</bdi> <strong>deals first</strong>", first)  # seat 1 deals
    assert first.count("<svg viewBox=") == 1
    # the link's address is in the code, not in the text of the card
    assert link_of(games[0]).token not in first


def test_a_stranger_gets_no_table_cards(games, season):
    client = Client()
    client.force_login(UserFactory(username="stranger"))
    assert client.get(reverse("league:table_cards", args=[season.pk])).status_code == 403


def test_opening_a_link_sends_no_token_away_and_logs_none(games, settings):
    settings.TABLE_LINK_OPEN_RATE = "1/m"
    token = link_of(games[0]).token
    console = next(h for h in logging.getLogger().handlers
                   if any(isinstance(f, RedactSecretPaths) for f in h.filters))
    stream = console.setStream(io.StringIO())
    try:
        client = Client()
        opened = client.get(reverse("league:table_link_open", args=[token]))
        client.get(reverse("league:table_link_open", args=["nope" * 11]))  # the one guess
        throttled = client.get(reverse("league:table_link_open", args=[token]))
        written = console.stream.getvalue()
    finally:
        console.setStream(stream)
    assert opened["Referrer-Policy"] == "same-origin"  # not to other sites
    assert token not in opened.url and "no-cache" in opened["Cache-Control"]
    assert throttled.status_code == 429
    assert "Too Many Requests: /league/t/…/" in written and token not in written


def test_a_links_post_needs_its_csrf_token(games):
    game = games[0]
    table = Client(enforce_csrf_checks=True)
    table.get(reverse("league:table_link_open", args=[link_of(game).token]))
    refused = table.post(at(game, "deal_record"), order_data(seated_ids(game)))
    assert refused.status_code == 403 and not game.deal_set.exists()


def test_the_night_page_lists_the_links_of_tables_still_playing(client, games, organiser,
                                                                season):
    services.season_update(season=season, scoring={"system": "fixed-rounds", "deals": 1})
    services.deal_record(game=games[0], finishing_order=seated_ids(games[0]))  # it ends
    client.force_login(organiser)
    night = client.get(reverse("league:night", args=[season.pk]))
    assert night.text.count("Revoke this link…") == 1
    assert "Round 1, table 2" in night.text and "Round 1, table 1" not in night.text


def test_a_player_at_the_other_table_is_not_offered_nor_taken_as_a_joiner(
        client, games, organiser, season):
    """The audit's case: a table's phone added someone seated at the other open table, and
    the night page then moved that table to a round of its own."""
    game, other = games
    for g in games:
        services.deal_record(game=g, finishing_order=seated_ids(g))
    busy = other.seats.get(number=0).player
    table = phone(link_of(game))
    page = table.get(at(game))
    assert f'name="joining" value="{busy.pk}"' not in page.text
    said = page.text.split("Not offered, as they sit at another open table: ")[1].split("</p>")[0]
    assert f"<bdi>{busy.name}</bdi>" in said  # with the others at that table, named once:
    assert said.count(f" at round 1, table 2 (game {other.number})") == 1

    refused = table.post(at(game, "seat_change"), {"joining": [busy.pk]})

    assert refused.status_code == 400 and not game.seats.filter(player=busy).exists()
    client.force_login(organiser)
    night = client.get(reverse("league:night", args=[season.pk]))
    assert "Round 1, table 2" in night.text and "Round 2" not in night.text


def test_after_new_game_same_table_the_links_and_cards_keep_the_tables_number(
        client, games, organiser, season):
    """The audit saw "Round 1, Table 1 · game 3" on the board but "table 2" on the links and
    cards: they counted the tables still playing instead of reading each table's number."""
    services.season_update(season=season, scoring={"system": "fixed-rounds", "deals": 1})
    first = games[0]
    services.deal_record(game=first, finishing_order=seated_ids(first))  # it ends
    first.refresh_from_db()
    following = services.game_same_table(game=first, by=organiser)
    client.force_login(organiser)

    night = client.get(reverse("league:night", args=[season.pk])).text
    sheet = client.get(reverse("league:table_cards", args=[season.pk])).text

    assert re.search(rf"Round 1, table 1 <span class=\"hint\">game {following.number}</span>",
                     night)
    assert re.search(rf"Round 1, table 2 <span class=\"hint\">game {games[1].number}</span>",
                     night)
    assert re.search(rf"Table 1 <span class=\"card-round\">round 1 · game {following.number}",
                     sheet)
    assert re.search(rf"Table 2 <span class=\"card-round\">round 1 · game {games[1].number}",
                     sheet)


def test_revoking_asks_first_and_the_question_works_without_script(
        client, games, organiser, season):
    client.force_login(organiser)
    link = link_of(games[0])
    night_url = reverse("league:night", args=[season.pk])
    night = client.get(night_url).text
    # the button asks (a GET the script turns into its dialog); it revokes nothing
    assert re.search(rf'<form method="get" action="{night_url}#link-{link.pk}"', night)
    assert f'<dialog id="revoke-dialog-{link.pk}"' in night
    assert f'action="{reverse("league:table_link_revoke", args=[link.pk])}"' in night  # dialog

    asked = client.get(f"{night_url}?revoke={link.pk}").text

    assert "Revoke the link of round 1, table 1?" in asked
    assert '<div class="revoke-ask" role="alert">' in asked and "No, keep it</a>" in asked
    assert TableLink.objects.get(pk=link.pk).revoked_at is None
    assert client.get(f"{night_url}?revoke=nope").status_code == 200  # asks nothing


def test_an_organiser_makes_a_revoked_table_a_new_link(client, games, organiser, season):
    game = games[0]
    old = link_of(game)
    table = phone(old)
    client.force_login(organiser)
    client.post(reverse("league:table_link_revoke", args=[old.pk]))
    night_url = reverse("league:night", args=[season.pk])
    night = client.get(night_url).text
    new_url = reverse("league:table_link_new", args=[game.pk])
    assert "Round 1, table 1 (game 1) has no working link" in night
    assert f'action="{new_url}"' in night
    stranger = Client()
    stranger.force_login(UserFactory(username="stranger"))
    assert stranger.post(new_url).status_code == 403
    assert client.get(new_url).status_code == 405

    made = client.post(new_url, follow=True)

    new = game.table_links.get(revoked_at__isnull=True)
    assert made.redirect_chain[-1][0] == f"{night_url}#link-{new.pk}"  # its code
    assert "A new table link for round 1, table 1 (game 1)" in made.text
    assert made.text.count("<svg viewBox=") == 2 and f'action="{new_url}"' not in made.text
    assert phone(new).get(at(game)).status_code == 200
    assert table.get(at(game)).status_code == 403  # the revoked one stays revoked
    again = client.post(new_url)
    assert again.status_code == 409 and "already has a working table link" in again.text
    assert game.table_links.count() == 2


def test_a_player_at_a_table_of_another_season_is_named_with_that_season(games, season):
    """The line under the joiners names another season's table with its season: "game 1"
    alone read as this season's game 1."""
    game, _ = games
    services.deal_record(game=game, finishing_order=seated_ids(game))
    femi = PlayerFactory(name="Femi", clubs=[season.club])
    other = make_season(club=season.club, name="Winter")
    elsewhere = make_game(season=other, players=[femi, *[PlayerFactory(clubs=[season.club])
                                                         for _ in range(3)]])
    page = phone(link_of(game)).get(at(game))
    said = page.text.split("Not offered, as they sit at another open table: ")[1].split("</p>")[0]
    assert "; <bdi>Femi</bdi>, " in said  # after this season's tables
    assert said.endswith(f" at round 1, table 1 (game {elsewhere.number}) of Winter.")
