"""The entry page on a 360 px phone in a real browser (Debian's chromium, Playwright): deals
kept on the phone with no connection, refusals shown, undo asked first, touch targets, the
leave/join preview in place. README screenshots with SCREENSHOTS=1."""

from django.urls import reverse
from playwright.sync_api import Error as PlaywrightError

from league import services
from league.models import Deal, Seat
from tests.league.factories import PlayerFactory, UserFactory, make_game, seated_ids

# The browser fixture and the marks (browser, live database, chromium present) are shared.
from tests.pages.test_browser import browser, pytestmark, shoot, signed_in, table  # noqa: F401

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def open_entry(browser, live_server, client, organiser, game):  # noqa: F811
    ctx = signed_in(browser, live_server, client, organiser, **PHONE)
    page = ctx.new_page()
    page.csp_errors = []
    page.on("console", lambda m: "Content Security Policy" in m.text
            and page.csp_errors.append(m.text))
    page.goto(live_server.url + reverse("league:game_enter", args=[game.pk]))
    return ctx, page


def kept_offline(page):
    """Wait until the service worker controls the page and keeps a copy of it."""
    page.evaluate("""async () => {
        await navigator.serviceWorker.ready;
        for (let i = 0; i < 100; i++) {
            if (navigator.serviceWorker.controller && await caches.match(location.pathname))
                return;
            await new Promise(r => setTimeout(r, 50));
        }
        throw new Error('the entry page was not kept for offline use');
    }""")


def back_online(ctx, page):
    """Online again, the kept deals sent: by the page's "online" event, or by the flush asked
    here as "Send now" asks it. The event's flush may move the page on first, destroying the
    page's script before the asked one runs: then it was sent already."""
    ctx.set_offline(False)
    try:
        page.evaluate("Outbox.flush()")
    except PlaywrightError as e:
        if "Execution context was destroyed" not in e.message:
            raise


def tap_order(page, order):
    for player in order:
        page.locator(f'#taps button[data-player="{player}"]').tap()


def settle(page):
    """Until the page and its service worker have no request in flight, so none reaches the
    server while the test's database is torn down."""
    page.wait_for_load_state("networkidle")


def test_a_deal_confirmed_offline_survives_a_reload_and_is_stored_once(
        browser, live_server, client, table):  # noqa: F811
    game, organiser = table
    order = seated_ids(game)[::-1]
    names = dict(game.seats.values_list("player_id", "player__name"))
    ctx, page = open_entry(browser, live_server, client, organiser, game)
    kept_offline(page)

    ctx.set_offline(True)
    tap_order(page, order)
    page.get_by_role("button", name="Show roles and exchange").tap()
    check = page.locator("#offline-check")
    check.wait_for()
    # The roles and the exchange the server gave by position, applied on the phone.
    rows = check.locator("tbody tr").all_inner_texts()
    assert rows[0].split("\t") == ["1", names[order[0]], "President"]
    assert rows[-1].split("\t") == ["4", names[order[-1]], "Idiot"]
    assert f"{names[order[-1]]} gives {names[order[0]]} 2 cards" in check.inner_text()
    page.get_by_role("button", name="Keep deal 1 to send").tap()
    assert page.locator("#outbox-count").inner_text() == "1 deal waiting to send"
    kept = page.evaluate("JSON.parse(localStorage.getItem('league-outbox'))[0]")

    page.reload()  # still offline: the service worker's copy of the page
    assert page.locator("#outbox-count").inner_text() == "1 deal waiting to send"
    assert page.locator("#offline-note").is_visible()
    assert names[order[0]] in page.locator("#outbox-list").inner_text()
    assert not Deal.objects.exists()

    ctx.set_offline(False)  # the outbox sends it, then the page shows the server's state
    page.wait_for_selector("text=Deal 1 recorded.")
    assert page.locator("#outbox").is_hidden()
    assert page.locator("h1").inner_text() == f"Game {game.number}: deal 2"
    # Sent again with its key, as after an answer lost on the way back: stored once.
    again = ctx.request.post(live_server.url + kept["url"], form=kept["fields"],
                             headers={"Accept": "application/json", "Idempotency-Key": kept["key"]})
    assert again.status == 200 and again.json()["recorded"] is False
    deal = Deal.objects.get(game=game)
    assert list(deal.places.order_by("position").values_list("player_id", flat=True)) == order
    assert deal.source == Deal.OUTBOX  # said if another phone enters deal 1 again
    assert page.csp_errors == []
    settle(page)
    ctx.close()


def test_a_deal_refused_on_arrival_is_shown_with_its_reason(
        browser, live_server, client, table):  # noqa: F811
    game, organiser = table
    services.deal_record(game=game, finishing_order=seated_ids(game)[::-1])
    ctx, page = open_entry(browser, live_server, client, organiser, game)
    kept_offline(page)
    ctx.set_offline(True)
    tap_order(page, seated_ids(game))
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.get_by_role("button", name="Keep deal 2 to send").tap()
    # Meanwhile another organiser calls time: the game ends.
    services.game_time_called(game=game)

    ctx.set_offline(False)
    refused = page.locator("#outbox-list li.refused")
    refused.wait_for()
    assert "Refused by the server:" in refused.inner_text()
    assert "has ended: no more deals can be recorded" in refused.inner_text()
    assert Deal.objects.filter(game=game).count() == 1
    page.reload()  # a refusal stays until the organiser has read it
    assert "has ended" in page.locator("#outbox-list").inner_text()
    page.get_by_role("button", name="Dismiss").tap()
    assert page.locator("#outbox").is_hidden()
    settle(page)
    ctx.close()


def test_undo_asks_first(browser, live_server, client, table):  # noqa: F811
    game, organiser = table
    services.deal_record(game=game, finishing_order=seated_ids(game))
    services.deal_record(game=game, finishing_order=seated_ids(game)[::-1])
    ctx, page = open_entry(browser, live_server, client, organiser, game)

    page.get_by_role("button", name="Undo deal 2…").tap()
    dialog = page.locator("#undo-dialog")
    assert dialog.is_visible() and "Undo deal 2?" in dialog.inner_text()
    page.get_by_role("button", name="No, keep it").tap()
    assert dialog.is_hidden()
    assert game.deal_set.count() == 2

    page.get_by_role("button", name="Undo deal 2…").tap()
    page.get_by_role("button", name="Yes, undo deal 2").tap()
    page.wait_for_selector("text=Deal 2 undone.")
    assert list(game.deal_set.values_list("number", flat=True)) == [1]
    assert page.csp_errors == []
    settle(page)
    ctx.close()


def small_targets(page):
    """Controls in the page's content smaller than 44 × 44 px (a checkbox counts by its
    label, which toggles it)."""
    found = []
    for element in page.locator("main :is(button, select, a, label.check, input[type=submit])"
                                ":visible").all():
        box = element.bounding_box()
        if box["width"] < 44 or box["height"] < 44:
            found.append((element.inner_text() or element.get_attribute("name"), box))
    return found


def test_touch_targets_the_next_deal_on_top_and_the_shifts_in_words(
        browser, live_server, client):  # noqa: F811
    game = make_game(players=4, season_kwargs={"preset": "friday", "scoring_limit": 20})
    organiser = UserFactory(username="organiser")
    game.season.club.organisers.add(organiser)
    order = seated_ids(game)
    names = dict(game.seats.values_list("player_id", "player__name"))
    services.deal_record(game=game, finishing_order=order)
    newcomer = PlayerFactory(name="Nina", clubs=[game.season.club])
    ctx, page = open_entry(browser, live_server, client, organiser, game)

    # Right after a deal: who deals and the next exchange, above the fold.
    top = page.locator("#next")
    assert top.bounding_box()["y"] + top.bounding_box()["height"] <= 740
    assert "deals." in top.inner_text()
    assert f"{names[order[3]]} gives {names[order[0]]} 2 cards" in top.inner_text()
    assert small_targets(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    tap_order(page, order[::-1][:2])
    shoot(page, "enter-deal")

    # The Idiot leaves and a newcomer joins: the preview replaces its section, no reload.
    page.evaluate("window.notReloaded = true")
    page.locator("label.check", has_text=names[order[3]]).tap()
    page.locator("label.check", has_text="Nina").tap()
    page.get_by_role("button", name="Show the shifted roles").tap()
    page.wait_for_selector("text=Roles after the change")
    assert page.evaluate("window.notReloaded") is True
    words = page.locator(".shift-words").inner_text()
    assert (f"{names[order[3]]} (Idiot) leaves: {names[order[1]]} moves down from Vice "
            "President to Citizen, as only 3 players stay from the last deal and with 3 there "
            f"is no Vice President; {names[order[2]]} moves down from Vice Idiot to Idiot."
            ) in words
    assert "Nina joins as a Citizen, just above the Idiot" in words
    assert small_targets(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "enter-seats-preview")
    page.get_by_role("button", name="Confirm the change").tap()
    page.wait_for_selector("text=Nina joins.")
    assert Seat.objects.get(player=newcomer).joined_before == 2
    assert page.csp_errors == []
    settle(page)
    ctx.close()


def test_the_check_of_a_deal_fits_the_phone(browser, live_server, client, table):  # noqa: F811
    game, organiser = table
    services.deal_record(game=game, finishing_order=seated_ids(game))
    ctx, page = open_entry(browser, live_server, client, organiser, game)
    tap_order(page, seated_ids(game)[::-1])
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.wait_for_selector("text=Check deal 2")
    assert small_targets(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "enter-deal-preview")
    page.get_by_role("button", name="Confirm deal 2").tap()
    page.wait_for_selector("text=Deal 2 recorded.")
    assert game.deal_set.count() == 2
    assert page.csp_errors == []
    settle(page)
    ctx.close()


def test_an_earlier_deal_is_corrected_on_the_phone(browser, live_server, client, table):  # noqa: F811
    game, organiser = table
    a, b, c, d = seated_ids(game)
    names = dict(game.seats.values_list("player_id", "player__name"))
    for order in ([a, b, c, d], [a, b, c, d], [b, a, c, d], [c, a, b, d]):
        services.deal_record(game=game, finishing_order=order)
    ctx, page = open_entry(browser, live_server, client, organiser, game)

    # The deals, newest first, folded away under the next deal's form.
    page.locator("#deals summary").tap()
    rows = page.locator("#deals li").all_inner_texts()
    assert [r.split("\n")[0].strip()[:1] for r in rows] == ["4", "3", "2", "1"]
    page.get_by_role("link", name="Correct deal 2…").tap()
    page.wait_for_selector("text=Correct deal 2")
    # Each player's place, chosen by its own buttons, showing the recorded order.
    picks = page.locator("#place-picks")
    assert picks.locator('button[aria-pressed="true"]').count() == 4
    assert picks.get_by_role("button", name=f"{names[a]}: 1st out").get_attribute(
        "aria-pressed") == "true"
    assert small_targets(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # Reversed: d first (swapping with a), then c second (swapping with b).
    picks.get_by_role("button", name=f"{names[d]}: 1st out").tap()
    picks.get_by_role("button", name=f"{names[c]}: 2nd out").tap()
    page.get_by_role("button", name="Show roles and totals").tap()
    page.wait_for_selector("text=Deal 2 as corrected")
    changed = page.locator(".totals-change tr.changed").all_inner_texts()
    # friday's penalty points 0 1 1 2 by place: a 2 → 4, d 8 → 6
    assert sorted(r.split("\t") for r in changed) == sorted(
        [[names[a], "2", "4"], [names[d], "8", "6"]])
    assert small_targets(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "enter-correct")
    page.get_by_role("button", name="Confirm the correction of deal 2").tap()
    page.wait_for_selector("text=Deal 2 corrected.")
    assert list(game.deal_set.get(number=2).places.order_by("position")
                .values_list("player_id", flat=True)) == [d, c, b, a]
    assert dict(game.seats.values_list("player_id", "points")) == {a: 4, b: 3, c: 3, d: 6}

    # Deleting asks first, in a dialog.
    page.locator("#deals summary").tap()
    page.get_by_role("link", name="Correct deal 3…").tap()
    page.get_by_role("button", name="Delete deal 3…").tap()
    dialog = page.locator("#delete-dialog")
    assert dialog.is_visible() and "Delete deal 3?" in dialog.inner_text()
    page.get_by_role("button", name="No, keep it").tap()
    assert dialog.is_hidden() and game.deal_set.count() == 4
    page.get_by_role("button", name="Delete deal 3…").tap()
    page.get_by_role("button", name="Yes, delete deal 3").tap()
    page.wait_for_selector("text=Deal 3 deleted")
    assert list(game.deal_set.order_by("number").values_list("number", flat=True)) == [1, 2, 3]
    assert page.csp_errors == []
    settle(page)
    ctx.close()


def test_a_deal_kept_when_the_page_posted_everything_to_its_own_address_is_recorded(
        browser, live_server, client, table):  # noqa: F811
    """A phone's outbox may still hold a deal kept when the entry page posted every action to
    its own address (the item's url the page's, its fields naming action "confirm"): it goes
    to the address where deals are recorded, not refused."""
    game, organiser = table
    order = seated_ids(game)
    ctx, page = open_entry(browser, live_server, client, organiser, game)
    fields = {"action": "confirm", "token": "kept-before", "number": "1", "kept_offline": "1",
              **{f"place_{i}": str(p) for i, p in enumerate(order, start=1)}}
    page.evaluate("""([url, fields]) => {
        fields.csrfmiddlewaretoken =
            document.querySelector('input[name="csrfmiddlewaretoken"]').value;
        localStorage.setItem('league-outbox', JSON.stringify([{key: 'kept-before', url: url,
            game: 'Game 1', number: 1, order: 'kept', fields: fields, state: 'waiting'}]));
    }""", [reverse("league:game_enter", args=[game.pk]), fields])

    page.reload()

    page.wait_for_selector("text=Deal 1 recorded.")
    deal = Deal.objects.get(game=game)
    assert (deal.number, deal.source) == (1, Deal.OUTBOX)
    assert list(deal.places.values_list("player_id", flat=True)) == order
    settle(page)
    ctx.close()
