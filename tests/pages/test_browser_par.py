"""Par where club players see it (issue #31), in chromium at 360 px and on a desktop: the
standings with par, a player's page, the night's recap and the Par help page fit a phone, load
without a script or Content-Security-Policy error, and lead to the help from a par figure.
``SCREENSHOTS=1`` saves them to docs/screenshots."""

import pytest
from django.urls import reverse

from league import services
from tests.league.factories import ClubFactory, PlayerFactory, make_game, make_season
from tests.pages.test_browser import browser, pytestmark, shoot, visit  # noqa: F401

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
# Finishing orders (indexes of the five players) of one game's deals: Erin, Scum after the
# first, climbs; Alice, President after it, coasts down.
ORDERS = [[0, 1, 2, 3, 4], [4, 1, 2, 0, 3], [1, 4, 0, 2, 3], [4, 0, 1, 3, 2],
          [2, 4, 1, 0, 3], [0, 2, 4, 1, 3]]

# The table cells holding only a number that the page breaks over two lines or more ("29.68"
# set as "29" / ".6" / "8" in a narrow column).
BROKEN_NUMBERS = """() => [...document.querySelectorAll('td')]
    .filter(td => td.childElementCount === 0 && /^[-−+]?[0-9][0-9.,]*$/.test(td.textContent.trim()))
    .filter(td => { const r = document.createRange(); r.selectNodeContents(td);
                    return r.getClientRects().length > 1; })
    .map(td => td.textContent.trim())"""


@pytest.fixture
def night():
    club = ClubFactory(name="The Thursday Night Card Club of Upper Wickham")
    people = [PlayerFactory(name=name, clubs=[club]) for name in
              ("Alice", "Bruno", "Chiara Montgomery-Fitzwilliam", "Dev", "Erin")]
    season = make_season(club=club, name="Spring 2026", preset="presidents-deck",
                         scoring_system="fixed-rounds", scoring_deals=10)
    game = make_game(season=season, players=people)
    for order in ORDERS:
        services.deal_record(game=game, finishing_order=[people[i].pk for i in order])
    return season, people


def test_par_pages_fit_a_phone_and_a_desktop(browser, live_server, night):  # noqa: F811
    season, people = night
    pages = {
        "par-standings": reverse("league:season_detail", args=[season.pk]),
        "par-player": reverse("league:player_detail", args=[people[4].pk]),
        "par-recap": reverse("league:night_recap", args=[season.pk]),
        "par-help": reverse("league:par_help"),
    }
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        for name, url in pages.items():
            page, problems = visit(browser, live_server.url + url,
                                   browser.new_context(viewport=viewport))
            assert problems == [], name
            if size == "phone":
                assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
                assert page.evaluate(BROKEN_NUMBERS) == [], name
            shoot(page, f"{name}-{size}")
            page.context.close()


def test_a_par_figure_on_tonights_screen_leads_to_the_help(browser, live_server,  # noqa: F811
                                                           night):
    season, _ = night
    page, _ = visit(browser, live_server.url + reverse("league:tonight", args=[season.pk]),
                    browser.new_context(viewport=PHONE))
    shoot(page, "par-tonight-phone")
    page.locator("#night-totals tbody tr").first.get_by_role("link").last.click()
    page.wait_for_selector("h1:has-text('What par means')")
    page.go_back()
    page.get_by_role("link", name="Each player's night against par").click()
    page.wait_for_selector("#recap")
    assert page.locator("#recap tbody tr").count() == 5
    page.context.close()


# Names of the table whose words (9 letters or fewer) are broken across lines: a visual check
# found "Chlo / é" when the name column shrank to a letter's width.
BROKEN_NAMES = """sel => [...document.querySelectorAll(sel + ' tbody th')]
    .filter(th => th.textContent.trim().split(/\\s+/).every(w => w.length <= 9))
    .filter(th => { const r = document.createRange(); r.selectNodeContents(th);
                    const tops = new Set([...r.getClientRects()].map(c => Math.round(c.top)));
                    return tops.size > th.textContent.trim().split(/\\s+/).length; })
    .map(th => th.textContent.trim())"""
TABLE_OVERFLOW = """sel => [...document.querySelectorAll(sel)].map(t => {
    const box = t.closest('.scroll') || t; return box.scrollWidth - box.clientWidth; })"""


def test_tonights_totals_and_the_recap_fit_a_phone_with_a_long_unspaced_name(
        browser, live_server, night):  # noqa: F811
    """The audit: at 360 px the night's totals scrolled sideways and cut "over par" off, as a
    40-letter name without a space did not wrap; the recap as well."""
    season, people = night
    long = "Maximiliankarlfriedrichvonundzuhohenberg"
    people[3].name = long + "s"  # 40 letters
    people[3].save()
    for name, url, table in (
            ("tonight-long-name", reverse("league:tonight", args=[season.pk]), "#night-totals"),
            ("recap-long-name", reverse("league:night_recap", args=[season.pk]), "#recap")):
        page, problems = visit(browser, live_server.url + url,
                               browser.new_context(viewport=PHONE))
        assert problems == [], name
        assert page.evaluate(TABLE_OVERFLOW, table) == [0], name
        assert page.evaluate(BROKEN_NUMBERS) == [], name
        assert page.evaluate(BROKEN_NAMES, table) == [], name
        page.set_viewport_size({"width": 320, "height": 640})  # the narrowest phones
        assert page.evaluate(BROKEN_NAMES, table) == [], name
        last = page.locator(f"{table} thead th").last
        assert last.bounding_box()["x"] + last.bounding_box()["width"] <= 360, name
        shoot(page, f"{name}-phone")
        page.context.close()


def test_tonights_totals_of_twelve_keep_their_last_column_on_a_phone(
        browser, live_server):  # noqa: F811
    """A walk through a club night of twelve: at 360 px the totals' last column ("over par",
    "-3.23") was cut off by 6 px, with two-digit ranks, points and deals."""
    club = ClubFactory(name="Demo Club")
    people = [PlayerFactory(name=name, clubs=[club]) for name in (
        "Ada", "Ben", "Chloé", "Dev", "Elif", "Femi", "Gus", "Hana", "Ivy", "Jo", "Kim", "Lee")]
    season = make_season(club=club, preset="presidents-deck", scoring_system="fixed-rounds",
                         scoring_deals=12)
    for table in range(3):
        seated = people[table * 4:table * 4 + 4]
        game = make_game(season=season, players=seated)
        for deal in range(11):
            order = ORDERS[deal % len(ORDERS)]
            services.deal_record(game=game, finishing_order=[
                seated[i].pk for i in order if i < 4])
    page, problems = visit(browser, live_server.url + reverse("league:tonight",
                                                              args=[season.pk]),
                           browser.new_context(viewport=PHONE))
    assert problems == []
    assert page.locator("#night-totals tbody tr").count() == 12
    assert page.evaluate(TABLE_OVERFLOW, "#night-totals") == [0]
    assert page.evaluate(BROKEN_NUMBERS) == []
    assert page.evaluate(BROKEN_NAMES, "#night-totals") == []
