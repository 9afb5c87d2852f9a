"""Role par (issue #31 "Par"): "for each preset, table size and starting role (and seat from
the dealer), the expected points from many deals of reference bots", shipped with its sample
size and interval, and made by a command (bench/role_par.py)."""

import pytest

from bench.role_par import cells
from gameplay.engine.options import PRESETS, preset
from gameplay.engine.roles import roles_by_position
from gameplay.runner.role_par import baseline, over_par, role_par, seat_roles, table


def test_the_shipped_table_has_every_preset_and_table_size_with_sample_and_interval():
    for name in PRESETS:
        for players in range(3, 8):
            found = table()[name][str(players)]
            roles = len(set(roles_by_position(players)))  # RULES.md "Common to all"
            assert len(found) == players * (roles + 1)  # and "first", the deal without roles
            for cell in found.values():
                mean, low, high = cell["points"]["fixed-rounds"]
                assert cell["deals"] >= 1000 and low < mean < high


def test_a_small_recomputation_of_a_cell_falls_within_the_shipped_interval():
    # classic at 3 seats, the dealer's left on a first deal, recomputed from 3,000 fresh deals
    # (another seed): the shipped mean lies within the new estimate's 95% interval
    shipped = role_par(preset("classic"), 3, "fixed-rounds", "first@1")
    fresh = cells("classic", 3, 3000, seed=2)["first@1"]
    mean, low, high = fresh["points"]["fixed-rounds"]
    assert fresh["deals"] > 600
    assert low <= shipped["points"] <= high
    assert shipped["interval"][0] < shipped["points"] < shipped["interval"][1]


def test_each_seat_gets_the_cell_of_its_role_and_its_seat_from_the_dealer():
    assert seat_roles(4, 1, None) == ["first@3", "first@0", "first@1", "first@2"]
    assert seat_roles(4, 0, [2, 0, 3, 1]) == [
        "vice-president@0", "scum@1", "president@2", "vice-scum@3"]
    base = baseline(preset("presidents-deck"), 4, "penalty", 0, [2, 0, 3, 1])
    assert base == [role_par(preset("presidents-deck"), 4, "penalty", key)["points"]
                    for key in seat_roles(4, 0, [2, 0, 3, 1])]
    # a President expects fewer penalty points than the Scum it takes two cards from
    assert base[2] < base[1]


def test_rules_other_than_a_preset_as_it_stands_have_no_role_par():
    assert baseline(preset("classic", decks=2), 4, "fixed-rounds", 0, None) is None


def test_a_cells_interval_is_symmetric_and_as_narrow_as_its_sample_allows():
    cell = table()["classic"]["4"]["first@1"]
    mean, low, high = cell["points"]["fixed-rounds"]
    # role points are 0, 1 or 2: the interval's half-width is at most Z95 * 1 / sqrt(n)
    assert high - mean == pytest.approx(mean - low)
    assert (high - low) / 2 <= 1.96 / cell["deals"] ** 0.5


def test_points_over_role_par_credit_a_climb_from_scum_and_sum_to_zero_over_the_table():
    # issue #31: "a player who climbs from Scum is credited and a President who coasts is
    # not": presidents-deck, previous order 2, 0, 3, 1; now seat 1, the Scum (Turd), finished
    # second (1 point) and seat 2, the President, third (0 points)
    over = over_par(preset("presidents-deck"), 4, "fixed-rounds", 0, [2, 0, 3, 1],
                    [2, 1, 0, 0])
    assert sum(over) == pytest.approx(0, abs=1e-9)
    assert over[1] > 0.5 > 0 > over[2]
