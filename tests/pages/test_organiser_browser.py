"""The organisers' pages in Debian's chromium (Playwright): an organiser on a 360 × 740 phone
creates a season and adds players; axe-core finds no serious or critical violation on the new
pages in either colour scheme; nothing is wider than the phone; the Content-Security-Policy
refuses nothing. README screenshots with SCREENSHOTS=1 (docs/screenshots/organiser-*.png)."""

import pytest
from django.urls import reverse

from gameplay.engine.options import PRESETS
from league import services
from league.models import Player, Season
from tests.league.factories import ClubFactory, PlayerFactory, UserFactory, make_game, make_season
from tests.pages import test_browser
from tests.pages.test_accessibility import (
    DESKTOP,
    FOCUSABLE,
    PHONE,
    tab_through,
    violations_by_page,
)
from tests.pages.test_browser import pytestmark, shoot, signed_in  # noqa: F401

browser = test_browser.browser  # the module's chromium, shared; so are the marks

ON_A_PHONE = {"viewport": PHONE, "is_mobile": True, "has_touch": True}


@pytest.fixture
def club():
    club = ClubFactory(name="Thursday Club")
    organiser = UserFactory(username="olga", is_staff=False)
    club.organisers.add(organiser)
    return club, organiser


def watched(ctx):
    """A page that keeps the console's errors (a refused inline script or style among them)."""
    page = ctx.new_page()
    page.problems = []
    page.on("console", lambda m: page.problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.problems.append(f"uncaught: {e}"))
    return page


def test_an_organiser_creates_a_season_and_adds_players_on_a_phone(
        browser, live_server, client, club):
    club, organiser = club
    ctx = signed_in(browser, live_server, client, organiser, **ON_A_PHONE)
    page = watched(ctx)
    page.goto(live_server.url + reverse("league:club_detail", args=[club.pk]))
    page.get_by_role("link", name="Organise Thursday Club").tap()
    page.wait_for_selector("h1:has-text('Organise Thursday Club')")
    page.get_by_role("link", name="New season").tap()
    page.wait_for_selector("h1:has-text('New season of Thursday Club')")

    page.get_by_label("Name", exact=True).fill("Spring")
    page.get_by_label("Starts on").fill("2026-03-01")
    # Picking friday sets the controls to friday's own rules at once.
    page.locator("label.choice", has_text="Friday Afternoons").tap()
    assert page.locator("#options-preset").inner_text() == "friday"
    assert page.get_by_label("Twos are the highest rank").is_checked()
    # Then the numbered deck: the standard deck's options go, its own values come.
    page.locator("label.choice", has_text="The numbered deck").tap()
    assert page.get_by_label("Twos are the highest rank").is_checked() is False
    assert page.get_by_label("An equal rank beats").is_checked()
    assert not page.get_by_label("Revolution", exact=False).is_visible()
    page.locator("label.choice", has_text="Friday Afternoons").tap()
    assert page.get_by_label("Revolution", exact=False).is_visible()
    page.get_by_label("Revolution", exact=False).check()  # a house rule
    shoot(page, "organiser-season-form")
    # First to eleven takes a target, not a points limit.
    page.locator("label.choice", has_text="First to eleven: each deal").tap()
    assert not page.get_by_label("Points limit (penalty)").is_visible()
    page.get_by_label("Target (first to eleven)").fill("15")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_role("button", name="Create the season").tap()
    page.wait_for_selector("text=Season Spring created.")

    season = Season.objects.get(club=club)
    assert (season.name, season.preset, season.options) == ("Spring", "friday",
                                                          {"revolution": True})
    assert season.scoring == {"system": "first-to-eleven", "target": 15}

    for name in ("Ann", "Bob", "Cat", "Dan"):
        page.get_by_label("New player's name").fill(name)
        page.get_by_role("button", name="Add", exact=True).tap()
        page.wait_for_selector(f"text={name} added to Thursday Club.")
    page.get_by_label("New player's name").fill("ann")
    page.get_by_role("button", name="Add", exact=True).tap()
    page.wait_for_selector("text=Thursday Club already has a player called 'Ann'")
    assert page.get_by_label("New player's name").input_value() == "ann"

    bob = Player.objects.get(name="Bob")
    page.get_by_label("Name of Bob").fill("Bobby")
    page.get_by_role("button", name="Rename Bob").tap()
    page.wait_for_selector("text=Bob is now called Bobby.")
    assert sorted(club.players.values_list("name", flat=True)) == ["Ann", "Bobby", "Cat", "Dan"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Every control on the page is a 44 px target.
    small = page.evaluate("""() => [...document.querySelectorAll(
        'main a.button, main button, main input:not([type=hidden])')]
        .filter(e => e.getClientRects().length && e.getBoundingClientRect().height < 44)
        .map(e => e.outerHTML.slice(0, 80))""")
    assert small == []
    assert bob.pk
    # the refused name's page came with its 400; nothing else went wrong
    assert [p for p in page.problems if "status of 400" not in p] == []
    ctx.close()


@pytest.fixture
def pages(club):
    """Each organiser page, with a season, an open table and some players to show."""
    club, organiser = club
    season = make_season(club=club, name="Winter", preset="school-scum", scoring_limit=5)
    make_season(club=club, name="Autumn", preset="presidents-deck",
                scoring_system="fixed-rounds", scoring_deals=6)
    make_game(season=season, players=[PlayerFactory(name=n, clubs=[club])
                                      for n in ("Ann", "Bob", "Cat", "Dan", "Eve")])
    game = make_game(season=season, players=4)
    ids = list(game.seats.order_by("number").values_list("player_id", flat=True))
    services.deal_record(game=game, finishing_order=ids)
    return {
        "club": reverse("league:organise_club", args=[club.pk]),
        "new season": reverse("league:organise_season_create", args=[club.pk]),
        "edit season": reverse("league:organise_season_edit", args=[season.pk]),
    }, organiser


@pytest.mark.parametrize(("scheme", "viewport"), [("light", PHONE), ("dark", DESKTOP)],
                         ids=["light-360", "dark-1280"])
def test_the_organiser_pages_have_no_serious_axe_violations(browser, live_server, client,
                                                            pages, scheme, viewport):
    urls, organiser = pages
    assert violations_by_page(browser, live_server, client, organiser, urls, scheme=scheme,
                              viewport=viewport) == {}


def test_the_organiser_pages_fit_a_phone_and_the_policy_refuses_nothing(
        browser, live_server, client, pages):
    urls, organiser = pages
    for viewport, suffix in ((ON_A_PHONE, "360"),
                             ({"viewport": DESKTOP, "color_scheme": "dark"}, "desktop-dark")):
        ctx = signed_in(browser, live_server, client, organiser, **viewport)
        page = watched(ctx)
        widths = {}
        for name, url in urls.items():
            page.goto(live_server.url + url)
            page.wait_for_load_state("load")
            widths[name] = page.evaluate("document.documentElement.scrollWidth")
            shoot(page, f"organiser-{name.replace(' ', '-')}-{suffix}")
        if suffix == "360":
            assert {n: w for n, w in widths.items() if w > PHONE["width"]} == {}
        assert page.problems == []
        ctx.close()


@pytest.mark.parametrize("name", ["club", "new season"])
def test_the_keyboard_reaches_every_control_with_a_visible_focus(browser, live_server, client,
                                                                  pages, name):
    urls, organiser = pages
    ctx = signed_in(browser, live_server, client, organiser, viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(live_server.url + urls[name])
    page.wait_for_load_state("load")
    controls = page.evaluate(FOCUSABLE)
    assert len(controls) > 10
    reached, unseen = tab_through(page, len(controls))  # a group of radios is one stop
    # radios of one group take one Tab stop: the arrow keys move between them
    radios = [c for c in controls if 'type="radio"' in c]
    missed = [c for c in controls if c not in reached and c not in radios]
    assert missed == []
    assert unseen == [], "focused without a visible outline"
    ctx.close()


def test_a_refused_season_shows_the_fault_at_its_field(browser, live_server, client,
                                                       club):
    club, organiser = club
    ctx = signed_in(browser, live_server, client, organiser, **ON_A_PHONE)
    page = watched(ctx)
    page.goto(live_server.url + reverse("league:organise_season_create", args=[club.pk]))
    page.get_by_label("Name", exact=True).fill("Spring")
    page.get_by_label("Starts on").fill("2026-03-01")
    assert PRESETS["classic"].jokers == 0
    page.get_by_label("Jokers in the pack").fill("4")
    page.get_by_role("button", name="Create the season").tap()
    alert = page.locator("#form-errors")
    alert.wait_for()
    assert "Jokers in the pack" in alert.inner_text()
    assert ("Jokers: one deck holds at most 2 jokers, not 4; choose 0 to 2, or play with 2 "
            "decks") in alert.inner_text()
    assert page.get_by_label("Jokers in the pack").get_attribute("aria-invalid") == "true"
    shoot(page, "organiser-season-refused")
    assert not Season.objects.exists()
    ctx.close()
