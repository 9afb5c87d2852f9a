"""A bot author in chromium, from sign-up to the ladder (issue #20): signs up, registers an
outside bot (a real HTTP bot server on 127.0.0.1, allow-listed), and once the ladder's tick has
run (what celery beat does; tasks run eagerly in tests, so its games play in this process) finds
on the dashboard and the bot page its validation game, passed, and its rating with the chart;
starts a challenge game from the bot page's form and steps through the validation game's replay.
Nothing wider than a 360 px phone and no Content-Security-Policy violation on the way."""

from django.urls import reverse

from ladder import services
from ladder.models import Entry, Game
from outside_bots.models import OutsideBot
from tests.ladder.conftest import register
from tests.league.factories import UserFactory
from tests.pages.test_browser import browser, pytestmark, shoot  # noqa: F401

PASSWORD = "a long and right password"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def tick_until(done, ticks=20):
    """Run the ladder's tick as celery beat would until ``done()``; its games play eagerly."""
    for _ in range(ticks):
        services.ladder_tick()
        if done():
            return
    raise AssertionError(f"not done after {ticks} ticks")


def test_an_author_signs_up_registers_a_bot_and_finds_it_rated(browser, live_server,  # noqa: F811
                                                               servers, ladder_settings):
    ours, theirs, junk = servers(3)
    # Other authors' bots already on the ladder: one plays well, one answers junk.
    register(UserFactory(username="bob", is_staff=False), theirs, "bob-bot")
    register(UserFactory(username="cy", is_staff=False), junk, "cy-bot")
    junk.mode = "junk"
    ladder_settings.LADDER_PAUSE_FAULTS = 100_000

    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))

    def fits(where):
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (where, width)

    page.goto(live_server.url + reverse("ladder:table"))
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Email").fill("ada@example.org")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url("**/accounts/profile/")

    page.get_by_role("link", name="My bots").first.click()
    page.get_by_role("link", name="Register a bot").click()
    page.get_by_label("Name").fill("ada-bot")
    page.get_by_label("URL").fill(ours.url)
    page.get_by_label("classic").check()
    page.get_by_role("button", name="Register").click()
    # The author copies the secret, shown this once, into their bot's server.
    ours.secrets.append(page.get_by_label("Secret of ada-bot").input_value())
    page.get_by_role("link", name="My bots").last.click()
    page.wait_for_url("**/accounts/bots/")
    bot = OutsideBot.objects.get(name="ada-bot")
    assert bot.owner.username == "ada"

    page.get_by_role("link", name="Your bots on the ladder").click()
    page.wait_for_url(f"**{reverse('ladder:mine')}")
    assert "ada-bot on the classic ladder: it joins within" in page.locator("#waiting").inner_text()
    fits("dashboard, joining")

    # Celery beat's ticks: the bots join, play their validation games, then rated games.
    tick_until(lambda: Entry.objects.filter(outside_bot=bot, games__gte=5).exists())
    entry = Entry.objects.get(outside_bot=bot)
    validation = entry.validation_game
    assert validation.status == Game.DONE and len(ours.requests) > 0

    page.reload()
    card = page.locator("article", has_text="ada-bot")
    assert "playing" in card.inner_text()
    assert f"game {validation.pk}, passed, no fault" in " ".join(card.inner_text().split())
    fits("dashboard")
    shoot(page, "ladder-dashboard-phone")

    card.get_by_role("link", name="ada-bot", exact=True).click()
    page.wait_for_url(f"**{reverse('ladder:bot', args=[entry.pk])}")
    entry.refresh_from_db()
    assert page.locator("#rating").inner_text() == f"{entry.ordinal:.2f}"
    assert page.locator("#games").inner_text() == str(entry.games)
    assert page.locator("#ladder-rating-chart").is_visible()
    assert page.evaluate("Chart.getChart('ladder-rating-chart').data.labels.length") == entry.games
    assert page.get_by_role("button", name="Start the challenge game").is_visible()
    fits("bot page")
    shoot(page, "ladder-bot-phone")

    # A challenge game against bob's bot, started from the bot page's form.
    page.get_by_label("bob-bot (bob,").check()
    page.get_by_role("button", name="Start the challenge game").click()
    challenge = Game.objects.get(kind=Game.CHALLENGE)
    page.wait_for_url(f"**{reverse('ladder:game', args=[challenge.pk])}")
    words = " ".join(page.locator("main").inner_text().split())
    assert f"Challenge game {challenge.pk} started" in words
    assert "A challenge game (unrated, started by ada)" in words
    fits("challenge game")
    page.go_back()
    page.reload()

    page.get_by_role("link", name=f"game {validation.pk}").first.click()
    page.wait_for_url(f"**{reverse('ladder:game', args=[validation.pk])}")
    assert "A validation game" in page.locator("main").inner_text()
    page.get_by_role("button", name="Next").click()
    assert page.locator("#step-number").inner_text() == "2"
    fits("validation game")

    page.goto(live_server.url + reverse("ladder:table"))
    assert "ada-bot" in page.locator("#ladder").inner_text()
    fits("table")
    shoot(page, "ladder-table-phone")
    assert problems == []
    signed_in = ctx.cookies()
    ctx.close()

    # The same pages on a desktop, still signed in as ada.
    desk = browser.new_context(viewport=DESKTOP)
    desk.add_cookies(signed_in)
    view = desk.new_page()
    view.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    view.goto(live_server.url + reverse("ladder:table"))
    shoot(view, "ladder-table")
    view.goto(live_server.url + reverse("ladder:mine"))
    shoot(view, "ladder-dashboard")
    view.goto(live_server.url + reverse("ladder:bot", args=[entry.pk]))
    shoot(view, "ladder-bot-author")
    view.goto(live_server.url + reverse("ladder:game", args=[validation.pk]))
    shoot(view, "ladder-game")
    view.goto(live_server.url + reverse("ladder:bot", args=[
        Entry.objects.get(outside_bot__name="cy-bot").pk]))
    assert "malformed" in view.locator("#fault-kinds").inner_text()
    shoot(view, "ladder-bot")
    desk.close()
    dark = browser.new_context(viewport=PHONE, color_scheme="dark")
    view = dark.new_page()
    view.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    view.goto(live_server.url + reverse("ladder:bot", args=[entry.pk]))
    shoot(view, "ladder-bot-dark-phone")
    assert problems == []
    dark.close()
