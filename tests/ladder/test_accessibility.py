"""The ladder's pages in Debian's chromium, as tests/pages/test_accessibility.py checks every
page: axe-core finds no serious or critical violation in the light scheme on a phone and the
dark scheme on a desktop, each page fits a 360 px phone, and the keyboard reaches every control
of a bot's page (its author's forms included) with a visible focus ring."""

import pytest
from django.urls import reverse

from ladder.models import Entry, Game
from tests.ladder.conftest import faults_of
from tests.ladder.test_api import ladder  # noqa: F401  (a played ladder: ada's two bots, bob's)
from tests.pages.test_accessibility import (
    DESKTOP,
    FOCUSABLE,
    PHONE,
    browser,  # noqa: F401
    pytestmark,  # noqa: F401
    tab_through,
    violations_by_page,
)
from tests.pages.test_browser import signed_in


@pytest.fixture
def pages(ladder, author):  # noqa: F811
    """Every ladder page, seen by ada (the author of ada-1, which is paused: its resume form)."""
    mine, junk = ladder["ada-1"], ladder["bob-1"]
    Entry.objects.filter(pk=mine.pk).update(status=Entry.PAUSED,
                                            reason="paused: 5 of its last 10 games had faults")
    faulted = faults_of(junk).order_by("-id").first().game.ladder_game.pk
    return {
        "table": reverse("ladder:table"),
        "an empty table": reverse("ladder:table") + "?preset=friday",
        "bot (author's, paused)": reverse("ladder:bot", args=[mine.pk]),
        "bot (author's, playing)": reverse("ladder:bot", args=[ladder["ada-2"].pk]),
        "bot with faults": reverse("ladder:bot", args=[junk.pk]),
        "game with faults": reverse("ladder:game", args=[faulted]),
        "validation game": reverse("ladder:game", args=[mine.validation_game_id]),
        "dashboard": reverse("ladder:mine"),
        "refused": reverse("ladder:table") + "?preset=poker",
        "waiting game": reverse("ladder:game", args=[
            Game.objects.create(kind=Game.RATED, preset="classic", seed=1, deals=2).pk]),
    }


@pytest.mark.slow
@pytest.mark.parametrize(("scheme", "viewport"), [("light", PHONE), ("dark", DESKTOP)],
                         ids=["light-360", "dark-1280"])
def test_no_ladder_page_has_serious_axe_violations(browser, live_server, client, pages,  # noqa: F811
                                                   author, scheme, viewport):
    assert violations_by_page(browser, live_server, client, author, pages, scheme=scheme,
                              viewport=viewport) == {}


def test_every_ladder_page_fits_a_360_px_phone(browser, live_server, client, pages,  # noqa: F811
                                               author):
    ctx = signed_in(browser, live_server, client, author, viewport=PHONE, is_mobile=True,
                    has_touch=True)
    page = ctx.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    widths = {}
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("load")
        widths[name] = page.evaluate("document.documentElement.scrollWidth")
    ctx.close()
    assert {name: w for name, w in widths.items() if w > PHONE["width"]} == {}
    # The refused preset's 400 is the one error the console reports.
    assert [p for p in problems if "400" not in p] == []


TARGETS = """() => [...document.querySelectorAll('main a[href], main button, main input')]
  .filter(e => e.getClientRects().length && !e.closest('p:not(.crumbs), td, dd, ul.faults'))
  .map(e => { const r = (e.closest('label') || e).getBoundingClientRect();  // a box's label
              return [e.outerHTML.slice(0, 80), Math.round(r.height)]; })"""


def test_the_bot_page_by_keyboard_and_touch(browser, live_server, client, pages,  # noqa: F811
                                            author):
    ctx = signed_in(browser, live_server, client, author, viewport=DESKTOP)
    page = ctx.new_page()
    # paused: its resume form; playing: its challenge form's boxes
    for name, form in [("bot (author's, paused)", "Resume"),
                       ("bot (author's, playing)", 'type="checkbox"')]:
        page.goto(live_server.url + pages[name])
        page.wait_for_load_state("load")
        page.evaluate("document.querySelector('details').open = true")  # the chart's figures
        controls = page.evaluate(FOCUSABLE)
        assert any(form in c for c in controls), name
        reached, unseen = tab_through(page, len(controls))
        assert [c for c in controls if c not in reached] == []
        assert any(r.startswith("<summary") for r in reached)
        assert unseen == [], "focused without a visible outline"
    # Buttons, the preset switch and links that stand alone are 44 px targets.
    for url in (pages["bot (author's, paused)"], pages["table"], pages["dashboard"]):
        page.goto(live_server.url + url)
        targets = page.evaluate(TARGETS)
        assert len(targets) >= 3, url
        small = [(html, h) for html, h in targets if h < 44]
        assert small == [], url
    ctx.close()
