"""Phones at a club night on a bad network, in Chromium at 360 × 740, each a browser context
that opened its table's link (the address of the QR code on the night page): a deal whose
answer was lost on the way back, and a deal kept on a phone that may not enter deals when the
connection returns (its session lapsed overnight, its cookies were cleared, its link was
revoked) and is sent once the phone scans the table's code again."""

import pytest
from django.contrib.sessions.models import Session
from django.urls import reverse

from league import services, table_links
from league.models import Deal
from tests.pages.test_browser import browser, pytestmark  # noqa: F401
from tests.pages.test_browser_entry import PHONE, back_online, kept_offline, settle, tap_order
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
    assert page.locator(".messages").inner_text() == "Deal 1 recorded."  # said once
    assert stored(game) == [order]
    settle(page)
    ctx.close()


@pytest.mark.parametrize(("lapse", "words"), [
    ("session ended", "Scan the code on the table card again, or sign in as an organiser of "),
    ("cookies cleared", "This phone's session has ended: scan the code on the table card "
                        "again, or sign in again."),
    ("link revoked", "This table link was revoked by an organiser. Ask the organiser. It "
                     "stays on this phone"),
])
def test_a_deal_kept_on_a_phone_that_may_no_longer_enter_is_sent_after_scanning_again(
        browser, live_server, night, lapse, words):  # noqa: F811
    _, (game, _), organiser = night
    link = game.table_links.get()
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    scan(page, live_server, link)
    kept_offline(page)
    ctx.set_offline(True)
    order = order_of(game)
    tap_order(page, order)
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.get_by_role("button", name="Keep deal 1 to send").tap()
    if lapse == "session ended":  # left open overnight
        Session.objects.all().delete()
    elif lapse == "cookies cleared":
        ctx.clear_cookies()
    else:
        table_links.link_revoke(link=link, by=organiser)
        link = table_links.link_new(game=game, by=organiser)

    back_online(ctx, page)

    held = page.locator("#outbox-list li.held")
    held.wait_for()
    said = held.inner_text()
    assert f"Game {game.number}, deal 1: " in said and "Not sent yet: " in said
    assert words in said and "403" not in said and ".." not in said
    assert stored(game) == []

    scan(page, live_server, link)  # the table's code, scanned again
    page.wait_for_selector("h1:text('deal 2')")
    assert page.locator("#outbox").is_hidden()
    assert stored(game) == [order]
    assert Deal.objects.get(game=game).source == Deal.TABLE_LINK
    settle(page)
    ctx.close()


def test_time_called_while_a_phone_was_offline_keeps_its_deal_in_sight_until_reopened(
        browser, live_server, night):  # noqa: F811
    _, (game, _), organiser = night
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    scan(page, live_server, game.table_links.get())
    kept_offline(page)
    order = order_of(game)
    tap_order(page, order)
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.get_by_role("button", name="Confirm deal 1").tap()
    page.wait_for_selector("text=Deal 1 recorded.")
    ctx.set_offline(True)
    tap_order(page, order[::-1])
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.get_by_role("button", name="Keep deal 2 to send").tap()
    services.game_time_called(game=game, by=organiser)  # the organiser calls time meanwhile

    back_online(ctx, page)
    page.locator("#outbox-list li.held").wait_for()
    page.reload()  # the phone's page is refused now: its kept deal is still shown

    assert page.locator("h1").inner_text() == "Not allowed"
    kept = page.locator("#outbox-list li.held")
    assert f"Game {game.number}, deal 2: " in kept.inner_text()
    assert f"Not sent yet: Time was called on game {game.number}" in kept.inner_text()
    assert stored(game) == [order]

    services.game_reopen(game=game, by=organiser)  # the deal was played: it counts
    page.reload()
    page.wait_for_selector("h1:text('deal 3')")
    assert stored(game) == [order, order[::-1]]
    settle(page)
    ctx.close()


def test_a_phone_back_online_after_an_undo_elsewhere_shows_the_deal_to_enter_now(
        browser, live_server, night):  # noqa: F811
    _, (game, _), _ = night
    link = game.table_links.get()
    (a_ctx, a), (b_ctx, b) = [(ctx, ctx.new_page()) for ctx in
                              (browser.new_context(**PHONE), browser.new_context(**PHONE))]
    for page in (a, b):
        scan(page, live_server, link)
    kept_offline(b)
    order = order_of(game)
    tap_order(a, order)
    a.get_by_role("button", name="Show roles and exchange").tap()
    a.get_by_role("button", name="Confirm deal 1").tap()
    a.wait_for_selector("text=Deal 1 recorded.")
    b.reload()
    b_ctx.set_offline(True)
    tap_order(b, order[::-1])
    b.get_by_role("button", name="Show roles and exchange").tap()
    b.get_by_role("button", name="Keep deal 2 to send").tap()
    a.get_by_role("button", name="Undo deal 1…").tap()  # the other phone undoes meanwhile
    a.get_by_role("button", name="Yes, undo").tap()
    a.wait_for_selector("text=Deal 1 undone.")

    back_online(b_ctx, b)

    b.wait_for_selector("h1:text('deal 1')")  # the page as the server has it now
    said = b.locator("#outbox-list li.conflict").inner_text()
    assert "Deal 2 cannot be recorded: the next deal is deal 1" in said
    assert stored(game) == []
    for page, ctx in ((a, a_ctx), (b, b_ctx)):
        settle(page)
        ctx.close()


def test_a_kept_deal_says_sending_while_on_its_way_and_waiting_only_while_offline(
        browser, live_server, night):  # noqa: F811
    """The outbox said "Waiting to send." the whole time, even while the deal was on its way."""
    _, (game, _), _ = night
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    scan(page, live_server, game.table_links.get())
    kept_offline(page)
    ctx.set_offline(True)
    order = order_of(game)
    tap_order(page, order)
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.get_by_role("button", name="Keep deal 1 to send").tap()
    kept = page.locator("#outbox-list li")
    assert kept.inner_text().endswith("Waiting for the connection: it is sent by itself "
                                      "when the connection returns.")
    on_its_way = []

    def hold(route):  # until the test lets it go
        on_its_way.append(route)

    ctx.route("**/enter/deal/", hold)

    ctx.set_offline(False)
    page.wait_for_selector("#outbox-list li:has-text('Sending…')")
    assert "Waiting" not in kept.inner_text()
    assert page.locator("#outbox-count").inner_text() == "Sending 1 deal…"
    assert page.get_by_role("button", name="Send now").is_hidden()  # it is being sent
    on_its_way[0].continue_()

    page.wait_for_selector("text=Deal 1 recorded.")
    assert page.locator("#outbox").is_hidden() and stored(game) == [order]
    settle(page)
    ctx.close()
