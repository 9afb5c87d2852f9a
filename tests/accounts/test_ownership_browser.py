"""Registering a bot on a phone (360 px): the page that answers shows its secret this once,
selectable, nothing wider than the screen, no script error; the list shows it no more, and
links the protocol page, which fits the screen too and links each message's schema."""

import pytest

from outside_bots.models import OutsideBot
from tests.league.factories import UserFactory
from tests.pages.test_browser import browser, pytestmark, shoot, signed_in  # noqa: F401


@pytest.fixture(autouse=True)
def allowed_hosts(settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]


def test_the_secret_is_shown_once_on_a_phone(browser, live_server, client):  # noqa: F811
    ada = UserFactory(username="ada", is_staff=False)
    ctx = signed_in(browser, live_server, client, ada,
                    viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))

    page.goto(live_server.url + "/accounts/bots/new/")
    page.get_by_label("Name").fill("ada-bot")
    page.get_by_label("URL").fill("https://bots.example.org/play")
    page.get_by_label("classic").check()
    page.get_by_role("button", name="Register").click()

    page.get_by_role("heading", name="Bot ada-bot registered").wait_for()
    secret = OutsideBot.objects.get().secret
    assert page.get_by_label("Secret of ada-bot").input_value() == secret
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = page.get_by_label("Secret of ada-bot").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    shoot(page, "bot-secret-phone")

    page.get_by_role("link", name="My bots").last.click()
    page.wait_for_url("**/accounts/bots/")
    assert secret not in page.content()

    page.get_by_role("link", name="protocol president-bot/1").click()  # the protocol page
    page.wait_for_url("**/bots/protocol/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "bot-protocol-phone")
    page.get_by_role("link", name="challenge.schema.json").first.click()
    assert '"challenge"' in page.content()
    assert problems == []
    ctx.close()
