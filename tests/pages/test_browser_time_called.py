"""Time called on a phone (Debian chromium + Playwright): the organiser taps "Call time…",
confirms, and the game page shows the winners and final totals; no CSP or script errors."""

from django.urls import reverse

from league import services
from tests.league.factories import UserFactory, make_game, seated_ids
from tests.pages.test_browser import browser, pytestmark, shoot, signed_in  # noqa: F401


def phone_at_a_table(browser, live_server, client):  # noqa: F811
    """A game of four, penalty points to 6, after deals (a, b, c, d) and (a, c, b, d): a
    leads. Its organiser's phone at 360 px: (game, names by player id, context, page, the
    console's errors and the scripts' uncaught errors)."""
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
    return game, names, ctx, page, problems


def test_an_organiser_calls_time_on_a_phone(browser, live_server, client):  # noqa: F811
    game, names, ctx, page, problems = phone_at_a_table(browser, live_server, client)
    a = seated_ids(game)[0]

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


def test_a_called_game_is_reopened_on_a_phone_then_its_last_deal_undone_and_entered_again(
        browser, live_server, client):  # noqa: F811
    """Issue #26, item 2: undo after time called needs the game reopened, after a preview
    saying whose win is taken back; then the removed deal can be entered again."""
    game, names, ctx, page, problems = phone_at_a_table(browser, live_server, client)
    a, b, c, d = seated_ids(game)
    services.game_time_called(game=game)
    page.goto(live_server.url + reverse("league:game_enter", args=[game.pk]))
    assert page.get_by_role("button", name="Undo deal 2…").count() == 0

    page.get_by_role("button", name=f"Reopen game {game.number}…").tap()
    reopen = page.locator("#reopen")
    reopen.wait_for()
    assert f"{names[a]} no longer wins" in reopen.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "entry-reopen")
    page.get_by_role("button", name=f"Yes, reopen game {game.number}").tap()
    page.wait_for_selector(f"text=Game {game.number} reopened")

    page.get_by_role("button", name="Undo deal 2…").tap()
    page.get_by_role("button", name="Yes, undo deal 2").tap()
    page.wait_for_selector("text=Deal 2 undone.")
    for player in (a, b, c, d):
        page.locator(f'#taps button[data-player="{player}"]').tap()
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.get_by_role("button", name="Confirm deal 2").tap()
    page.wait_for_selector("text=Deal 2 recorded.")

    assert list(game.deal_set.order_by("number").values_list("number", flat=True)) == [1, 2]
    assert problems == []
    page.wait_for_load_state("networkidle")
    ctx.close()
