"""Numbers the engine cannot play are refused when options and scoring are read, whatever the
table (issue #16: a season or tournament with jokers 1e30 or a scoring limit of 1e9 was
accepted and then every game refused, or answered 500)."""

import pytest

from gameplay.engine import selfplay
from gameplay.engine.errors import OptionsError
from gameplay.engine.options import preset
from gameplay.engine.scoring import SCORING_MOST, ScoreSheet, Scoring


@pytest.mark.parametrize(("overrides", "message"), [
    ({"jokers": 10**30}, r"option 'jokers' must be from 0 to 6 \(two a deck\), not 1000000"),
    ({"jokers": -1}, "option 'jokers' must be from 0 to 6"),
    ({"jokers": 1e30}, "option 'jokers' takes a whole number, not 1e\\+30"),
    ({"decks": 4}, "option 'decks' must be from 1 to 3, not 4"),
    ({"decks": 0}, "option 'decks' must be from 1 to 3, not 0"),
])
def test_options_beyond_any_pack_are_refused_without_a_table(overrides, message):
    with pytest.raises(OptionsError, match=message):
        preset("classic", **overrides)


def test_the_largest_pack_is_still_allowed():
    # RULES.md: school-scum is 2 standard decks and 4 jokers; jokers are two a deck.
    assert preset("school-scum").jokers == 4
    preset("friday", decks=3, jokers=6).validate(4)


@pytest.mark.parametrize(("scoring", "message"), [
    ({"system": "penalty", "limit": 10**9}, "scoring limit must be at most 100, not 1000000000"),
    ({"system": "first-to-eleven", "target": 101}, "scoring target must be at most 100"),
    ({"system": "fixed-rounds", "deals": 30_000}, "scoring deals must be at most 100"),
    ({"system": "penalty", "limit": 1e9}, "scoring limit must be a positive whole number"),
])
def test_scoring_numbers_no_game_needs_are_refused(scoring, message):
    with pytest.raises(OptionsError, match=message):
        Scoring.from_dict(scoring)


def test_the_rules_scoring_numbers_and_the_largest_allowed_play_to_an_end():
    # RULES.md "Scoring systems": limit 4, 5 or 6 (default 4); 3, 5 or 10 deals; target 11.
    for scoring in (Scoring("penalty", limit=6), Scoring("penalty", deals=10),
                    Scoring("first-to-eleven", target=11), Scoring("fixed-rounds", deals=10),
                    Scoring("penalty", limit=SCORING_MOST),
                    Scoring("first-to-eleven", target=SCORING_MOST)):
        sheet = ScoreSheet(scoring)
        order = ["a", "b", "c", "d"]
        while not sheet.finished:  # the order turns each deal: the points spread
            sheet.add(order)
            order = order[1:] + order[:1]
        assert sheet.deals <= selfplay.MAX_DEALS
