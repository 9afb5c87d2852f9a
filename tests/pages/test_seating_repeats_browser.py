"""Seating you can read, in Chromium at 360 × 740 (issue #28): the plan lists who meets again
and where beside the fewest repeats possible, and two people are swapped by tapping them on the
table cards (league/static/league/plan.js; the drop-downs stay for keyboards).
Screenshots with SCREENSHOTS=1 (night-plan-repeats.png, night-plan-repeats-desktop.png)."""

from django.urls import reverse

from league.models import Player
from tests.league.factories import PlayerFactory, UserFactory, make_season
from tests.pages.test_browser import browser, pytestmark, shoot, signed_in, visit  # noqa: F401
from tests.pages.test_browser_club_night import SCREEN, no_overflow
from tests.pages.test_browser_entry import PHONE, small_targets

NAMES = ["Ann", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou",
         "Max"]


def round_one_tables(page):
    return page.locator("section:has(h2:text('Round 1: to confirm now')) .plan-table ol") \
        .evaluate_all("lists => lists.map(l => Array.from(l.querySelectorAll('bdi'))"
                      ".map(b => b.textContent))")


def test_the_plan_shows_its_repeats_and_swaps_two_people_by_tapping(
        browser, live_server, client):  # noqa: F811
    season = make_season(preset="classic", scoring_limit=20)
    organiser = UserFactory(username="organiser")
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=name, clubs=[season.club]) for name in NAMES]
    query = "?" + "&".join(f"present={p.pk}" for p in people) + "&rounds=3&low=4&high=5&round=1"
    address = live_server.url + reverse("league:night_plan", args=[season.pk]) + query
    phone = signed_in(browser, live_server, client, organiser, **PHONE)
    page, problems = visit(browser, address, phone)

    fewest = int(page.locator("#fewest-repeats").inner_text())
    reached = int(page.locator("#repeats").inner_text())
    assert fewest == 8 and reached >= fewest
    assert page.locator(".meet-again li").count() == reached
    assert page.locator(".tap-hint").first.is_visible()  # the script said taps work
    assert small_targets(page) == []
    no_overflow(page)
    shoot(page, "night-plan-repeats")
    laptop = signed_in(browser, live_server, client, organiser, **SCREEN)
    wide, wide_problems = visit(browser, address, laptop)
    shoot(wide, "night-plan-repeats-desktop")

    before = round_one_tables(page)
    a, b = before[0][0], before[1][-1]
    page.locator("section:has(h2:text('Round 1: to confirm now')) button.pick",
                 has_text=a).tap()
    assert page.locator("button.pick[aria-pressed=true]").inner_text() == a
    with page.expect_navigation():
        page.locator("section:has(h2:text('Round 1: to confirm now')) button.pick",
                     has_text=b).tap()
    page.wait_for_selector("text=Undo the swaps")
    after = round_one_tables(page)
    assert after[0][0] == b and after[1][-1] == a
    assert [[n for n in t if n not in (a, b)] for t in after] == [
        [n for n in t if n not in (a, b)] for t in before]
    swapped = (Player.objects.get(name=a).pk, Player.objects.get(name=b).pk)
    assert f"swap_round=0&swap_a={swapped[0]}&swap_b={swapped[1]}" in page.url
    assert problems == [] and wide_problems == []
