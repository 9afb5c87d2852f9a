"""Card notation (TRANSCRIPT.md "Cards"): parse/print round trip, T = 10, case ignored."""

import pytest

from gameplay.engine import Rules, Unreadable, preset
from gameplay.engine.cards import card_text, parse_card


@pytest.mark.parametrize("name", ["school-scum", "friday", "wild-jokers", "presidents-deck"])
def test_every_card_of_the_pack_round_trips(name):
    rules = Rules(preset(name), 4)
    presidents = rules.presidents
    for card in set(rules.deck.cards()):
        text = card_text(card, presidents=presidents)
        assert parse_card(text, presidents=presidents) == card
        assert parse_card(text.lower(), presidents=presidents) == card


def test_t_is_ten_and_case_is_ignored():
    ten = parse_card("10H", presidents=False)
    assert parse_card("TH", presidents=False) == parse_card("th", presidents=False) == ten
    assert card_text(ten) == "10H"
    assert parse_card("jk", presidents=False) == parse_card("JK", presidents=False)
    assert parse_card("br", presidents=True) == parse_card("BR", presidents=True)
    assert parse_card("dg", presidents=True) == parse_card("DG", presidents=True)


@pytest.mark.parametrize(("text", "presidents"), [
    ("1C", False), ("11H", False), ("5X", False), ("", False), ("Q", False), (5, False),
    (None, False), ("0", True), ("13", True), ("JJ", True), ("01", True), ("X", True),
])
def test_unknown_cards_are_unreadable(text, presidents):
    with pytest.raises(Unreadable):
        parse_card(text, presidents=presidents)
