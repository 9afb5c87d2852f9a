"""Phones at a club night on a bad network, in Chromium at 360 × 740, each a browser context
that opened its table's link (the address of the QR code on the night page): a deal whose
answer was lost on the way back."""

from django.urls import reverse

from league.models import Deal
from tests.pages.test_browser import browser, pytestmark  # noqa: F401
from tests.pages.test_browser_entry import PHONE, kept_offline, settle, tap_order
from tests.pages.test_browser_table_links import night, order_of  # noqa: F401


def scan(page, live_server, link):
    page.goto(live_server.url + reverse("league:table_link_open", args=[link.token]))


def stored(game):
    return [list(d.places.order_by("position").values_list("player_id", flat=True))
            for d in Deal.objects.filter(game=game).order_by("number")]


def test_a_deal_whose_answer_was_lost_is_shown_as_stored_once_it_is_sent_again(
        browser, live_server, night):  # noqa: F811
    _, (game, _), _ = night
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    scan(page, live_server, game.table_links.get())
    kept_offline(page)
    lost = []

    def lose_the_first_answer(route):
        if not lost:  # the server records the deal; its answer never reaches the phone
            lost.append(route.fetch().status)
            route.abort("connectionreset")
        else:
            route.continue_()

    ctx.route("**/enter/deal/", lose_the_first_answer)
    order = order_of(game)
    tap_order(page, order)
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.get_by_role("button", name="Confirm deal 1").tap()
    page.wait_for_selector("text=Deal 1 is kept on this phone")
    assert lost == [201] and stored(game) == [order]

    page.get_by_role("button", name="Send now").tap()  # or the next try, 15 s later

    page.wait_for_selector("h1:text('deal 2')")
    assert page.locator("text=Deal 1 is kept on this phone").count() == 0
    assert page.locator("#outbox").is_hidden()
    assert stored(game) == [order]
    settle(page)
    ctx.close()
