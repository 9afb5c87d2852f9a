"""Correcting an earlier deal on the entry page: listed newest first, the same order form
prefilled, a preview of roles and totals, the correction through services.deal_edit (once per
form token), deleting through services.deal_delete after a confirmation, the services'
refusals in their own words, and organisers only."""

import re

import pytest
from django.urls import reverse

from league import services
from league.models import AuditEntry, Deal
from league.selectors import season_standings
from tests.api.test_deals import one_deal_transcript, snapshot
from tests.league.factories import PlayerFactory, UserFactory, make_game, seated_ids
from tests.pages.test_enter import words

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    """Four deals of classic, penalty points to 20 (seats a b c d):
    1 a b c d · 2 a b c d · 3 b a c d · 4 c a b d: a 2, b 3, c 3, d 8 points."""
    game = make_game(season_kwargs={"scoring_limit": 20})
    a, b, c, d = seated_ids(game)
    for order in ([a, b, c, d], [a, b, c, d], [b, a, c, d], [c, a, b, d]):
        services.deal_record(game=game, finishing_order=order)
    return game


@pytest.fixture
def organiser(game, client):
    user = UserFactory(username="org")
    game.season.club.organisers.add(user)
    client.force_login(user)
    return user


def enter_url(game, action="game_enter"):
    """The entry page, or where one of its actions posts (league/web/urls.py)."""
    return reverse(f"league:{action}", args=[game.pk])


def correction(deal, order, token="t1"):
    return {"deal": deal.pk, "token": token,
            **{f"place_{i}": p for i, p in enumerate(order, start=1)}}


def points(game):
    return dict(game.seats.values_list("player_id", "points"))


def standings_points(game):
    return {row["player_id"]: row["points"] for row in season_standings(season=game.season)}


def names_of(game):
    return dict(game.seats.values_list("player_id", "player__name"))


def test_the_deals_are_listed_newest_first_each_with_a_correct_link(client, game, organiser):
    page = client.get(enter_url(game))

    listed = re.findall(r'<li><span class="number">(\d+)</span><span class="order">([^<]*)</span>'
                        r'<a class="button secondary" href="' + re.escape(enter_url(game))
                        + r'\?correct=(\d+)#correct"', words(page.text))
    deals = {d.number: d for d in game.deal_set.all()}
    assert [(int(n), int(pk)) for n, _, pk in listed] == [(n, deals[n].pk) for n in (4, 3, 2, 1)]
    names = names_of(game)
    a, b, c, d = seated_ids(game)
    assert listed[0][1] == ", ".join(names[p] for p in (c, a, b, d))


def test_correct_opens_the_order_form_prefilled_with_the_deals_order(client, game, organiser):
    second = game.deal_set.get(number=2)
    a, b, c, d = seated_ids(game)

    page = client.get(enter_url(game), {"correct": second.pk})

    assert page.status_code == 200
    assert "Correct deal 2" in page.text
    for position, player in enumerate([a, b, c, d], start=1):
        select = re.search(rf'<select name="place_{position}".*?</select>', page.text, re.S)[0]
        assert f'<option value="{player}" selected>' in select
    # the same tap buttons as for the next deal, one per player at that deal's table
    for player in (a, b, c, d):
        assert f'data-player="{player}"' in page.text
    assert f'action="{enter_url(game, "correct_preview")}#correct"' in page.text
    assert "Who went out first?" not in page.text  # the next deal's form makes way


def test_an_organiser_corrects_deal_2_of_4_and_the_totals_change_as_the_service_computes(
        client, game, organiser):
    a, b, c, d = seated_ids(game)
    second = game.deal_set.get(number=2)
    assert points(game) == standings_points(game) == {a: 2, b: 3, c: 3, d: 8}
    before = snapshot(game)

    preview = client.post(enter_url(game, "correct_preview"), correction(second, [d, c, b, a]))

    assert preview.status_code == 200
    assert snapshot(game) == before  # a preview changes nothing
    names = names_of(game)
    assert (f"<tr><td>1</td><td>{names[d]}</td><td>President</td></tr>" in preview.text
            and f"<tr><td>4</td><td>{names[a]}</td><td>Scum</td></tr>" in preview.text)
    # each player's total now and after, as the service will make them
    assert f'<tr class="changed"><td>{names[a]}</td><td>2</td><td>4</td></tr>' in preview.text
    assert f'<tr class="changed"><td>{names[d]}</td><td>8</td><td>6</td></tr>' in preview.text
    assert f"<tr><td>{names[b]}</td><td>3</td><td>3</td></tr>" in preview.text
    assert "Confirm the correction of deal 2" in preview.text

    done = client.post(enter_url(game, "correct"), correction(second, [d, c, b, a]), follow=True)

    assert "Deal 2 corrected." in done.text
    assert list(second.places.order_by("position").values_list("player_id", flat=True)) == [
        d, c, b, a]
    # penalty points 0 1 1 2 by place: deal 2 now gives d 0 and a 2
    assert points(game) == standings_points(game) == {a: 4, b: 3, c: 3, d: 6}
    assert list(game.deal_set.order_by("number").values_list("number", flat=True)) == [1, 2, 3, 4]
    entry = AuditEntry.objects.filter(action="deal edited").get()
    assert entry.actor == organiser
    assert entry.details["after"] == [names[p] for p in (d, c, b, a)]


def test_a_double_submitted_correction_applies_once(client, game, organiser):
    a, b, c, d = seated_ids(game)
    second = game.deal_set.get(number=2)
    data = correction(second, [d, c, b, a], token="same-form")

    client.post(enter_url(game, "correct"), data)
    again = client.post(enter_url(game, "correct"), data, follow=True)

    assert "Deal 2 was already corrected from this form; it is changed once." in again.text
    assert AuditEntry.objects.filter(action="deal edited").count() == 1
    assert points(game) == {a: 4, b: 3, c: 3, d: 6}
    # the same form sent with another order is refused, not applied
    other = client.post(enter_url(game, "correct"),
                        correction(second, [c, d, b, a], token="same-form"))
    assert other.status_code == 400
    assert "This form was already used for another correction" in other.text
    assert points(game) == {a: 4, b: 3, c: 3, d: 6}


@pytest.mark.parametrize("action", ["correct_preview", "correct"])
def test_an_order_that_lists_a_player_twice_is_refused_in_the_services_words(
        client, game, organiser, action):
    a, b, c, d = seated_ids(game)
    names = names_of(game)
    before = snapshot(game)

    page = client.post(enter_url(game, action),
                       correction(game.deal_set.get(number=3), [a, a, c, d]))

    assert page.status_code == 400
    assert (f"The finishing order of deal 3 must list each of the 4 seated players once "
            f"(listed twice: {names[a]}; missing: {names[b]})") in page.text
    assert snapshot(game) == before


@pytest.mark.parametrize("action", ["correct_preview", "correct"])
def test_a_correction_that_would_end_the_game_early_is_refused(client, organiser, action):
    game = make_game(season_kwargs={"scoring_limit": 4})
    game.season.club.organisers.add(organiser)
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])  # d 2
    services.deal_record(game=game, finishing_order=[a, b, d, c])  # c 2
    services.deal_record(game=game, finishing_order=[a, b, c, d])  # d 4: ends
    services.game_reopen(game=game)
    before = snapshot(game)

    # d last in deal 2 too would end the game after deal 2, before the recorded deal 3
    page = client.post(enter_url(game, action),
                       correction(game.deal_set.get(number=2), [a, b, c, d]))

    assert page.status_code == 400
    assert "The game would end after deal 2, so deal 3 would come after its end" in page.text
    assert "delete the later deals first" in page.text
    assert snapshot(game) == before


def test_a_deal_recorded_from_a_transcript_keeps_the_order_its_play_shows(client, organiser):
    game = make_game(season_kwargs={"scoring_limit": 20})
    game.season.club.organisers.add(organiser)
    transcript = one_deal_transcript(game)
    deal = services.deal_record(game=game, transcript=transcript)
    order = list(deal.places.order_by("position").values_list("player_id", flat=True))
    before = snapshot(game)

    page = client.post(enter_url(game, "correct"), correction(deal, order[::-1]))

    assert page.status_code == 400
    assert "The finishing order does not match the transcript&#x27;s" in page.text
    assert snapshot(game) == before
    assert Deal.objects.get(pk=deal.pk).transcript == transcript


def test_a_middle_deal_is_deleted_after_a_confirmation_and_later_deals_move_up(
        client, game, organiser):
    a, b, c, d = seated_ids(game)
    second = game.deal_set.get(number=2)

    asked = client.get(enter_url(game), {"delete": second.pk})
    assert "Delete deal 2?" in asked.text and "Yes, delete deal 2" in asked.text
    assert game.deal_set.count() == 4  # asking deletes nothing
    token = re.search(r'name="token" value="([0-9a-f]+)"', asked.text)[1]

    data = {"deal": second.pk, "token": token}
    done = client.post(enter_url(game, "deal_delete"), data, follow=True)
    again = client.post(enter_url(game, "deal_delete"), data, follow=True)

    assert "Deal 2 deleted; the deals after it moved up one number." in done.text
    assert "Deal 2 was already deleted from this form." in again.text
    assert game.deal_set.count() == 3
    assert points(game) == standings_points(game) == {a: 2, b: 2, c: 2, d: 6}


def test_deleting_a_middle_deal_that_was_someones_only_deal_is_refused(client, organiser):
    game = make_game(season_kwargs={"preset": "friday", "scoring_limit": 20})
    game.season.club.organisers.add(organiser)
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    guest = PlayerFactory(name="Guest", clubs=[game.season.club])
    services.seat_change_apply(game=game, joining=[guest])
    middle = services.deal_record(game=game, finishing_order=[a, b, guest.pk, c, d])
    services.seat_change_apply(game=game, leaving=[guest])
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    before = snapshot(game)

    page = client.post(enter_url(game, "deal_delete"), {"deal": middle.pk, "token": "t1"})

    assert page.status_code == 400
    assert (f"Deleting {middle} would leave Guest with no deal played between joining and "
            "leaving; delete the later deals first." in page.text)
    assert snapshot(game) == before


def test_a_deal_that_is_gone_is_said_so(client, game, organiser):
    last = game.deal_set.get(number=4)
    services.deal_delete(deal=last)

    page = client.get(enter_url(game), {"correct": last.pk})
    post = client.post(enter_url(game, "correct"), correction(last, seated_ids(game)))

    assert page.status_code == 404 and post.status_code == 400
    assert "That deal is no longer in this game (deleted meanwhile?): nothing was changed." in (
        page.text)
    assert game.deal_set.count() == 3


@pytest.mark.parametrize("who", ["anonymous", "stranger", "other club's organiser"])
def test_only_the_clubs_organisers_correct_or_delete_deals(client, game, who):
    if who != "anonymous":
        user = UserFactory(username=who.replace(" ", "-").replace("'", ""))
        if who == "other club's organiser":
            make_game().season.club.organisers.add(user)
        client.force_login(user)
    second = game.deal_set.get(number=2)
    before = snapshot(game)
    a, b, c, d = seated_ids(game)

    asked = client.get(enter_url(game), {"correct": second.pk})
    edit = client.post(enter_url(game, "correct"), correction(second, [d, c, b, a]))
    delete = client.post(enter_url(game, "deal_delete"), {"deal": second.pk, "token": "t1"})

    assert asked.status_code == edit.status_code == delete.status_code == 403
    assert snapshot(game) == before


def test_a_deal_of_a_finished_game_is_corrected_and_its_end_worked_out_again(client, organiser):
    game = make_game(season_kwargs={"scoring_limit": 4})
    game.season.club.organisers.add(organiser)
    a, b, c, d = seated_ids(game)
    for order in ([a, b, c, d], [a, b, d, c], [a, b, c, d]):  # c 4, d 5: ends after deal 3
        services.deal_record(game=game, finishing_order=order)
    game.refresh_from_db()
    assert game.status == "finished"
    services.game_reopen(game=game)
    names = names_of(game)
    first = game.deal_set.get(number=1)

    listed = client.get(enter_url(game))
    assert f'href="{enter_url(game)}?correct={first.pk}#correct"' in listed.text
    preview = client.post(enter_url(game, "correct_preview"), correction(first, [d, c, b, a]))
    assert f"The game still ends: winner {names[a]}." in words(preview.text)
    client.post(enter_url(game, "correct"), correction(first, [d, c, b, a]))

    game.refresh_from_db()
    assert game.status == "finished"
    assert points(game) == {a: 2, b: 3, c: 4, d: 3}
    assert list(game.seats.filter(is_winner=True).values_list("player_id", flat=True)) == [a]
