"""A bot author on a phone: sign-up, the profile with its token, "My bots", a bot registered;
no Content-Security-Policy violation and nothing wider than the screen on the way."""

import pytest

from outside_bots.models import OutsideBot
from tests.pages.test_browser import browser, pytestmark, shoot  # noqa: F401

PASSWORD = "a long and right password"


@pytest.fixture(autouse=True)
def allowed_hosts(settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]


def test_an_author_signs_up_and_registers_a_bot_on_a_phone(browser, live_server):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))

    def fits():
        return page.evaluate("document.documentElement.scrollWidth") <= 360

    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Log in").click()
    page.get_by_role("link", name="sign up").click()
    assert fits()
    shoot(page, "sign-up-phone")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Email").fill("ada@example.org")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()

    page.wait_for_url("**/accounts/profile/")
    assert len(page.locator("#token").inner_text()) == 40
    assert fits()
    shoot(page, "profile-phone")
    page.get_by_role("link", name="My bots").first.click()
    page.get_by_role("link", name="Register a bot").click()
    page.get_by_label("Name").fill("ada-bot")
    page.get_by_label("URL").fill("https://bots.example.org/president/first-one/play/v2/decide")
    page.get_by_label("classic").check()
    assert fits()
    page.get_by_role("button", name="Register").click()
    page.get_by_role("heading", name="Bot ada-bot registered").wait_for()  # its secret, once
    page.get_by_role("link", name="My bots").last.click()

    page.wait_for_url("**/accounts/bots/")
    assert page.locator("#bots").get_by_text("ada-bot").count() == 1
    assert fits()
    # the whole table in view, its long URL wrapped (a walk-through found it 882 px wide,
    # "edit · remove" off the screen)
    assert page.evaluate("[document.querySelector('#bots').scrollWidth,"
                         " document.querySelector('#bots').parentElement.clientWidth]"
                         ".reduce((table, box) => table <= box)")
    shoot(page, "my-bots-phone")
    assert OutsideBot.objects.get().owner.username == "ada"
    for url in ("/accounts/email/", "/accounts/password/change/"):  # allauth's own pages
        page.goto(live_server.url + url)
        assert fits(), url
    assert problems == []
    ctx.close()
