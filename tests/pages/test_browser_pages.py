"""The public pages for finding things and reading what numbers mean, in chromium at 360 px:
nothing wider than the phone, no Content-Security-Policy violation."""

import pytest
from django.urls import reverse

from league import rating_jobs, services
from tests.league.factories import ClubFactory, PlayerFactory, make_game, make_season
from tests.pages.test_browser import browser, pytestmark, shoot, visit  # noqa: F401
from tests.tournaments.helpers import small_tournament
from tournaments.models import Tournament

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def league():
    club = ClubFactory(name="The Thursday Night Card Club of Upper Wickham")
    people = [PlayerFactory(name=name, clubs=[club]) for name in
              ("Alice", "Bruno", "Chiara Montgomery-Fitzwilliam", "Dev", "Erin")]
    season = make_season(club=club, name="Spring 2026", preset="presidents-deck")
    ids = [p.pk for p in people]
    for n in range(3):
        game = make_game(season=season, players=people)
        for deal in range(3 if n < 2 else 1):
            order = ids[deal:] + ids[:deal]
            if game.status == game.OPEN:
                services.deal_record(game=game, finishing_order=order)
    make_season(club=ClubFactory(name="Bots"), name="Ladder")
    rating_jobs.ratings_recompute(scope=f"season:{season.pk}")
    rating_jobs.ratings_recompute(scope="all-time")
    cup = small_tournament(name="Autumn bot cup")
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.RUNNING)
    return club


def test_the_public_pages_fit_a_phone(browser, live_server, league):  # noqa: F811
    pages = {
        "home": reverse("home"),
        "club": reverse("league:club_detail", args=[league.pk]),
        "player-search": reverse("league:player_search") + "?q=i",
        "rating-help": reverse("league:rating_help"),
        "rules": reverse("league:rules", args=["presidents-deck"]),
        "rules-index": reverse("league:rules_index"),
    }
    for name, url in pages.items():
        page, problems = visit(browser, live_server.url + url, browser.new_context(viewport=PHONE))
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
        assert problems == [], name
        if name in ("home", "player-search", "rating-help"):
            shoot(page, f"{name}-phone")
        page.context.close()


def test_the_home_page_leads_to_live_tournaments_clubs_and_players(browser,  # noqa: F811
                                                                   live_server, league):
    page, _ = visit(browser, live_server.url + reverse("home"),
                    browser.new_context(viewport=DESKTOP))
    shoot(page, "home")
    assert page.get_by_role("link", name="Autumn bot cup").is_visible()

    page.get_by_label("Find a player").fill("chiara")
    page.get_by_role("button", name="Search").click()
    page.get_by_role("link", name="Chiara Montgomery-Fitzwilliam").click()
    page.wait_for_selector("h1:has-text('Chiara Montgomery-Fitzwilliam')")

    page.goto(live_server.url + reverse("home"))
    page.get_by_role("link", name=league.name, exact=True).click()
    assert page.locator("#all-time tbody tr").count() == 5
    shoot(page, "club")
    page.context.close()
