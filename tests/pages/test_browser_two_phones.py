"""Two phones at one table enter the same deal (issue #26, item 1), in two browser contexts
at 360 px: one is stored, the other is told it was already recorded (when, from where, by
whom, what), and nothing is doubled; the same with one phone offline, its outbox showing the
conflict after reconnecting instead of storing it as the next deal."""

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Deal
from tests.league.factories import UserFactory, seated_ids

# The browser fixture and the marks (browser, live database, chromium present) are shared.
from tests.pages.test_browser import browser, pytestmark, shoot, signed_in, table  # noqa: F401
from tests.pages.test_browser_entry import PHONE, kept_offline, settle, tap_order


@pytest.fixture
def phones(browser, live_server, client, table):  # noqa: F811
    """The game, and two organisers' phones on its entry page: (context, page) each."""
    game, organiser = table
    second = UserFactory(username="second-organiser")
    game.season.club.organisers.add(second)
    opened = []
    for user, login in ((organiser, client), (second, Client())):
        ctx = signed_in(browser, live_server, login, user, **PHONE)
        page = ctx.new_page()
        page.goto(live_server.url + reverse("league:game_enter", args=[game.pk]))
        opened.append((ctx, page))
    yield game, opened
    for ctx, page in opened:
        settle(page)
        ctx.close()


def check_deal(page, order):
    tap_order(page, order)
    page.get_by_role("button", name="Show roles and exchange").tap()


def stored(game):
    return [list(d.places.order_by("position").values_list("player_id", flat=True))
            for d in Deal.objects.filter(game=game).order_by("number")]


def names_of(game, order):
    names = dict(game.seats.values_list("player_id", "player__name"))
    return ", ".join(names[p] for p in order)


def test_the_same_deal_confirmed_on_two_phones_is_stored_once_and_the_second_told(phones):
    game, ((_, first), (_, second)) = phones
    order = seated_ids(game)[::-1]
    check_deal(first, order)
    check_deal(second, order)

    first.get_by_role("button", name="Confirm deal 1").tap()
    first.wait_for_selector("text=Deal 1 recorded.")
    second.get_by_role("button", name="Confirm deal 1").tap()

    conflict = second.locator("#outbox-list li.conflict")
    conflict.wait_for()
    said = conflict.inner_text()
    assert f"Game {game.number}, deal 1 from this phone was not stored." in said
    assert ("Deal 1 was already recorded at " in said
            and f"from the entry page by organiser (finishing order: {names_of(game, order)}); "
                "nothing was recorded, the next deal is deal 2." in said)
    assert stored(game) == [order]
    assert second.locator("h1").inner_text() == f"Game {game.number}: deal 2"
    shoot(second, "entry-conflict")

    second.reload()  # kept until the organiser resolves it
    assert "already recorded" in second.locator("#outbox-list").inner_text()
    second.get_by_role("button", name="Discard this phone's copy").tap()
    assert second.locator("#outbox").is_hidden()
    assert stored(game) == [order]


def test_a_phone_offline_meanwhile_shows_the_conflict_and_stores_no_deal_2(phones):
    game, ((_, first), (offline_ctx, offline)) = phones
    order = seated_ids(game)
    kept_offline(offline)
    offline_ctx.set_offline(True)
    check_deal(offline, order[::-1])
    posted = []
    offline.on("request", lambda request: request.method == "POST" and posted.append(request))
    offline.get_by_role("button", name="Keep deal 1 to send").tap()
    offline.wait_for_function("document.querySelector('#outbox-list li strong')"
                              "?.textContent.startsWith('Waiting for the connection')")
    # An offline phone does not try (and say "Sending…") until the connection returns.
    assert posted == []
    assert offline.locator("#outbox-count").inner_text() == "1 deal waiting to send"

    check_deal(first, order)
    first.get_by_role("button", name="Confirm deal 1").tap()
    first.wait_for_selector("text=Deal 1 recorded.")

    offline_ctx.set_offline(False)  # the outbox sends deal 1 and is told it is recorded
    conflict = offline.locator("#outbox-list li.conflict")
    conflict.wait_for()
    said = conflict.inner_text()
    assert "Deal 1 was already recorded at " in said
    assert f"(finishing order: {names_of(game, order)})" in said
    assert f"This phone had: {names_of(game, order[::-1])}." in said
    assert stored(game) == [order]  # no deal 2 made of the offline copy
    assert offline.evaluate("JSON.parse(localStorage.getItem('league-outbox'))"
                            ".map(i => i.state)") == ["conflict"]
    offline.get_by_role("button", name="Discard this phone's copy").tap()
    assert offline.locator("#outbox").is_hidden()
    assert stored(game) == [order]
