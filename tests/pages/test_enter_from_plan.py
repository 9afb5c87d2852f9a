"""The entry page reached from the club night's plan ("Enter who leaves at game N"), the way
back after the seat change, and what the page says of a deal sent twice and of the people
at another open table."""

import html
import re

import pytest
from django.urls import reverse

from league import services, table_links
from league.models import Deal, Seat
from tests.league.factories import PlayerFactory, UserFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game = make_game()
    services.deal_record(game=game, finishing_order=seated_ids(game))
    return game


@pytest.fixture
def organiser(game):
    user = UserFactory(username="plan-organiser")
    game.season.club.organisers.add(user)
    return user


def _plan(game):
    present = "&".join(f"present={i}" for i in seated_ids(game))
    return reverse("league:night_plan", args=[game.season.pk]) + f"?{present}&round=2"


def _leave_link(client, plan, game):
    """The plan's "Enter who leaves at game N" link, as the organiser's browser follows it."""
    page = client.get(plan).text
    links = re.findall(r'href="([^"]*)"[^>]*>Enter who leaves at game '
                       rf'{game.number}<', page)
    assert links, "no link to enter who leaves"
    return html.unescape(links[0])


def test_a_seat_change_entered_from_the_plan_goes_back_to_the_plan(client, game, organiser):
    client.force_login(organiser)
    plan = _plan(game)
    link = _leave_link(client, plan, game)

    entry = client.get(link)
    assert entry.status_code == 200
    back = f'<a href="{plan}">Back to the plan</a>'.replace("&", "&amp;")
    assert back in entry.text  # the way back, offered
    leaving = seated_ids(game)[0]
    preview = client.post(reverse("league:seat_change_preview", args=[game.pk]),
                          {"leaving": [leaving], "next": plan})
    assert f'name="next" value="{plan}"'.replace("&", "&amp;") in preview.text
    done = client.post(reverse("league:seat_change", args=[game.pk]),
                       {"leaving": [leaving], "next": plan}, follow=True)

    assert done.redirect_chain[-1][0] == plan
    assert "leaves." in done.text
    assert game.seats.get(player_id=leaving).left_before == 2


@pytest.mark.parametrize("elsewhere", ["https://evil.example/league/", "//evil.example/"])
def test_the_entry_page_goes_back_only_to_the_sites_own_pages(client, game, organiser,
                                                              elsewhere):
    client.force_login(organiser)
    entry = client.get(reverse("league:game_enter", args=[game.pk]), {"next": elsewhere})
    assert "evil" not in entry.text
    done = client.post(reverse("league:seat_change", args=[game.pk]),
                       {"leaving": [seated_ids(game)[0]], "next": elsewhere})
    assert done["Location"] == reverse("league:game_enter", args=[game.pk])


def test_a_deal_sent_again_after_its_answer_was_lost_is_said_once(client, game, organiser):
    """The outbox sends a deal again when its answer never came back: the page then says
    "Deal 1 recorded." once, not that and "already recorded" too."""
    fresh = make_game(season=game.season)
    client.force_login(organiser)
    data = {"token": "same-form", "number": 1,
            **{f"place_{i}": p for i, p in enumerate(seated_ids(fresh), start=1)}}
    url = reverse("league:deal_record", args=[fresh.pk])

    first = client.post(url, data, HTTP_ACCEPT="application/json")  # its answer is lost
    again = client.post(url, data, HTTP_ACCEPT="application/json")
    page = client.get(reverse("league:game_enter", args=[fresh.pk])).text

    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["message"] == "Deal 1 recorded."
    assert page.count("Deal 1 recorded.") == 1 and "already recorded" not in page
    assert Deal.objects.filter(game=fresh).count() == 1


def test_people_at_another_open_table_are_named_once_per_table(client, game, organiser):
    others = [PlayerFactory(name=n, clubs=[game.season.club]) for n in ("Ada", "Ben", "Cy")]
    other = make_game(season=game.season, players=[*others, PlayerFactory(
        name="Dot", clubs=[game.season.club])])
    client.force_login(organiser)

    page = client.get(reverse("league:game_enter", args=[game.pk])).text

    said = re.search(r"Not offered, as they sit at another open table: (.*?)\.</p>",
                     page).group(1).replace("<bdi>", "").replace("</bdi>", "")
    assert said.count(f"(game {other.number})") == 1
    assert said.startswith("Ada, Ben, Cy and Dot at ")
    assert not Seat.objects.filter(game=game, player__in=others).exists()


def test_the_way_back_to_the_plan_is_kept_through_a_deal_recorded(client, game, organiser):
    """Entering a deal (check, then confirm) from the plan's link keeps its way back."""
    client.force_login(organiser)
    plan = _plan(game)
    order = {f"place_{i}": p for i, p in enumerate(seated_ids(game), start=1)}
    back = f'<a href="{plan}">Back to the plan</a>'.replace("&", "&amp;")
    hidden = f'name="next" value="{plan}"'.replace("&", "&amp;")

    entry = client.get(reverse("league:game_enter", args=[game.pk]), {"next": plan}).text
    assert back in entry
    assert hidden in entry.split('id="order-form"')[1].split("</form>")[0]
    preview = client.post(reverse("league:deal_preview", args=[game.pk]),
                          {**order, "number": 2, "token": "t2", "next": plan}).text
    assert back in preview
    assert hidden in preview.split('class="confirm-form')[1].split("</form>")[0]
    done = client.post(reverse("league:deal_record", args=[game.pk]),
                       {**order, "number": 2, "token": "t2", "next": plan}, follow=True)

    assert "Deal 2 recorded." in done.text
    assert back in done.text
    assert game.deal_set.count() == 2


def test_a_table_link_phone_is_offered_no_way_back_to_the_organisers_plan(client, game,
                                                                         organiser):
    link = table_links.link_new(game=game, by=organiser)
    client.get(reverse("league:table_link_open", args=[link.token]))
    plan = _plan(game)

    entry = client.get(reverse("league:game_enter", args=[game.pk]), {"next": plan})

    assert entry.status_code == 200
    assert "Back to the plan" not in entry.text and "/night/plan/" not in entry.text
