"""Under the Content-Security-Policy, pages and the API docs run in chromium with no violation."""

from django.urls import reverse

from league import services
from tests.league.factories import UserFactory, make_game, seated_ids
from tests.pages.test_browser import browser, pytestmark, signed_in, visit  # noqa: F401
from tests.tournaments.helpers import small_tournament

VIOLATION = "Content Security Policy"


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


def test_the_admin_and_the_tournament_page_run_without_a_violation(browser, live_server,  # noqa: F811
                                                                   client):
    game = make_game()
    tournament = small_tournament()
    admin = UserFactory(username="root", is_superuser=True)
    context = signed_in(browser, live_server, client, admin)
    urls = [reverse("admin:league_game_change", args=[game.pk]),
            reverse("admin:league_game_seat_change", args=[game.pk]),
            reverse("gameplay:tournament", args=[tournament.pk])]

    for url in urls:
        page, problems = visit(browser, live_server.url + url, context)
        assert page.title() and "Log in" not in page.title(), url
        assert [p for p in problems if VIOLATION in p or p.startswith("uncaught")] == [], url
        page.close()
    context.close()
