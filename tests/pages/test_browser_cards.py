"""How the replay draws cards in a fanned hand, in Debian's chromium: the presidents deck's
corner names were 8 px and half under the next card."""

from django.urls import reverse

from league import services
from tests.league.factories import make_game
from tests.pages.test_browser import bot_game, browser, pytestmark  # noqa: F401

# Each card in a hand: its corner's words, their size in px, and how many px of them the next
# card in the same row covers.
CORNERS = """() => [...document.querySelectorAll('#step-hands .hand')].flatMap(hand => {
  const cards = [...hand.querySelectorAll('.card')];
  return cards.map((card, i) => {
    const next = cards[i + 1], words = [...card.querySelectorAll('.corner span')];
    const right = Math.max(...words.map(w => { const r = document.createRange();
      r.selectNodeContents(w); return r.getBoundingClientRect().right; }));
    const below = next && next.getBoundingClientRect().top < card.getBoundingClientRect().bottom;
    return [words.map(w => w.textContent).join(' '),
            Math.min(...words.map(w => parseFloat(getComputedStyle(w).fontSize))),
            below ? Math.max(0, Math.round(right - next.getBoundingClientRect().left)) : 0];
  });
})"""


def corners(browser, live_server, deal, width):  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(live_server.url + reverse("league:deal_replay", args=[deal.pk]))
    page.locator("#step-hands .card").first.wait_for()
    seen = page.evaluate(CORNERS)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.close()
    return seen


def test_a_presidents_deck_hand_shows_each_cards_name_whole_and_legible(browser, live_server):  # noqa: F811
    game = make_game(players=4, season_kwargs={"preset": "presidents-deck"})
    deal = services.deal_record(game=game, transcript=bot_game("presidents-deck", 5))
    for width in (360, 1280):
        seen = corners(browser, live_server, deal, width)
        assert {"2 Couch", "12 Pres", "B Bomb", "DG Dopp"} <= {words for words, _, _ in seen}
        for words, size, covered in seen:
            assert size >= 11 and covered == 0, (width, words, size, covered)


def test_a_classic_hand_still_fans_with_its_corner_index_seen(browser, live_server):  # noqa: F811
    game = make_game(players=4)
    deal = services.deal_record(game=game, transcript=bot_game("classic", 3))
    for width in (360, 1280):
        seen = corners(browser, live_server, deal, width)
        assert len(seen) == 52
        for words, size, covered in seen:
            assert size >= 13 and covered == 0, (width, words, size, covered)
