"""A page refused in words (league/refused.html): its title fits its status, and a visitor is
offered the site's own log-in only where signing in can help."""

import re

import pytest
from django.urls import reverse

from league import services
from tests.league.factories import make_game, seated_ids

pytestmark = pytest.mark.django_db


def title(page):
    return re.search(r"<title>(.*?)</title>", page.text, re.S).group(1).strip()


def test_a_page_not_there_says_not_found_and_offers_no_log_in(client):
    game = make_game()
    deal = services.deal_record(game=game, finishing_order=seated_ids(game))
    for address in (reverse("league:deal_replay", args=[deal.pk]),
                    reverse("league:rules", args=["no-such-page"])):
        page = client.get(address)
        assert page.status_code == 404, address
        assert title(page).startswith("Not found"), address
        assert "<h1>Not found</h1>" in page.text
        assert "/admin/login/" not in page.text and "Sign in</a>" not in page.text


def test_a_visitor_refused_is_offered_the_sites_log_in_back_to_the_page(client):
    game = make_game()
    address = reverse("league:game_time_called", args=[game.pk])
    page = client.get(address)
    assert page.status_code == 403
    assert title(page).startswith("Not allowed")
    assert f'<a href="{reverse("account_login")}?next={address}">Log in</a>' in page.text
    assert "/admin/login/" not in page.text
