"""Every page in Debian's chromium: axe-core finds no serious or critical violation in either
colour scheme, the page fits a 360 px phone, and the keyboard reaches every control with a
visible focus ring (issue #18).

axe-core is vendored as its one minified file, tests/pages/vendor/axe.min.js (MPL-2.0, licence
header kept; the licence is tests/pages/vendor/axe-core.LICENSE), so these tests need no network.
The site's Content-Security-Policy rightly refuses an injected inline script, so the axe test's
browser context alone is opened with Playwright's `bypass_csp=True`.
"""

import shutil
from pathlib import Path

import pytest
from django.urls import reverse

from league import nights, services
from league.models import Player
from outside_bots.models import OutsideBot
from tests.league.factories import (
    PlayerFactory,
    UserFactory,
    make_game,
    make_season,
    seated_ids,
)
from tests.pages import test_browser
from tests.pages.test_browser import CHROMIUM, bot_game, signed_in
from tests.tournaments.helpers import small_tournament
from tournaments import services as tournaments
from tournaments.models import TournamentGame

browser = test_browser.browser  # the module's chromium, shared
AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not shutil.which("chromium") and not Path(CHROMIUM).exists(),
                       reason="Debian's chromium is not installed (.ci/run installs it)"),
]

IMPACTS = ("serious", "critical")
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def site():
    """A club with a played season (a bot deal with its transcript for the replay, two entered
    deals), an organiser, a club night of twelve that has ended, a night with a round in play
    and latecomers, a finished and a cancelled tournament, a presidents-deck replay: the URL of
    every page to check."""
    game = make_game(players=4, season_kwargs={"preset": "classic", "scoring_limit": 20})
    organiser = UserFactory(username="organiser")
    game.season.club.organisers.add(organiser)
    deal = services.deal_record(game=game, transcript=bot_game("classic", 3))
    ids = seated_ids(game)
    services.deal_record(game=game, finishing_order=ids)
    services.deal_record(game=game, finishing_order=ids[::-1])
    tournament = small_tournament("Cup", games_per_table=1)
    tournaments.tournament_start(tournament=tournament)
    cancelled = tournaments.tournament_cancel(tournament=small_tournament("Plate"))
    tournament.club.organisers.add(organiser)
    ended, playing = ended_night(organiser), round_in_play(organiser)
    presidents = make_game(players=4, season_kwargs={"preset": "presidents-deck"})
    presidents_deal = services.deal_record(game=presidents,
                                           transcript=bot_game("presidents-deck", 5))
    player = Player.objects.get(pk=ids[0])
    pages = {
        "home": reverse("home"),
        "club list": reverse("league:club_list"),
        "season": reverse("league:season_detail", args=[game.season.pk]),
        "game": reverse("league:game_detail", args=[game.pk]),
        "player": reverse("league:player_detail", args=[player.pk]),
        "replay": reverse("league:deal_replay", args=[deal.pk]),
        "replay upload": reverse("league:replay_upload"),
        "tournament": reverse("gameplay:tournament", args=[tournament.pk]),
        "tournament game replay": reverse("gameplay:deal_replay", args=[
            TournamentGame.objects.filter(tournament=tournament).first().pk, 1]),
        "entry (organiser)": reverse("league:game_enter", args=[game.pk]),
        "admin login": reverse("admin:login"),
        "club": reverse("league:club_detail", args=[game.season.club.pk]),
        "player search": reverse("league:player_search") + "?q=a",
        "rules": reverse("league:rules", args=["classic"]),
        "rating help": reverse("league:rating_help"),
        "profile": reverse("accounts:profile"),
        "my bots": reverse("accounts:bot_list"),
        "register a bot": reverse("accounts:bot_create"),
        "password reset": reverse("account_reset_password"),
        "club night (organiser)": reverse("league:night", args=[game.season.pk]),
        "night plan (organiser)": reverse("league:night_plan", args=[game.season.pk])
        + "?" + "&".join(f"present={i}" for i in ids) + "&low=2&high=2&rounds=2",
        "tonight": reverse("league:tonight", args=[game.season.pk]),
        "club night ended (organiser)": reverse("league:night", args=[ended.pk]),
        "tonight, twelve people's results": reverse("league:tonight", args=[ended.pk]),
        "night plan, more tables of a round (organiser)": reverse(
            "league:night_plan", args=[playing.pk]) + "?" + "&".join(
            f"present={p.pk}" for p in Player.objects.filter(clubs=playing.club, seats=None))
        + "&low=4&high=4&round=2&rounds=2",
        "tournament cancelled": reverse("gameplay:tournament", args=[cancelled.pk]),
        "new tournament (organiser)": reverse("gameplay:tournament_create",
                                              args=[tournament.club.pk]),
        "club with tournaments": reverse("league:club_detail", args=[tournament.club.pk]),
        "presidents-deck replay": reverse("league:deal_replay", args=[presidents_deal.pk]),
        "not found": "/league/players/999999/",
    }
    OutsideBot.objects.create(name="organisers-bot", url="https://bots.example.org/play",
                              owner=organiser)
    return pages, organiser


def ended_night(organiser):
    """A night of twelve at three tables, two deals each, time called on every one: its season."""
    season = make_season(preset="classic", scoring_system="first-to-eleven")
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=name, clubs=[season.club]) for name in (
        "Anneliese-Marie Longname", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo",
        "Kit", "Lou")]
    for game in nights.night_confirm(season=season, tables=[
            (people[:4], 0), (people[4:8], 0), (people[8:], 0)]):
        services.deal_record(game=game, finishing_order=seated_ids(game))
        services.deal_record(game=game, finishing_order=seated_ids(game)[::-1])
        services.game_time_called(game=game)
    return season


def round_in_play(organiser):
    """Round 1 playing at a table of four, four latecomers not yet seated: its season."""
    season = make_season(preset="classic", scoring_limit=20)
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(8)]
    nights.night_confirm(season=season, tables=[(people[:4], 0)])
    return season


def axe_violations(page):
    """axe's serious and critical violations on the page as 'rule: target' strings."""
    page.add_script_tag(content=AXE)
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {', '.join(str(n['target']) for n in v['nodes'][:3])}"
            for v in results["violations"] if v["impact"] in IMPACTS]


def violations_by_page(browser, live_server, client, user, pages: dict, *, scheme: str,
                       viewport: dict) -> dict:
    """axe's serious and critical violations of each page (name: url), seen by ``user``."""
    ctx = signed_in(browser, live_server, client, user, viewport=viewport, color_scheme=scheme,
                    bypass_csp=True)
    page = ctx.new_page()
    found = {}
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("load")
        violations = axe_violations(page)
        if violations:
            found[name] = violations
    ctx.close()
    return found


# Each scheme once; the phone in light, the desktop in dark, so both layouts are checked too.
@pytest.mark.slow
@pytest.mark.parametrize(("scheme", "viewport"), [("light", PHONE), ("dark", DESKTOP)],
                         ids=["light-360", "dark-1280"])
def test_no_page_has_serious_axe_violations(browser, live_server, client, site, scheme,
                                            viewport):
    pages, organiser = site
    assert violations_by_page(browser, live_server, client, organiser, pages, scheme=scheme,
                              viewport=viewport) == {}


def test_the_admins_game_and_deal_pages_have_no_serious_axe_violations(browser, live_server,
                                                                       client, admin_user):
    """The admin's pages of a game and of a deal, changed for the league (league/admin.py), in
    both schemes."""
    game = make_game(players=4)
    deal = services.deal_record(game=game, finishing_order=seated_ids(game))
    pages = {"game": reverse("admin:league_game_change", args=[game.pk]),
             "deal": reverse("admin:league_deal_change", args=[deal.pk])}
    for scheme, viewport in (("light", PHONE), ("dark", DESKTOP)):
        assert violations_by_page(browser, live_server, client, admin_user, pages, scheme=scheme,
                                  viewport=viewport) == {}, scheme


def test_every_page_fits_a_360_px_phone(browser, live_server, client, site):
    pages, organiser = site
    ctx = signed_in(browser, live_server, client, organiser, viewport=PHONE, is_mobile=True,
                    has_touch=True)
    page = ctx.new_page()
    widths = {}
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("load")
        widths[name] = page.evaluate("document.documentElement.scrollWidth")
    ctx.close()
    assert {name: w for name, w in widths.items() if w > PHONE["width"]} == {}


# Every element the keyboard should reach, in the page's order, and a description of the
# element now focused with the width and style of its outline.
FOCUSABLE = """() => [...document.querySelectorAll(
    'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])')]
  .filter(e => !e.disabled && e.type !== 'hidden' && e.getClientRects().length
               && getComputedStyle(e).visibility !== 'hidden'
               && !(e.closest('details:not([open])') && !e.closest('summary')))  // folded away
  .map(e => e.outerHTML.slice(0, 120))"""
FOCUSED = """() => { const e = document.activeElement, s = getComputedStyle(e);
  return [e.outerHTML.slice(0, 120), parseFloat(s.outlineWidth), s.outlineStyle]; }"""


def tab_through(page, presses: int) -> tuple[list, list]:
    """Press Tab up to ``presses`` times, stopping once focus is back on the page's body: the
    elements reached, and those among them focused without a visible outline."""
    reached, unseen = [], []
    for _ in range(presses):
        page.keyboard.press("Tab")
        element, width, style = page.evaluate(FOCUSED)
        if element.startswith("<body"):
            break
        reached.append(element)
        if width < 2 or style == "none":
            unseen.append(element)
    return reached, unseen


@pytest.mark.parametrize("name", ["season", "game", "replay", "entry (organiser)", "tournament",
                                  "replay upload", "club night (organiser)",
                                  "night plan (organiser)"])
def test_the_keyboard_reaches_every_control_with_a_visible_focus(browser, live_server, client,
                                                                  site, name):
    pages, organiser = site
    ctx = signed_in(browser, live_server, client, organiser, viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(live_server.url + pages[name])
    page.wait_for_load_state("load")
    controls = page.evaluate(FOCUSABLE)
    assert len(controls) > 3
    reached, unseen = tab_through(page, len(controls))
    assert reached[0].startswith('<a class="skip-link"')
    assert [c for c in controls if c not in reached] == []
    assert unseen == [], "focused without a visible outline"
    ctx.close()


COLOURS = """() => {
  const colour = s => getComputedStyle(document.querySelector(s)).backgroundColor;
  return [colour('body'), colour('.table-felt'), colour('#step-hands .card')]; }"""


def test_dark_mode_follows_the_system_setting_and_keeps_the_cards(browser, live_server, site):
    pages, _ = site
    shown = {}
    for scheme in ("light", "dark"):
        page = browser.new_page(color_scheme=scheme, viewport=PHONE)
        page.goto(live_server.url + pages["replay"])
        page.wait_for_selector("#step-hands .card")
        shown[scheme] = page.evaluate(COLOURS)
        page.close()
    assert shown["light"][0] == "rgb(255, 255, 255)"
    assert shown["dark"][0] == "rgb(20, 23, 28)"
    # The felt and the cards are the same in both schemes: white cards on green baize.
    assert shown["light"][1:] == shown["dark"][1:] == ["rgb(31, 94, 59)", "rgb(255, 255, 255)"]
