"""The replay says each step's cards as the pile draws them, and in words to a screen reader,
in Debian's chromium (a walk-through read "Ann plays 5H" and "plays 10S 10D" beside cards)."""

import re

from django.urls import reverse

from league import services
from tests.league.factories import make_game
from tests.pages.test_browser import bot_game, browser, pytestmark  # noqa: F401
from tests.tournaments.helpers import small_tournament
from tests.tournaments.test_replays import replay_url, stored_game

CODE = re.compile(r"\b(10|[2-9JQKA])[CSDH]\b|\b(JK|BR|DG|B)\b")


def step_through(page):
    """Each step's text as shown and its accessible name (what a screen reader says)."""
    seen = []
    for _ in range(int(page.locator("#step-range").get_attribute("max"))):
        said = re.fullmatch(r'- paragraph: "(.*)"', page.locator("#step-text").aria_snapshot())
        seen.append((page.locator("#step-shown").inner_text(), said.group(1)))
        page.keyboard.press("ArrowRight")
    return seen


def test_a_classic_replay_shows_suits_and_says_words(browser, live_server):  # noqa: F811
    game = make_game(players=4)
    deal = services.deal_record(game=game, transcript=bot_game("classic", 3))
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(live_server.url + reverse("league:deal_replay", args=[deal.pk]))

    seen = step_through(page)

    plays = [(shown, said) for shown, said in seen if " plays " in shown]
    assert plays
    for shown, said in seen:
        assert not CODE.search(shown) and not CODE.search(said), (shown, said)
        assert not re.search("[♣♠♦♥]", said), said
    assert any(re.search(r"plays (10|[2-9JQKA])[♣♠♦♥]$", shown) for shown, _ in plays)
    assert any(re.search(r"plays the (\d+|jack|queen|king|ace) of (clubs|spades|diamonds|"
                         r"hearts)$", said) for _, said in plays)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.close()


def test_a_presidents_deck_replay_says_its_numbers_and_specials(browser, live_server):  # noqa: F811
    tournament = small_tournament(seats=4, preset="presidents-deck",
                                  scoring={"system": "fixed-rounds", "deals": 2})
    stored = stored_game(tournament)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(live_server.url + replay_url(stored, 2))

    seen = step_through(page)

    for shown, said in seen:
        assert not CODE.search(shown) and not CODE.search(said), (shown, said)
    assert any(" gives " in shown for shown, _ in seen), "deal 2 starts with its exchange"
    assert any(re.search(r"plays an? \d+$", shown) for shown, _ in seen)
    page.close()
