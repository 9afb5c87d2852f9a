"""The new tournament page in Debian's chromium: an organiser on a 360 × 740 phone goes from
the club's page to a played tournament with a name, Create and Start; axe-core finds no
serious or critical violation on the page (new, and refused) in either colour scheme; it fits
the phone. Screenshots with SCREENSHOTS=1 (docs/screenshots/tournament-create-*.png)."""

import pytest
from django.urls import reverse

from tests.league.factories import UserFactory
from tests.pages import test_browser
from tests.pages.test_accessibility import (
    DESKTOP,
    FOCUSABLE,
    PHONE,
    axe_violations,
    tab_through,
    violations_by_page,
)
from tests.pages.test_browser import pytestmark, shoot, signed_in  # noqa: F401
from tests.tournaments.helpers import bot_club
from tournaments.models import Tournament

browser = test_browser.browser  # the module's chromium, shared; so are the marks


@pytest.fixture
def club():
    club = bot_club("Thursday Club")
    organiser = UserFactory(username="olga", is_staff=False)
    club.organisers.add(organiser)
    return club, organiser


def test_an_organiser_creates_and_plays_a_tournament_on_a_phone(browser, live_server, client,
                                                                 club):
    club, organiser = club
    ctx = signed_in(browser, live_server, client, organiser, viewport=PHONE, is_mobile=True,
                    has_touch=True)
    page = ctx.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(live_server.url + reverse("league:club_detail", args=[club.pk]))
    with page.expect_navigation():
        page.get_by_role("link", name="New bot tournament").click()
    assert page.get_by_text("20 games of 1 deal: 20 deals in all.").is_visible()
    shoot(page, "tournament-create")

    page.get_by_label("Name", exact=True).fill("Thursday cup")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the tournament").click()
    tournament = Tournament.objects.get(name="Thursday cup")
    assert page.url == live_server.url + tournament.get_absolute_url()
    assert page.get_by_text("Not started yet: 20 games to play.").is_visible()

    with page.expect_navigation():
        page.get_by_role("button", name="Start tournament").click()
    assert page.get_by_text("This tournament is finished: all 20 games were played.") \
        .is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert problems == []
    ctx.close()


def test_a_refusal_is_shown_at_its_field_on_a_phone(browser, live_server, client, club):
    club, organiser = club
    ctx = signed_in(browser, live_server, client, organiser, viewport=PHONE, is_mobile=True,
                    has_touch=True, bypass_csp=True)  # for axe
    page = ctx.new_page()
    page.goto(live_server.url + reverse("gameplay:tournament_create", args=[club.pk]))
    page.get_by_label("Name", exact=True).fill("Thursday cup")
    page.get_by_label("Bot 6: player name").fill("Monty")
    page.get_by_label("Bot 6: settings").fill("playouts=99999")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the tournament").click()
    error = page.locator("#id_bot-5-settings_error")
    assert "montecarlo playouts must be from 1 to 2,000, not 99,999" in error.inner_text()
    assert page.get_by_label("Bot 6: settings").input_value() == "playouts=99999"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "tournament-create-refused")
    assert not Tournament.objects.exists()
    assert axe_violations(page) == []
    ctx.close()


@pytest.mark.parametrize(("scheme", "viewport"), [("light", PHONE), ("dark", DESKTOP)],
                         ids=["light-360", "dark-1280"])
def test_the_page_has_no_serious_axe_violations(browser, live_server, client, club, scheme,
                                                viewport):
    club, organiser = club
    new = reverse("gameplay:tournament_create", args=[club.pk])
    pages = {"new tournament": new,
             "organise the club": reverse("league:organise_club", args=[club.pk]),
             "club": reverse("league:club_detail", args=[club.pk])}
    assert violations_by_page(browser, live_server, client, organiser, pages, scheme=scheme,
                              viewport=viewport) == {}


def test_the_keyboard_reaches_every_control_with_a_visible_focus(browser, live_server, client,
                                                                  club):
    club, organiser = club
    ctx = signed_in(browser, live_server, client, organiser, viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(live_server.url + reverse("gameplay:tournament_create", args=[club.pk]))
    controls = page.evaluate(FOCUSABLE)
    assert len(controls) > 30
    reached, unseen = tab_through(page, len(controls))
    radios = [c for c in controls if 'type="radio"' in c]  # a group is one Tab stop
    assert [c for c in controls if c not in reached and c not in radios] == []
    assert unseen == [], "focused without a visible outline"
    ctx.close()
