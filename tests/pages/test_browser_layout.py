"""How pages lay out in Debian's chromium, where a rule of league.css is what a person sees:
the deals kept on a phone, shown on a refused entry page."""

from django.urls import reverse

from tests.league.factories import make_game
from tests.pages.test_browser import browser, pytestmark  # noqa: F401

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}

# Deals kept by outbox.js in each of the states it shows (league/static/league/outbox.js).
KEPT = """(page) => localStorage.setItem('league-outbox', JSON.stringify(
  ['held', 'conflict', 'refused'].map((state, i) => ({
    key: 'k' + i, page: page, url: page + 'deal/', fields: {}, state: state, number: i + 2,
    game: 'Game 1', order: 'Ann, Ben, Cai, Dee', reason: 'time was called on game 1'}))))"""

# Each button of a kept deal: how far its left edge is from its item's, and whether it starts
# below the item's words (not beside them).
BUTTONS = """() => [...document.querySelectorAll('#outbox-list li')].map(li => {
  const button = li.querySelector('button').getBoundingClientRect();
  const words = li.firstChild.nodeType === Node.TEXT_NODE ? li.firstChild : li.firstElementChild;
  const range = document.createRange(); range.selectNodeContents(words);
  return [li.className, Math.round(button.left - li.getBoundingClientRect().left),
          button.top >= range.getBoundingClientRect().bottom - 1]; })"""


def test_the_deals_kept_on_a_phone_line_their_buttons_up_under_their_words(browser, live_server):  # noqa: F811
    """A refused entry page at 1280 px showed its Dismiss and Discard buttons indented by half
    a letter, one beside the end of its sentence (its line grown to the button's height)."""
    entry = reverse("league:game_enter", args=[make_game().pk])
    for viewport in (PHONE, DESKTOP):
        page = browser.new_page(viewport=viewport)
        page.goto(live_server.url + entry)  # refused: nobody signed in
        page.evaluate(KEPT, entry)
        page.reload()
        page.locator("#outbox-list li.refused").wait_for()
        assert page.evaluate(BUTTONS) == [["held", 0, True], ["conflict", 0, True],
                                          ["refused", 0, True]], viewport
        page.close()
