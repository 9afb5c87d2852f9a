"""A replay says cards as players say them and as its pile draws them ("5♥", "two 10s"), and
in words for screen readers ("5 of hearts", "two tens"); the presidents deck by its numbers
and its Bombs, Bomb Reverses and Doppelgängers (RULES.md, presidents-deck). A walk-through read
"Ann plays 5H" and "plays 10S 10D" beside a pile drawn as cards."""

import pytest

from gameplay.engine.options import preset
from gameplay.engine.selfplay import play_random_game
from league import replays
from league.replays import cards_said, cards_shown


@pytest.mark.parametrize(("cards", "shown", "said"), [
    (["5H"], "5♥", "the 5 of hearts"),
    (["QS"], "Q♠", "the queen of spades"),
    (["10S", "10D"], "two 10s", "two tens"),
    (["AC", "AD", "AH"], "three aces", "three aces"),
    (["6C", "6S", "6D", "6H"], "four 6s", "four sixes"),
    (["JK"], "a joker", "a joker"),
    (["7C", "7S", "JK"], "two 7s and a joker", "two sevens and a joker"),
    (["9C", "JK", "JK"], "9♣ and two jokers", "the 9 of clubs and two jokers"),
    (["2S", "4D"], "2♠ and 4♦", "the 2 of spades and the 4 of diamonds"),
    (["3C", "3S", "KD"], "two 3s and K♦", "two threes and the king of diamonds"),
    (["2S", "4D", "8H"], "2♠, 4♦ and 8♥", "the 2 of spades, the 4 of diamonds and the 8 of hearts"),
])
def test_standard_cards_are_said_as_players_say_them(cards, shown, said):
    assert cards_shown(cards, presidents=False) == shown
    assert cards_said(cards, presidents=False) == said


@pytest.mark.parametrize(("cards", "shown", "said"), [
    (["12"], "a 12", "a 12"),
    (["8"], "an 8", "an 8"),
    (["11"], "an 11", "an 11"),
    (["5", "5"], "two 5s", "two fives"),
    (["10", "10", "DG"], "two 10s and a Doppelgänger", "two tens and a Doppelgänger"),
    (["DG"], "a Doppelgänger", "a Doppelgänger"),
    (["B"], "a Bomb", "a Bomb"),
    (["B", "B"], "two Bombs", "two Bombs"),
    (["B", "BR"], "a Bomb and a Bomb Reverse", "a Bomb and a Bomb Reverse"),
    (["BR", "BR"], "two Bomb Reverses", "two Bomb Reverses"),
    (["DG", "12"], "a Doppelgänger and a 12", "a Doppelgänger and a 12"),
    (["2", "4"], "a 2 and a 4", "a 2 and a 4"),
])
def test_the_presidents_deck_is_said_by_its_numbers_and_its_specials(cards, shown, said):
    assert cards_shown(cards, presidents=True) == shown
    assert cards_said(cards, presidents=True) == said


@pytest.mark.parametrize("name", ["classic", "wild-jokers", "presidents-deck", "friday"])
def test_no_step_of_a_replay_names_a_card_by_its_code(name):
    transcript = play_random_game(preset(name), 4, seed=7, scoring=None)
    steps = replays.transcript_steps(transcript)["steps"]
    codes = {card for s in steps for hand in s["hands"] for card in hand}
    assert len(steps) > 20 and codes

    for step in steps:
        for text in (step["text"], step["said"]):
            words = set(text.replace(",", " ").split())
            assert not words & codes - {"2", "3", "4", "5", "6", "7", "8", "9", "10", "11",
                                         "12", "1"}, (text, words & codes)
        assert not any(s in step["said"] for s in "♣♠♦♥")
    plays = [s for s in steps if s["action"] == "play"]
    assert all(s["text"].startswith(s["said"].split(" plays ")[0] + " plays ") for s in plays)


def test_a_name_with_braces_is_said_as_it_is():
    transcript = play_random_game(preset("school-scum"), 4, seed=3, scoring=None)
    names = ["{0}", "{x}", "Ann", "Bo"]
    steps = replays.transcript_steps(transcript, names=names)["steps"]
    plays = [s for s in steps if s["action"] == "play" and s["seat"] < 2]
    assert plays and all(s["said"].startswith(names[s["seat"]] + " plays ") for s in plays)
