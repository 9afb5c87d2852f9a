"""A player who left a game before its end is not among its winners; the winners are decided
among those still seated, by the same rule as always (ScoreSheet.leave; RULES.md is silent:
docs/league.md "Scoring and standings", players who left)."""

import pytest

from gameplay.engine import ScoreSheet, Scoring
from gameplay.engine.errors import RuleViolation


def test_penalty_a_leaver_with_the_fewest_points_does_not_win_at_the_limit():
    s = ScoreSheet(Scoring("penalty", limit=6))
    s.add([2, 0, 1, 3])  # 2 goes out first: 0 points
    s.leave(2)
    s.add([0, 1, 3])
    s.add([0, 1, 3])

    assert s.finished and s.totals == {2: 0, 0: 1, 1: 3, 3: 6}
    assert s.winners == [0]


def test_the_leaver_keeps_their_totals_and_positions_for_the_record():
    s = ScoreSheet(Scoring("penalty", limit=6))
    s.add([2, 0, 1, 3])
    s.leave(2)
    s.add([0, 1, 3])

    assert s.totals[2] == 0 and s.positions[2] == [1] and s.mean_position(2) == 1
    assert s.left == {2}


def test_fixed_rounds_a_leaver_with_the_most_role_points_does_not_win():
    s = ScoreSheet(Scoring("fixed-rounds", deals=3))
    s.add([0, 1, 2, 3, 4])
    s.add([0, 1, 2, 3, 4])
    s.leave(0)
    s.add([2, 1, 3, 4])

    assert s.finished and s.totals[0] == 4 and s.totals[1] == 3
    assert s.winners == [1]


def test_first_to_eleven_time_called_a_leaver_with_the_most_points_does_not_win():
    s = ScoreSheet(Scoring("first-to-eleven"))
    s.add([0, 1, 2, 3])
    s.add([0, 1, 2, 3])
    s.leave(0)
    s.add([2, 1, 3])

    s.call_time()

    assert s.totals == {0: 4, 1: 2, 2: 2, 3: 0}
    assert s.winners == [2]  # 1 and 2 tie; 2 finished better in the last deal


def test_time_called_right_after_a_leave_the_last_deals_leader_who_left_does_not_win():
    s = ScoreSheet(Scoring("first-to-eleven"))
    s.add([0, 1, 2, 3])
    s.leave(0)  # before a deal that is never played

    s.call_time()

    assert s.winners == [1]


def test_penalty_time_called_the_players_still_seated_share_equal_totals():
    s = ScoreSheet(Scoring("penalty", limit=10))
    s.add([3, 0, 1, 2])
    s.leave(3)
    s.add([0, 1, 2])
    s.add([1, 0, 2])

    s.call_time()

    assert s.totals == {3: 0, 0: 2, 1: 2, 2: 6}
    assert sorted(s.winners) == [0, 1]


def test_nobody_wins_when_everyone_who_played_has_left():
    s = ScoreSheet(Scoring("penalty"))
    s.add([0, 1, 2])
    for player in (0, 1, 2):
        s.leave(player)

    s.call_time()

    assert s.finished and s.winners == []


def test_no_one_leaves_a_game_that_has_ended():
    s = ScoreSheet(Scoring("penalty", deals=1))
    s.add([0, 1, 2])
    with pytest.raises(RuleViolation, match="already ended"):
        s.leave(0)
