"""The club night's phones in Chromium at 360 × 740: the way back to the plan kept through a
deal entered, none offered to a table's phone; deals kept offline move the page on to the next
deal, its dealer, exchange and roles (as the server says them once it has the deals), said to be
waiting to send."""

from urllib.parse import urlencode

import pytest
from django.urls import reverse

from league import nights
from tests.league.factories import PlayerFactory, UserFactory, make_season, seated_ids
from tests.pages.test_browser import browser, pytestmark, signed_in  # noqa: F401
from tests.pages.test_browser_entry import PHONE, back_online, kept_offline, settle, tap_order
from tests.pages.test_browser_table_links import night, order_of  # noqa: F401


def plan_of(season, game):
    present = "&".join(f"present={i}" for i in seated_ids(game))
    return reverse("league:night_plan", args=[season.pk]) + f"?{present}&round=2"


def lines(text, but=None):
    """The text's lines with words, but those saying ``but``."""
    return [line for line in text.splitlines() if line.strip() and not (but and but in line)]


def entry_from(live_server, game, plan):
    return (live_server.url + reverse("league:game_enter", args=[game.pk]) + "?"
            + urlencode({"next": plan}))


def test_the_way_back_to_the_plan_stays_after_a_deal_entered_on_the_phone(
        browser, live_server, client, night):  # noqa: F811
    season, (game, _), organiser = night
    plan = plan_of(season, game)
    ctx = signed_in(browser, live_server, client, organiser, **PHONE)
    page = ctx.new_page()
    page.goto(entry_from(live_server, game, plan))
    back = page.get_by_role("link", name="Back to the plan")
    assert back.get_attribute("href") == plan

    tap_order(page, order_of(game))
    page.get_by_role("button", name="Show roles and exchange").tap()
    assert back.get_attribute("href") == plan
    page.get_by_role("button", name="Confirm deal 1").tap()
    page.wait_for_selector("text=Deal 1 recorded.")

    assert page.locator("h1").inner_text().endswith("deal 2")
    assert back.get_attribute("href") == plan
    back.tap()
    page.wait_for_url(live_server.url + plan)
    settle(page)
    ctx.close()


def test_a_table_phone_sent_with_the_plans_next_is_offered_no_way_to_it(
        browser, live_server, night):  # noqa: F811
    season, (game, _), _ = night
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto(live_server.url + reverse("league:table_link_open",
                                        args=[game.table_links.get().token]))
    page.goto(entry_from(live_server, game, plan_of(season, game)))
    assert page.locator("a[href*='/night/']").count() == 0

    tap_order(page, order_of(game))
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.get_by_role("button", name="Confirm deal 1").tap()
    page.wait_for_selector("text=Deal 1 recorded.")

    assert page.locator("a[href*='/night/']").count() == 0
    settle(page)
    ctx.close()


@pytest.mark.parametrize("preset", ["classic", "wild-jokers"])  # wild-jokers: the Bum deals
def test_deals_kept_offline_move_the_page_on_to_the_next_deal_and_its_dealer(
        browser, live_server, preset):  # noqa: F811
    organiser = UserFactory(username="organiser")
    season = make_season(name="Autumn", preset=preset)
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=name, clubs=[season.club]) for name in ["Ann", "Ben", "Cai",
                                                                         "Dee"]]
    (game,) = nights.night_confirm(season=season, by=organiser, tables=[(people, 1)])
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto(live_server.url + reverse("league:table_link_open",
                                        args=[game.table_links.get().token]))
    kept_offline(page)
    first_dealer = page.locator("#next p").first.inner_text()
    ctx.set_offline(True)
    orders = [order_of(game), order_of(game)[1:] + order_of(game)[:1]]
    for number, order in enumerate(orders, start=1):
        tap_order(page, order)
        page.get_by_role("button", name="Show roles and exchange").tap()
        page.get_by_role("button", name=f"Keep deal {number} to send").tap()

    offline = page.locator("#next").inner_text()
    assert page.locator("h1").inner_text().endswith("deal 3")
    assert offline.startswith("Before deal 3\n")
    assert "Deals 1 and 2 are kept on this phone, waiting to be sent" in offline
    assert first_dealer not in offline
    page.reload()  # the copy the service worker kept says the same
    assert page.locator("#next").inner_text() == offline

    back_online(ctx, page)
    page.wait_for_selector("#next h2:text('Before deal 3')")
    page.locator("#outbox").wait_for(state="hidden")
    online = page.locator("#next").inner_text()  # the server's words, the deals stored
    assert game.deal_set.count() == 2
    assert lines(offline, but="kept on this phone") == lines(online)
    settle(page)
    ctx.close()
