"""The seating planner's time budget (league.seating, docs/seating.md "Time"): a big night's
search stops at its deadline with a valid plan; a typical night's plan is the seed's alone."""

import hashlib

import pytest

from config.settings import base
from league.seating import (
    CLOCK_EVERY,
    STEPS,
    History,
    TableSizes,
    plan_night,
    random_night,
    score,
)

CLUB = TableSizes(3, 7, preferred=(4, 5))
SLOW_STEP = 20e-6  # seconds per search step on a busy machine: today's steps take 7 to 8 µs


class Clock:
    """A clock that moves on by ``tick`` seconds each time it is read, and counts the reads."""

    def __init__(self, tick):
        self.tick, self.now, self.reads = tick, 0.0, 0

    def __call__(self):
        self.reads += 1
        self.now += self.tick
        return self.now


def assert_valid(plan, present, sizes):
    for played, persons in zip(plan, present, strict=True):
        seated = played.seated()
        assert sorted(seated) == sorted(persons)
        assert sorted(len(table.seats) for table in played.tables) == sizes.split(len(persons))
        assert all(table.dealer in table.seats for table in played.tables)


def digest(plan):
    text = repr([(r.number, [(t.seats, t.dealer) for t in r.tables]) for r in plan])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_a_night_at_the_caps_stops_at_its_deadline_with_a_valid_plan():
    present = [range(100)] * 10  # the page's and the API's caps: 500,000 steps in full
    clock = Clock(tick=0.01)
    plan = plan_night(present, CLUB, seed=0, budget=0.05, clock=clock)
    assert_valid(plan, present, CLUB)
    # Read once to set the deadline, then every CLOCK_EVERY steps until it has passed.
    assert clock.reads <= 6
    assert clock.reads * CLOCK_EVERY < STEPS * 100 * 10 / 100


def test_a_search_cut_at_half_its_steps_cools_in_time_and_beats_its_greedy_start():
    # 80 people over 4 rounds after a season of 20: 160,000 steps in full. The clock moves on
    # one second a look, so a budget of half the looks cuts the search at half its steps, as
    # the web's budget does at the caps; with the step-set cooling it ended still hot there,
    # at its greedy start (cost 3151).
    history = History.from_rounds(random_night([range(80)] * 20, CLUB, seed=7))
    present = [range(80)] * 4
    looks = STEPS * 80 * 4 // CLOCK_EVERY // 2
    greedy = score(plan_night(present, CLUB, history, seed=0, budget=0, clock=Clock(tick=1)),
                   history)
    clock = Clock(tick=1)
    plan = plan_night(present, CLUB, history, seed=0, budget=looks + 1, clock=clock)
    assert_valid(plan, present, CLUB)
    assert clock.reads == looks + 2  # the deadline's read, then the looks until it passed
    cut = score(plan, history)
    assert cut.repeats <= greedy.repeats and cut.back_to_back <= greedy.back_to_back
    assert cut.cost < greedy.cost


def test_a_spent_budget_still_gives_a_valid_plan():
    present = [range(40)] * 4
    plan = plan_night(present, CLUB, seed=3, budget=0)
    assert_valid(plan, present, CLUB)


# Computed with the planner before it had a budget (commit b7d9fbc): people, rounds, earlier
# rounds in the season (seated at random), seed; the plan's digest.
BEFORE_THE_BUDGET = [
    (16, 1, 0, 0, "b42f125c6ddc3992"),
    (24, 3, 8, 1, "af026a0cbb9e40c4"),
    (32, 2, 0, 2, "48334de469264fa4"),
    (40, 4, 8, 3, "a1762ab3ae13e18f"),
]


@pytest.mark.parametrize(("people", "rounds", "past", "seed", "expected"), BEFORE_THE_BUDGET)
def test_a_typical_night_is_planned_as_before_within_the_web_budget(people, rounds, past, seed,
                                                                    expected):
    history = (History.from_rounds(random_night([range(people)] * past, CLUB, seed=7))
               if past else History())
    present = [range(people)] * rounds
    assert digest(plan_night(present, CLUB, history, seed=seed)) == expected
    # On a machine far slower than today's, the web budget still lets the search end.
    slow = Clock(tick=CLOCK_EVERY * SLOW_STEP)
    planned = plan_night(present, CLUB, history, seed=seed,
                         budget=base.SEATING_BUDGET_SECONDS, clock=slow)
    assert digest(planned) == expected
