"""The three scoring systems (RULES.md "Scoring systems")."""

import pytest

from gameplay.engine import OptionsError, ScoreSheet, Scoring, deal_points
from tests.engine.scenario import assert_fault, assert_valid, deal, game


def sheet(scoring, *orders):
    s = ScoreSheet(scoring)
    for order in orders:
        s.add(order)
    return s


def test_penalty_points_per_deal():
    """Seed 002: 0 to the first out, 2 to the last, 1 to all others."""
    assert deal_points(Scoring("penalty"), [2, 0, 3, 1]) == {2: 0, 0: 1, 3: 1, 1: 2}


def test_penalty_ends_at_the_default_limit_of_four_fewest_wins():
    """Seed 002: the game ends when one player has 4 penalty points; fewest points wins."""
    s = sheet(Scoring("penalty"), [0, 1, 2, 3], [0, 1, 3, 2])
    assert not s.finished and s.winners == [] and max(s.totals.values()) == 3
    s.add([0, 1, 2, 3])
    assert s.finished and s.totals == {0: 0, 1: 3, 2: 4, 3: 5} and s.winners == [0]


@pytest.mark.parametrize("scoring, words", [
    (Scoring("penalty"), "penalty, ends at 4 points"),
    (Scoring("penalty", limit=6), "penalty, ends at 6 points"),
    (Scoring("first-to-eleven"), "first-to-eleven, target 11"),
    (Scoring("fixed-rounds", deals=3), "fixed-rounds, 3 deals"),
])
def test_the_scoring_in_words_says_the_default_it_plays_by(scoring, words):
    """Seed 002's default limit of 4 (and first-to-eleven's 11) is the one the game plays by
    when none is set, so it is the one said: a season page read "scoring penalty." alone."""
    assert scoring.words() == words


def test_penalty_equal_totals_share_the_win():
    """RULES.md: equal totals share the win."""
    s = sheet(Scoring("penalty", limit=4), [0, 1, 2], [1, 0, 2])
    assert s.finished and sorted(s.winners) == [0, 1]


def test_penalty_fixed_number_of_deals():
    """Seed 002: play for 3, 5 or 10 rounds, then the game ends."""
    s = sheet(Scoring("penalty", deals=3), [0, 1, 2, 3], [0, 1, 2, 3])
    assert not s.finished and s.totals[3] == 4  # no default limit when `deals` is given
    s.add([1, 0, 2, 3])
    assert s.finished and s.totals[3] == 6 and s.winners == [0]


def test_penalty_limit_and_deals_whichever_comes_first():
    """RULES.md: with both `limit` and `deals`, whichever comes first ends the game."""
    assert sheet(Scoring("penalty", limit=4, deals=5), [0, 1], [0, 1]).finished
    s = sheet(Scoring("penalty", limit=6, deals=2), [0, 1, 2], [1, 0, 2])
    assert s.finished and s.totals[2] == 4


def test_first_to_eleven_role_points():
    """Seed 003: the President scores two points and the Vice President one."""
    assert deal_points(Scoring("first-to-eleven"), [3, 1, 0, 2]) == {3: 2, 1: 1, 0: 0, 2: 0}


def test_first_to_eleven_three_players_only_president_scores():
    """RULES.md: with 3 players there is no Vice President."""
    assert deal_points(Scoring("first-to-eleven"), [2, 0, 1]) == {2: 2, 0: 0, 1: 0}


def test_first_to_eleven_first_to_reach_the_target_wins():
    """Seed 003: play continues until one player achieves the score (default 11)."""
    s = sheet(Scoring("first-to-eleven"), *[[0, 1, 2, 3]] * 5)
    assert not s.finished and s.totals[0] == 10
    s.add([0, 1, 2, 3])
    assert s.finished and s.winners == [0]


def test_first_to_eleven_two_reach_it_higher_total_then_better_finish():
    """RULES.md: if two reach it in one deal, the higher total wins, then the better finish."""
    s = sheet(Scoring("first-to-eleven", target=3), [0, 1, 2, 3], [1, 0, 2, 3])
    assert s.finished and s.totals[0] == s.totals[1] == 3 and s.winners == [1]
    s = sheet(Scoring("first-to-eleven", target=4), [0, 1, 2, 3], [1, 2, 3, 0],
              [0, 1, 2, 3])
    assert s.totals == {0: 4, 1: 4, 2: 1, 3: 0}
    assert s.winners == [0]
    s = sheet(Scoring("first-to-eleven", target=4), [0, 1, 2, 3], [1, 0, 2, 3],
              [1, 0, 2, 3])
    assert (s.totals[0], s.totals[1]) == (4, 5) and s.winners == [1]


def test_first_to_eleven_fixed_deals_president_of_the_last_deal_wins():
    """Seed 003: for a set number of rounds, the President of the last round wins."""
    s = sheet(Scoring("first-to-eleven", deals=2), [0, 1, 2, 3], [3, 1, 2, 0])
    assert s.finished and s.winners == [3]


def test_fixed_rounds_role_points_then_average_position():
    """RULES.md: a fixed number of deals; role points, then lower average finishing position."""
    s = sheet(Scoring("fixed-rounds", deals=2), [0, 1, 2, 3], [1, 0, 2, 3])
    assert s.totals[0] == s.totals[1] == 3 and sorted(s.winners) == [0, 1]
    s = sheet(Scoring("fixed-rounds", deals=2), [0, 2, 1, 3], [2, 0, 3, 1])
    assert s.totals[0] == s.totals[2] == 3
    assert s.mean_position(0) == s.mean_position(2) == 1.5 and sorted(s.winners) == [0, 2]
    s = sheet(Scoring("fixed-rounds", deals=3), [0, 3, 1, 2], [2, 0, 3, 1], [1, 2, 0, 3])
    assert s.totals == {0: 3, 1: 2, 2: 3, 3: 1}
    assert s.mean_position(0) == 2.0 < s.mean_position(2) and s.winners == [0]


def test_scoring_validation():
    """TRANSCRIPT.md `scoring`: unknown systems and fields are errors."""
    for bad in ({"system": "golf"}, {"system": "penalty", "target": 11},
                {"system": "fixed-rounds"}, {"system": "penalty", "limit": 0}):
        with pytest.raises(OptionsError):
            Scoring.from_dict(bad)


FIRST = deal(["5C", "6C", "7C"], "0 5C", "1 6C")


def test_winners_empty_until_the_game_ends_in_the_checker():
    """RULES.md: until a game ends its `winners` are empty."""
    verdict = assert_valid(game("classic", FIRST, scoring={"system": "penalty", "limit": 4}))
    assert verdict["scores"] == {"totals": [0, 1, 2], "finished": False, "winners": []}
    verdict = assert_valid(game("classic", FIRST, scoring={"system": "penalty", "limit": 2}))
    assert verdict["scores"] == {"totals": [0, 1, 2], "finished": True, "winners": [0]}


def test_deal_after_the_game_ended_is_a_fault():
    """RULES.md: a deal recorded after the game ended is a fault (move null)."""
    second = deal(["5C", "6C", "7C"], "1 6C", "2 7C")
    data = game("classic", FIRST, second, scoring={"system": "penalty", "deals": 1})
    assert_fault(data, 1, None)
