"""Time called on a phone (Debian chromium + Playwright): the organiser taps "Call time…",
confirms, and the game page shows the winners and final totals; no CSP or script errors."""

from django.urls import reverse

from league import services
from tests.league.factories import UserFactory, make_game, seated_ids
from tests.pages.test_browser import browser, pytestmark, shoot, signed_in  # noqa: F401


def test_an_organiser_calls_time_on_a_phone(browser, live_server, client):  # noqa: F811
    game = make_game(season_kwargs={"scoring_limit": 6})
    organiser = UserFactory(username="organiser")
    game.season.club.organisers.add(organiser)
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[a, c, b, d])
    names = dict(game.seats.values_list("player_id", "player__name"))
    ctx = signed_in(browser, live_server, client, organiser,
                    viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))

    page.goto(live_server.url + reverse("league:game_detail", args=[game.pk]))
    page.get_by_role("link", name="Call time…").tap()
    page.wait_for_selector("text=Call time on game")
    assert f"Winner: {names[a]}" in page.locator(".winners").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "time-called-confirm")
    page.get_by_role("button", name="Call time: end the game").tap()
    page.wait_for_selector("text=Time called: game")

    assert f"Winner: {names[a]}" in page.locator(".winners").inner_text()
    assert "Final totals" in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "time-called-game")
    assert problems == []
    ctx.close()
