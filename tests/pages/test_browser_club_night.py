"""A whole club night in a real browser (Debian's chromium, Playwright) at 360 × 740: the
organiser creates the season, adds nine players, plans two rounds, swaps two people and
confirms the first; two phones enter deals at the two tables, a player leaves between deals,
time is called on one table; tonight's standings, open on a screen in the room, follow
without a reload and show the totals the services keep; the second round is planned without
the one who left.
Screenshots with SCREENSHOTS=1 (night-*.png, tonight-*.png)."""

import datetime

import pytest
from django.urls import reverse

from league import nights, rounds
from league.models import Club, Game, Player, Season, Seat
from league.web import nights as night_pages
from tests.league.factories import UserFactory, seated_ids
from tests.pages.test_browser import browser, pytestmark, shoot, signed_in, visit  # noqa: F401
from tests.pages.test_browser_entry import PHONE, settle, small_targets, tap_order

NAMES = ["Ann", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
SCREEN = {"viewport": {"width": 1280, "height": 800}}


def no_overflow(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def enter_deal(page, number, order):
    tap_order(page, order)
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.get_by_role("button", name=f"Confirm deal {number}").tap()
    page.wait_for_selector(f"text=Deal {number} recorded.")


@pytest.mark.slow
def test_a_whole_club_night(browser, live_server, client, monkeypatch):  # noqa: F811
    # The screen asks for news each second (5 on the site): it still catches up unreloaded.
    monkeypatch.setattr(night_pages, "POLL_SECONDS", 1)
    organiser = UserFactory(username="organiser")
    club = Club.objects.create(name="Thursday Club")
    club.organisers.add(organiser)
    phone_a = signed_in(browser, live_server, client, organiser, **PHONE)

    # The season, made on the organisers' club page: classic, penalty to 4 (a table ends when
    # someone has been last twice).
    page, problems = visit(browser, live_server.url + reverse("league:organise_club",
                                                              args=[club.pk]), phone_a)
    page.get_by_role("link", name="New season").tap()
    page.wait_for_selector("h1:has-text('New season of Thursday Club')")
    page.get_by_label("Name", exact=True).fill("Autumn")
    page.get_by_label("Starts on").fill(datetime.date.today().isoformat())
    page.locator("label.choice", has_text="The plain game (seed 002)").tap()
    page.locator("label.choice", has_text="Penalty points: each deal").tap()
    page.get_by_label("Points limit (penalty)").fill("4")
    page.get_by_role("button", name="Create the season").tap()
    page.wait_for_selector("text=Season Autumn created.")
    season = Season.objects.get(club=club)
    assert (season.preset, season.scoring) == ("classic", {"system": "penalty", "limit": 4})
    page.goto(live_server.url + reverse("league:night", args=[season.pk]))

    # Nine players, added inline by name, each ticked as they come.
    for name in NAMES:
        page.get_by_label("Someone new? Their name").fill(name)
        page.get_by_role("button", name="Add and tick").tap()
        page.wait_for_selector(f"text={name} added to Thursday Club and ticked.")
    assert sorted(Player.objects.filter(clubs=club).values_list("name", flat=True)) == NAMES
    assert page.locator('input[name="present"]:checked').count() == 9
    assert small_targets(page) == []
    no_overflow(page)
    page.get_by_label("Rounds to plan").fill("2")
    shoot(page, "night-present")

    page.get_by_role("button", name="Plan the tables").tap()
    page.wait_for_selector("text=Round 1: to confirm now")
    assert "Round 2 (a preview)" in page.content()
    sizes = sorted(page.locator("section:has(h2:text('Round 1: to confirm now')) .plan-table ol")
                   .evaluate_all("lists => lists.map(l => l.children.length)"))
    assert sizes == [4, 5]
    assert page.locator(".deals-first").count() == 4  # one first dealer per table, two rounds
    no_overflow(page)
    shoot(page, "night-plan")
    laptop = signed_in(browser, live_server, client, organiser, **SCREEN)
    wide, wide_problems = visit(browser, page.url, laptop)
    shoot(wide, "night-plan-desktop")

    # Swap the first people of round 1's two tables.
    firsts = page.locator("section:has(h2:text('Round 1: to confirm now')) .plan-table ol "
                          "li:first-child").all_inner_texts()
    a, b = (text.replace("deals first", "").strip() for text in firsts)
    page.get_by_label("In round").select_option(label="1")
    page.get_by_label("Swap", exact=True).select_option(label=a)
    page.get_by_label("with").select_option(label=b)
    page.get_by_role("button", name="Swap them and show the plan again").tap()
    page.wait_for_selector("text=Undo the swaps")
    after = page.locator("section:has(h2:text('Round 1: to confirm now')) .plan-table ol "
                         "li:first-child").all_inner_texts()
    assert [t.replace("deals first", "").strip() for t in after] == [b, a]
    page.get_by_role("button", name="Confirm round 1: start 2 games").tap()
    page.wait_for_selector("text=Round 1 confirmed: table 1 (game 1), table 2 (game 2).")
    four, five = sorted(Game.objects.filter(season=season), key=lambda g: g.seats.count())
    assert (four.seats.count(), five.seats.count()) == (4, 5)
    assert Seat.objects.get(game=four, number=0).player.name == b  # the swap was kept
    assert page.locator(".night-tables li").count() == 2
    no_overflow(page)
    shoot(page, "night-tables")
    wide.goto(live_server.url + reverse("league:night", args=[season.pk]))
    shoot(wide, "night-desktop")

    # Tonight's standings on a screen in the room: public, no one signed in.
    screen = browser.new_context(**SCREEN)
    board, board_problems = visit(browser, live_server.url + reverse("league:tonight",
                                                                     args=[season.pk]), screen)
    board.evaluate("window.notReloaded = true")
    assert board.locator(".board-table").count() == 2

    # Two phones, one per table: the organiser's phone takes the table of four from the night
    # page's link, a second phone session the table of five.
    table = 1 if four.number < five.number else 2
    page.get_by_role("link", name=f"Enter results: round 1, table {table}").tap()
    page.wait_for_selector(f"text=Game {four.number}: deal 1")
    phone_b = signed_in(browser, live_server, client, organiser, **PHONE)
    other, other_problems = visit(
        browser, live_server.url + reverse("league:game_enter", args=[five.pk]), phone_b)

    p4, p5 = seated_ids(four), seated_ids(five)
    names = dict(Player.objects.values_list("pk", "name"))
    enter_deal(page, 1, p4)
    enter_deal(other, 1, p5)
    # The fourth at the table of five leaves before deal 2.
    leaver = p5[3]
    other.locator("#seat-form fieldset").first.locator(
        "label.check", has_text=names[leaver]).tap()
    other.get_by_role("button", name="Show the shifted roles").tap()
    other.get_by_role("button", name="Confirm the change").tap()
    other.wait_for_selector(f"text={names[leaver]} leaves.")
    assert Seat.objects.get(game=five, player_id=leaver).left_before == 2
    # The last of deal 1 is last again: 4 penalty points end the game.
    enter_deal(other, 2, [p5[1], p5[0], p5[2], p5[4]])
    assert Game.objects.get(pk=five.pk).status == Game.FINISHED
    enter_deal(page, 2, [p4[1], p4[0], p4[3], p4[2]])

    # The screen caught up without a reload.
    board.wait_for_function(
        "() => document.querySelectorAll('.board-table .deals')[0].textContent.startsWith('2 ')"
        " && document.querySelectorAll('.board-table .deals')[1].textContent.startsWith('2 ')",
        timeout=20_000)
    assert board.evaluate("window.notReloaded") is True

    # Time called on the table of four, from the night page's list of tonight's tables.
    page.goto(live_server.url + reverse("league:night", args=[season.pk]))
    page.get_by_role("link", name=f"Call time at table {table}…").tap()
    page.get_by_role("button", name="Call time: end the game").tap()
    page.wait_for_selector("text=Time called: game")

    # The night's results: each person's totals, as the services keep them on the seats.
    board.wait_for_selector("text=The night's results", timeout=20_000)
    seats = Seat.objects.filter(game__in=[four, five]).select_related("player")
    expected = {s.player.name: (int(s.is_winner), s.points, s.deals) for s in seats}
    rows = board.locator("#night-totals tbody tr").all()
    shown = {}
    for row in rows:
        cells = row.locator("td, th").all_inner_texts()
        shown[cells[1]] = (int(cells[2]), int(cells[3]), int(cells[5]))
    assert shown == expected
    totals = nights.night_board(season, rounds.night_of()).totals
    assert [row.locator("th").inner_text() for row in rows] == [t.player.name for t in totals]
    # Penalty points: a1 b1 c3 d3 at the table of four (time called: a and b share the win);
    # 0+1, 1+0, 1+1, 1 and 2+2 at the table of five (the last of both deals reached 4).
    assert sorted(s.points for s in seats if s.game_id == four.pk) == [1, 1, 3, 3]
    assert sorted(s.points for s in seats if s.game_id == five.pk) == [1, 1, 1, 2, 4]
    table_states = board.locator(".board-table .state").all_inner_texts()
    assert sorted(table_states) == ["finished", "time called"]
    assert board.locator(".board-table .left").count() == 1
    shoot(board, "tonight-screen")
    phone_screen = browser.new_context(**PHONE)
    small, small_problems = visit(browser, board.url, phone_screen)
    no_overflow(small)
    shoot(small, "tonight-phone")

    # Round 2: the one who left is no longer ticked; the plan seats the other eight.
    page.goto(live_server.url + reverse("league:night", args=[season.pk]))
    ticked = page.locator('input[name="present"]:checked').evaluate_all(
        "boxes => boxes.map(b => Number(b.value))")
    assert sorted(ticked) == sorted(set(p4 + p5) - {leaver})
    page.get_by_role("button", name="Plan the tables").tap()
    page.get_by_role("button", name="Confirm round 2: start 2 games").tap()
    page.wait_for_selector("text=Round 2 confirmed: table 1 (game 3), table 2 (game 4).")
    second = Game.objects.filter(season=season).exclude(pk__in=[four.pk, five.pk])
    assert sorted(p for g in second for p in seated_ids(g)) == sorted(ticked)
    assert page.locator(".night-tables").count() == 2
    assert "Round 2" in page.locator("section[aria-labelledby=tables-h]").inner_text()

    assert problems == other_problems == board_problems == small_problems == wide_problems == []
    for p in (page, other, board):
        settle(p)
    for ctx in (phone_a, phone_b, screen, phone_screen, laptop):
        ctx.close()
