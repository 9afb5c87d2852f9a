"""Time called: an unfinished game ends with its system's rule (ScoreSheet.call_time;
docs/league.md "Time called", applying RULES.md "Scoring systems" to the deals played)."""

import pytest

from gameplay.engine import ScoreSheet, Scoring
from gameplay.engine.errors import RuleViolation


def sheet(scoring, *orders):
    s = ScoreSheet(scoring)
    for order in orders:
        s.add(order)
    return s


def test_penalty_fewest_points_wins():
    """RULES.md penalty: 0 to the first out, 2 to the last, 1 to others; fewest points wins."""
    s = sheet(Scoring("penalty", limit=6), [0, 1, 2, 3], [1, 0, 2, 3])
    assert not s.finished

    s.call_time()

    assert s.finished and s.called and s.totals == {0: 1, 1: 1, 2: 2, 3: 4}
    assert sorted(s.winners) == [0, 1]  # "equal totals share the win"


def test_penalty_a_single_leader_wins_alone():
    s = sheet(Scoring("penalty", deals=10), [2, 0, 1, 3])
    s.call_time()
    assert s.winners == [2]


def test_first_to_eleven_most_points_wins():
    """RULES.md first-to-eleven: President +2, Vice President +1; the higher total wins."""
    s = sheet(Scoring("first-to-eleven"), [0, 1, 2, 3], [0, 2, 1, 3])
    s.call_time()
    assert s.totals == {0: 4, 1: 1, 2: 1, 3: 0} and s.winners == [0]


def test_first_to_eleven_equal_totals_go_to_the_better_finish_in_the_last_deal():
    """RULES.md first-to-eleven: "the higher total wins, then the better finish in that deal"."""
    s = sheet(Scoring("first-to-eleven"), [0, 1, 2, 3], [1, 0, 2, 3])
    assert s.totals[0] == s.totals[1] == 3

    s.call_time()

    assert s.winners == [1]  # President of the last deal


def test_first_to_eleven_tied_players_who_sat_out_the_last_deal_share():
    s = sheet(Scoring("first-to-eleven"), [0, 1, 2, 3], [1, 0, 2, 3], [4, 5, 6])
    s.call_time()
    assert s.totals[0] == s.totals[1] == 3 and s.totals[4] == 2
    assert sorted(s.winners) == [0, 1]


def test_fixed_rounds_most_role_points_then_lower_average_position():
    """RULES.md fixed-rounds: total role points, the lower average finishing position breaks
    ties."""
    s = sheet(Scoring("fixed-rounds", deals=10), [0, 1, 2, 3], [1, 2, 0, 3], [2, 1, 3, 0])
    # 0: 2+0+0 = 2, positions 1,3,4; 1: 1+2+1 = 4; 2: 0+1+2 = 3
    s.call_time()
    assert s.winners == [1]

    tied = sheet(Scoring("fixed-rounds", deals=10), [0, 1, 2, 3], [1, 0, 3, 2])
    assert tied.totals[0] == tied.totals[1] == 3
    tied.call_time()
    assert sorted(tied.winners) == [0, 1]  # same points, same average position 1.5: shared

    by_position = sheet(Scoring("fixed-rounds", deals=10), [0, 2, 1, 3], [1, 3, 2, 0])
    assert by_position.totals[0] == by_position.totals[1] == 2
    by_position.call_time()
    assert by_position.winners == [1]  # average position 2 beats 2.5


def test_a_finished_game_or_one_with_no_deal_cannot_be_called():
    ended = sheet(Scoring("penalty", limit=4), [0, 1, 2], [0, 1, 2])
    assert ended.finished
    with pytest.raises(RuleViolation, match="already ended"):
        ended.call_time()
    with pytest.raises(RuleViolation, match="no deal has been played"):
        ScoreSheet(Scoring("penalty")).call_time()
    assert not ended.called
