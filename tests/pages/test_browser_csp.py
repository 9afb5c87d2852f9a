"""Under the Content-Security-Policy, pages and the API docs run in chromium with no violation."""

from django.urls import reverse

from league import services
from tests.league.factories import make_game, seated_ids
from tests.pages.test_browser import browser, pytestmark  # noqa: F401

VIOLATION = "Content Security Policy"


def visit(browser, url):  # noqa: F811
    """The console's errors and the scripts' uncaught errors seen while loading ``url``."""
    page = browser.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page, problems


def test_a_player_page_with_its_chart_runs_without_a_violation(browser, live_server):  # noqa: F811
    game = make_game(season_kwargs={"scoring_limit": 20})
    a, b, c, d = seated_ids(game)
    for order in ([a, b, c, d], [b, a, d, c], [a, c, b, d]):
        services.deal_record(game=game, finishing_order=order)

    page, problems = visit(browser, live_server.url + reverse("league:player_detail", args=[a]))

    assert page.locator("canvas").count() >= 1
    assert [p for p in problems if VIOLATION in p or p.startswith("uncaught")] == []
    page.close()


def test_the_api_docs_render_without_a_violation(browser, live_server):  # noqa: F811
    page, problems = visit(browser, live_server.url + "/api/docs/")

    page.locator(".opblock").first.wait_for(timeout=10_000)
    assert page.locator(".opblock").count() > 10
    assert [p for p in problems if VIOLATION in p or p.startswith("uncaught")] == []
    page.close()
