"""The protocol page's wide tables (the readings' strength figures) scrolled sideways in a box
the keyboard could not reach (axe: scrollable-region-focusable, serious). Each table now sits
in a named box that takes focus, as the help pages' wide tables do."""

import re

import pytest
from django.urls import reverse

from tests.pages.test_accessibility import AXE
from tests.pages.test_browser import browser, pytestmark  # noqa: F401

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.mark.django_db
def test_each_table_of_the_protocol_sits_in_a_named_box_that_takes_focus(client):
    html = client.get(reverse("bot_protocol")).text

    tables = html.count("<table>")
    boxes = re.findall(r'<div class="scroll" tabindex="0" role="region" aria-label="([^"]+)">\s*'
                       r"<table>", html)
    assert tables > 3 and len(boxes) == tables
    assert "Table: preset, seats; reading; greedy; random; heuristic; spender; hoarder" in boxes


def test_the_keyboard_reaches_every_box_that_scrolls(browser, live_server):  # noqa: F811
    for viewport in (PHONE, DESKTOP):
        page = browser.new_page(viewport=viewport, bypass_csp=True)
        page.goto(live_server.url + reverse("bot_protocol"))
        page.add_script_tag(content=AXE)
        found = page.evaluate("""() => axe.run(document, {runOnly: ['scrollable-region-focusable'],
                                                          resultTypes: ['violations']})""")
        assert [n["target"] for v in found["violations"] for n in v["nodes"]] == [], viewport
        scrolling = page.evaluate("""() => [...document.querySelectorAll('.rules .scroll')]
            .filter(e => e.scrollWidth > e.clientWidth).length""")
        assert scrolling >= (viewport == PHONE)  # on a phone, the readings' table scrolls
        page.close()
