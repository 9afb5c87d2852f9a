"""Table links in a real browser (issue #28) at 360 × 740: two phones that never signed in
open their tables' links (what the QR codes on the night page say), enter deals, one of them
offline and then back online through its outbox; a link opens nothing of another game, in the
pages or the API; a link revoked on the night page (asked first) records no more, and the table
gets a new one.

It counts the taps of "first deal on a fresh phone" (before table links: 8–9 taps to sign in
with the organiser's account, then the deal) and of "enter one deal", and prints them.
Screenshots with SCREENSHOTS=1: table-links-night(-desktop).png, table-cards(-print).png."""

import pytest
from django.urls import reverse

from league import nights, services
from league.models import Deal
from tests.league.factories import PlayerFactory, UserFactory, make_season
from tests.pages.test_browser import browser, pytestmark, shoot, signed_in, visit  # noqa: F401
from tests.pages.test_browser_entry import PHONE, kept_offline, settle

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
NAMES = ["Ann", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal"]


class Taps:
    """Each tap a person makes on a phone, counted (a scan of a table card's code is one)."""

    def __init__(self):
        self.count = 0

    def tap(self, locator):
        locator.tap()
        self.count += 1

    def scan(self, page, url):
        page.goto(url)
        self.count += 1

    def deal(self, page, order, number, offline=False):
        for player in order:
            self.tap(page.locator(f'#taps button[data-player="{player}"]'))
        self.tap(page.get_by_role("button", name="Show roles and exchange"))
        if offline:
            self.tap(page.get_by_role("button", name=f"Keep deal {number} to send"))
        else:
            self.tap(page.get_by_role("button", name=f"Confirm deal {number}"))
            page.wait_for_selector(f"text=Deal {number} recorded.")


@pytest.fixture
def night(live_server, client):
    """A confirmed round of two tables of four, and the organiser."""
    organiser = UserFactory(username="organiser")
    season = make_season(name="Autumn", preset="classic",
                         scoring={"system": "penalty", "limit": 50})
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=name, clubs=[season.club]) for name in NAMES]
    games = nights.night_confirm(season=season, by=organiser,
                                 tables=[(people[:4], 1), (people[4:], 0)])
    return season, games, organiser


def order_of(game):
    return list(game.seats.order_by("-number").values_list("player_id", flat=True))


def no_overflow(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.slow
def test_two_fresh_phones_enter_deals_through_table_links(browser, live_server, client, night):  # noqa: F811
    season, (game_a, game_b), organiser = night
    laptop = signed_in(browser, live_server, client, organiser, **DESKTOP)
    night_url = live_server.url + reverse("league:night", args=[season.pk])
    desk, problems = visit(browser, night_url, laptop)
    links = desk.locator(".link-url a").evaluate_all("links => links.map(a => a.href)")
    assert len(links) == 2 and desk.locator(".link-card svg.qr").count() == 2
    assert problems == []
    shoot(desk, "table-links-night-desktop")

    # Phone A: scan, then the first deal; then one more deal.
    phone_a = browser.new_context(**PHONE)
    a = phone_a.new_page()
    first = Taps()
    first.scan(a, links[0])
    assert a.locator("h1").inner_text() == f"Game {game_a.number}: deal 1"
    first.deal(a, order_of(game_a), 1)
    one = Taps()
    one.deal(a, order_of(game_a), 2)
    print(f"\nTAPS first deal on a fresh phone (4 players, table link): {first.count}")
    print(f"TAPS enter one deal (4 players): {one.count}")
    assert first.count == 1 + one.count

    # Phone B: its link, then offline: the deal is kept on the phone and sent once back online.
    phone_b = browser.new_context(**PHONE)
    b = phone_b.new_page()
    b.goto(links[1])
    kept_offline(b)
    phone_b.set_offline(True)
    Taps().deal(b, order_of(game_b), 1, offline=True)
    assert b.locator("#outbox-count").inner_text() == "1 deal waiting to send"
    phone_b.set_offline(False)
    b.wait_for_function("() => !JSON.parse(localStorage.getItem('league-outbox') || '[]')"
                        ".length")
    deals = {g: list(Deal.objects.filter(game=g).values_list("source", "table_link__game"))
             for g in (game_a, game_b)}
    assert deals == {game_a: [("link", game_a.pk)] * 2, game_b: [("link", game_b.pk)]}

    # Phone A is a stranger to game B's entry page and to the API.
    refused = a.goto(live_server.url + reverse("league:game_enter", args=[game_b.pk]))
    assert refused.status == 403
    answer = a.evaluate("""async (game) => (await fetch('/api/v1/deals/', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: game, number: 2, finishing_order: []})})).status""",
                        game_b.pk)
    assert answer in (401, 403)
    assert Deal.objects.filter(game=game_b).count() == 1

    # The table cards, on screen and as printed.
    cards, problems = visit(browser, live_server.url + reverse("league:table_cards",
                                                               args=[season.pk]), laptop)
    assert cards.locator(".table-card").count() == 2 and problems == []
    shoot(cards, "table-cards")
    cards.emulate_media(media="print")
    assert cards.locator(".site-header").is_hidden()
    shoot(cards, "table-cards-print")

    # The night page at 360 px; the organiser revokes table 2's link: phone B records no more.
    organiser_phone = signed_in(browser, live_server, client, organiser, **PHONE)
    small, _ = visit(browser, night_url, organiser_phone)
    no_overflow(small, 360)
    shoot(small, "table-links-night")
    # In front again (the phone's window was opened over it): a page behind others gets few
    # animation frames, and each click waits two of them to see its button stand still.
    desk.bring_to_front()
    desk.reload()
    desk.get_by_role("button", name="Revoke this link… of round 1, table 2").click()
    question = desk.get_by_role("dialog", name="Revoke the link of round 1, table 2?")
    question.get_by_role("button", name="No, keep it").click()  # a mis-tap costs nothing
    assert question.is_hidden() and desk.locator(".link-card").count() == 2
    desk.get_by_role("button", name="Revoke this link… of round 1, table 2").click()
    question.get_by_role("button", name="Yes, revoke this link").click()
    desk.wait_for_selector("text=was revoked")
    assert desk.locator(".link-card").count() == 1
    b.goto(live_server.url + reverse("league:game_enter", args=[game_b.pk]))
    assert "revoked" in b.locator(".error").inner_text()
    desk.get_by_role("button", name="New link for round 1, table 2").click()
    desk.wait_for_selector("text=A new table link for round 1, table 2")
    assert desk.locator(".link-card").count() == 2

    for page in (a, b, desk, small, cards):
        settle(page)
    for ctx in (phone_a, phone_b, laptop, organiser_phone):
        ctx.close()


def test_a_seat_change_asked_for_once_the_link_stopped_shows_the_servers_refusal(
        browser, live_server, night):  # noqa: F811
    """Time called while the phone's page was open: asking for the shifted roles of someone
    leaving is refused (403, the stopped link's page). The preview is fetched by the page's
    script, which took any answer without its section for no connection ("Leaving and
    joining need a connection…") and kept the phone on the form; it shows the server's page,
    with the way to the game's totals."""
    season, (game, _), organiser = night
    services.deal_record(game=game, number=1, finishing_order=order_of(game), by=organiser)
    link = game.table_links.get()
    phone = browser.new_context(**PHONE)
    page = phone.new_page()
    page.goto(live_server.url + reverse("league:table_link_open", args=[link.token]))
    page.locator("#seat-form label.check").first.tap()
    services.game_time_called(game=game, by=organiser)
    page.get_by_role("button", name="Show the shifted roles").tap()
    page.wait_for_selector("text=Time was called on game", timeout=10000)
    assert page.locator(".error").inner_text() == (
        f"Time was called on game {game.number}: its table link no longer enters deals. Ask "
        "the organiser.")
    assert page.get_by_role("link", name=f"Game {game.number}: the totals").is_visible()
    assert not page.get_by_text("need a connection").count()
    no_overflow(page, 360)
    settle(page)
    phone.close()
