"""bench/frozen.py (issue #32): montecarlo against three seats of another version served as
program bots over president-bot/1, at fixed playouts, the figures repeating from the seed.
The frozen kit's install (git archive, venv, pip) is not run here: a stand-in ``president``
serves this checkout's montecarlo."""

import sys

from bench.bots import measure
from bench.frozen import FROZEN, figures, frozen_program, home_of, paired
from tests.kit.conftest import ROOT


def test_the_frozen_kit_lives_under_the_cache_by_its_commit(tmp_path):
    commit = "a283b98d8ccd063bc5d00d66ddd16d923d239d08"
    assert home_of(tmp_path, commit) == tmp_path / "montecarlo-a283b98d8ccd"


def stand_in(tmp_path):
    """A ``president`` that serves this checkout's bots, as the frozen kit's venv/bin/president
    serves its own."""
    president = tmp_path / "president"
    president.write_text(f"#!/bin/sh\nPYTHONPATH={ROOT} exec {sys.executable} -m gameplay.kit "
                         '"$@"\n')
    president.chmod(0o755)
    return president


def test_three_served_seats_play_the_measured_bot_and_the_figures_repeat(tmp_path):
    programs = {FROZEN: frozen_program(stand_in(tmp_path), 4)}
    assert programs[FROZEN][1:] == ["serve", "montecarlo:playouts=4", "--stdio", "--seed", "0"]

    def run():
        r = measure("classic", ["montecarlo:playouts=4", FROZEN, FROZEN], games=3, seed=5,
                    workers=1, scoring=None, programs=programs)
        return figures(r, "a283b98d8ccd063bc5d00d66ddd16d923d239d08", 4)

    line = run()
    assert (line["games"], line["playouts"], line["frozen"]) == (3, 4, "a283b98d8ccd")
    assert line["bot"] == "montecarlo:playouts=4"
    # the frozen seats answered every decision themselves: no safe moves stood in
    assert line["frozen_faults"] == 0 and line["faults"] == 0
    # each game's places are 1, 2 and 3: the measured bot's and two frozen seats' sum to 6
    assert abs(line["mean_place"] + 2 * line["frozen_mean_place"] - 6) < 1e-3  # figures to 4 places
    low, high = line["mean_place_ci"]
    assert low <= line["mean_place"] <= high
    same = run()
    assert {k: v for k, v in same.items() if k != "seconds"} == \
        {k: v for k, v in line.items() if k != "seconds"}


def test_two_measured_bots_are_paired_game_by_game_on_the_same_games(tmp_path):
    GAMES = 3  # noqa: N806  (a multiple of the seats: each deal is played in every rotation)
    programs = {FROZEN: frozen_program(stand_in(tmp_path), 4)}

    def places_of(bot):
        places = []
        r = measure("classic", [bot, FROZEN, FROZEN], games=GAMES, seed=3, workers=1,
                    scoring=None, programs=programs, places=places)
        assert len(places) == r["deals"] == GAMES and set(places) <= {1, 2, 3}
        assert abs(sum(places) / GAMES - r["mean_position"]) < 1e-3
        return places

    fewer, more = places_of("montecarlo:playouts=4"), places_of("montecarlo:playouts=40")
    line = paired("classic", "montecarlo:playouts=40", "montecarlo:playouts=4", more, fewer)
    assert line["games"] == GAMES and line["base"] == "montecarlo:playouts=4"
    differences = [a - b for a, b in zip(more, fewer, strict=True)]
    # the mean of the differences is the difference of the two lines' means
    assert line["place_difference"] == round(sum(differences) / GAMES, 4)
    assert line["same_place"] == differences.count(0)
    low, high = line["place_difference_ci"]
    assert low <= line["place_difference"] <= high
    # the same bot again plays the same games the same way: every pair alike
    again = paired("classic", "montecarlo:playouts=4", "montecarlo:playouts=4",
                   places_of("montecarlo:playouts=4"), fewer)
    assert (again["place_difference"], again["place_difference_ci"], again["same_place"]) == \
        (0, [0, 0], GAMES)
