"""The club night's phones in Chromium at 360 × 740: the way back to the plan kept through a
deal entered, none offered to a table's phone."""

from urllib.parse import urlencode

from django.urls import reverse

from tests.league.factories import seated_ids
from tests.pages.test_browser import browser, pytestmark, signed_in  # noqa: F401
from tests.pages.test_browser_entry import PHONE, settle, tap_order
from tests.pages.test_browser_table_links import night, order_of  # noqa: F401


def plan_of(season, game):
    present = "&".join(f"present={i}" for i in seated_ids(game))
    return reverse("league:night_plan", args=[season.pk]) + f"?{present}&round=2"


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
