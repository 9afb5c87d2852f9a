"""The pages in a real browser: Debian's chromium driven by Playwright against a live server.

`.ci/run` installs chromium when it is missing; Playwright never downloads a browser here.
Screenshots for the README are written by `SCREENSHOTS=1 pytest -m browser`.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import update_last_login
from django.contrib.auth.signals import user_logged_in
from django.urls import reverse

from league import services
from league.models import Deal
from tests.league.factories import UserFactory, make_game, seated_ids

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not shutil.which("chromium") and not Path(CHROMIUM).exists(),
                       reason="Debian's chromium is not installed (.ci/run installs it)"),
]


@pytest.fixture(scope="module")
def browser():
    playwright = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # safe. Only while these tests run: `check --deploy` in other tests refuses this variable.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield browser
            browser.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


def signed_in(browser, live_server, client, user, **context):
    # Without writing the user's last_login: while the live server reads auth_user for a page
    # already open (a phone's polling), the shared in-memory SQLite database refuses that write
    # at once ("database table is locked": no busy timeout for a shared cache's table locks).
    user_logged_in.disconnect(dispatch_uid="update_last_login")
    try:
        client.force_login(user)
    finally:
        user_logged_in.connect(update_last_login, dispatch_uid="update_last_login")
    ctx = browser.new_context(**context)
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                      "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                      "url": live_server.url}])
    return ctx


def shoot(page, name):
    if os.environ.get("SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def visit(browser, url, context=None):
    """Open ``url`` (in ``context`` if given): the page, and the console's errors and the
    scripts' uncaught errors seen while it loaded."""
    page = (context or browser).new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.goto(url)
    page.wait_for_load_state("load")
    return page, problems


@pytest.fixture
def table():
    game = make_game(season_kwargs={"preset": "friday", "scoring_limit": 20})
    organiser = UserFactory(username="organiser")
    game.season.club.organisers.add(organiser)
    return game, organiser


def test_a_deal_entered_on_a_phone_changes_the_standings(browser, live_server, client, table):
    game, organiser = table
    ids = seated_ids(game)
    names = dict(game.seats.values_list("player_id", "player__name"))
    order = ids[::-1]
    ctx = signed_in(browser, live_server, client, organiser,
                    viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    standings_url = live_server.url + reverse("league:season_detail", args=[game.season.pk])
    page.goto(standings_url)
    assert "No deal played yet." in page.locator("#standings").inner_text()

    page.goto(live_server.url + reverse("league:game_enter", args=[game.pk]))
    for player in order:
        page.locator(f'#taps button[data-player="{player}"]').tap()
    assert page.locator("#id_place_1").input_value() == str(order[0])
    page.get_by_role("button", name="Show roles and exchange").tap()
    page.wait_for_selector("text=Check deal 1")
    assert f"{names[order[-1]]} gives {names[order[0]]} 2 cards" in page.inner_text("main")
    page.get_by_role("button", name="Confirm deal 1").tap()
    page.wait_for_selector("text=Deal 1 recorded.")
    # The page fits the phone: nothing wider than the 360 px viewport.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.goto(standings_url)
    first_row = page.locator("#standings tbody tr").first.inner_text()
    assert names[order[0]] in first_row
    shoot(page, "season")
    ctx.close()


def test_a_double_submitted_deal_is_stored_once(browser, live_server, client, table):
    game, organiser = table
    ctx = signed_in(browser, live_server, client, organiser)
    page = ctx.new_page()
    page.goto(live_server.url + reverse("league:game_enter", args=[game.pk]))
    for player in seated_ids(game):
        page.locator(f'#taps button[data-player="{player}"]').click()
    page.get_by_role("button", name="Show roles and exchange").click()
    page.wait_for_selector("form.confirm-form")
    # Two posts of the very same confirm form, as a double tap on bad Wi-Fi sends them. One
    # after the other: SQLite's in-memory test database refuses concurrent writers outright.
    statuses = page.evaluate("""async () => {
        const form = document.querySelector('form.confirm-form');
        const body = new FormData(form);
        const send = () => fetch(form.action, {method: 'POST', body, redirect: 'manual'});
        const answers = [await send(), await send()];
        return answers.map(a => a.type === 'opaqueredirect' ? 302 : a.status);
    }""")
    assert statuses == [302, 302]
    assert Deal.objects.filter(game=game).count() == 1
    ctx.close()


def bot_game(preset, seed, players=4):
    return json.loads(subprocess.run(
        [sys.executable, "-m", "gameplay.engine", "play", "--preset", preset, "--players",
         str(players), "--seed", str(seed), "--deals", "1"], capture_output=True, text=True,
        check=True).stdout)


def shown_hands(page):
    return page.evaluate("""() => [...document.querySelectorAll('#step-hands li')].map(
        li => [...li.querySelectorAll('.hand .card')].map(c => c.getAttribute('aria-label')))""")


SUIT_NAMES = {"C": "clubs", "S": "spades", "D": "diamonds", "H": "hearts"}
RANK_NAMES = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def spoken(card):
    """The label cards.js gives a standard card (TRANSCRIPT.md notation)."""
    if card == "JK":
        return "Joker"
    return f"{RANK_NAMES.get(card[:-1], card[:-1])} of {SUIT_NAMES[card[-1]]}"


def test_the_replay_steps_through_a_bot_game_by_keyboard(browser, live_server, client):
    game = make_game(players=4)
    transcript = bot_game("classic", 3)
    deal = services.deal_record(game=game, transcript=transcript)
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(live_server.url + reverse("league:deal_replay", args=[deal.pk]))

    assert page.locator("#step-number").inner_text() == "1"
    assert page.locator("#step-text").inner_text().startswith("Deal 1 · cards dealt")
    dealt = transcript["deals"][0]["hands"]
    assert [sorted(hand) for hand in shown_hands(page)] == \
        [sorted(map(spoken, hand)) for hand in dealt]
    total = int(page.locator("#step-range").get_attribute("max"))
    page.locator("body").press("ArrowRight")
    page.locator("body").press("ArrowRight")
    assert page.locator("#step-number").inner_text() == "3"
    assert page.locator("#step-pile .card").count() > 0
    page.keyboard.press("ArrowLeft")
    assert page.locator("#step-number").inner_text() == "2"
    shoot(page, "replay")
    for _ in range(total):
        page.keyboard.press("ArrowRight")
    assert page.locator("#step-number").inner_text() == str(total)
    happened = page.locator("#step-events").inner_text()
    assert "deal over" in happened
    # said in words (a walk-through read "seat 2 is out (4)" under "Special rules")
    assert f"{game.seats.get(number=deal.places.order_by('position').last().seat).player.name}" \
        f" goes out 4th" in happened
    seats = list(deal.places.order_by("position").values_list("seat", flat=True))
    assert [bool(hand) for hand in shown_hands(page)] == [s == seats[-1] for s in range(4)], \
        "only the last player still holds cards"
    order = [game.seats.get(number=s).player.name for s in seats]
    assert page.locator("#step-out").inner_text() == ", ".join(order)
    badges = page.locator("#step-hands .badge").all_inner_texts()
    assert [badges[s] for s in seats] == ["out 1st", "out 2nd", "out 3rd", "last"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.close()


def test_the_presidents_deck_replay_names_its_cards(browser, live_server, client):
    game = make_game(players=4, season_kwargs={"preset": "presidents-deck"})
    deal = services.deal_record(game=game, transcript=bot_game("presidents-deck", 5))
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(live_server.url + reverse("league:deal_replay", args=[deal.pk]))

    labels = {label for hand in shown_hands(page) for label in hand}
    assert {"12 President", "1 Turd", "Bomb", "Doppelgänger"} <= labels
    shoot(page, "replay-presidents-deck")
    page.close()
