"""The seating planner's bounds (league.seating, docs/seating.md "Time"): a search takes at
most MAX_STEPS steps, so a plan is the seed's alone whatever the clock reads; the time budget
only stops a search on a machine far slower than expected (SAFETY_NET times the budget)."""

import hashlib
import math
import random

import pytest

from config.settings import base
from league import seating
from league.seating import (
    CLOCK_EVERY,
    MAX_STEPS,
    SAFETY_NET,
    STEPS,
    History,
    TableSizes,
    plan_night,
    random_night,
    score,
)

CLUB = TableSizes(3, 7, preferred=(4, 5))
CAPS = [range(100)] * 10  # the page's and the API's caps: 500,000 steps uncapped
SLOW_STEP = 20e-6  # seconds per search step on a busy machine: today's take about 3 µs idle
# The cap the searches at the caps run to here: a tenth of MAX_STEPS, each step read on the
# clock as SCALE steps, so the clock shows the budget a search at MAX_STEPS would see.
SMALL_CAP = MAX_STEPS // 10
SCALE = MAX_STEPS / SMALL_CAP


class Clock:
    """A clock that moves on by ``tick`` seconds each time it is read, and counts the reads;
    with ``jitter``, by a random share of up to twice the tick instead (mean: the tick)."""

    def __init__(self, tick, jitter=None):
        self.tick, self.now, self.reads = tick, 0.0, 0
        self.jitter = None if jitter is None else random.Random(jitter)

    def __call__(self):
        self.reads += 1
        self.now += self.tick if self.jitter is None else self.tick * 2 * self.jitter.random()
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


@pytest.fixture
def small_cap(monkeypatch):
    monkeypatch.setattr(seating, "MAX_STEPS", SMALL_CAP)
    return SMALL_CAP


def test_a_night_at_the_caps_is_planned_the_same_on_a_slow_clock_as_on_an_erratic_one(
        small_cap):
    # Old code: the cooling followed the clock once the pace would not fit the budget, so a
    # busy machine and an idle one gave different plans for the same address.
    budget = base.SEATING_BUDGET_SECONDS
    looks = 1 + math.ceil(small_cap / CLOCK_EVERY)  # the deadline's read, then every look
    # Four times today's pace, and a pace that jumps between 0 and 40 µs a step.
    slow = Clock(tick=CLOCK_EVERY * 30e-6 * SCALE)
    erratic = Clock(tick=CLOCK_EVERY * 20e-6 * SCALE, jitter=1)
    on_slow = plan_night(CAPS, CLUB, seed=0, budget=budget, clock=slow)
    on_erratic = plan_night(CAPS, CLUB, seed=0, budget=budget, clock=erratic)
    assert digest(on_slow) == digest(on_erratic)
    assert slow.reads == erratic.reads == looks  # both searched all their capped steps


def test_a_night_at_the_caps_cools_by_its_capped_steps_and_beats_its_greedy_start(small_cap):
    history = History.from_rounds(random_night([range(100)] * 20, CLUB, seed=7))
    greedy = score(plan_night(CAPS, CLUB, history, seed=0, budget=0, clock=Clock(tick=1)),
                   history)
    clock = Clock(tick=CLOCK_EVERY * 8e-6 * SCALE)  # today's pace on an idle machine
    plan = plan_night(CAPS, CLUB, history, seed=0, budget=base.SEATING_BUDGET_SECONDS,
                      clock=clock)
    assert_valid(plan, CAPS, CLUB)
    assert clock.reads == 1 + math.ceil(small_cap / CLOCK_EVERY)
    planned = score(plan, history)
    # Cost weighs a back-to-back repeat, so one more of them may pay for fewer repeats.
    assert planned.repeats < greedy.repeats
    assert planned.cost < greedy.cost


def test_a_machine_far_slower_than_expected_stops_at_the_safety_net_with_a_valid_plan():
    # The clock moves on one second a look, so a budget of 10 s ends the search at 50 of its
    # 977 looks: the safety net is SAFETY_NET times the budget.
    clock = Clock(tick=1)
    plan = plan_night(CAPS, CLUB, seed=0, budget=10, clock=clock)
    assert_valid(plan, CAPS, CLUB)
    assert clock.reads == 1 + SAFETY_NET * 10  # the deadline's read, then the looks


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
    # On a machine far slower than today's, the web budget still lets the search end, and the
    # capped steps leave typical nights as they were.
    slow = Clock(tick=CLOCK_EVERY * SLOW_STEP)
    planned = plan_night(present, CLUB, history, seed=seed,
                         budget=base.SEATING_BUDGET_SECONDS, clock=slow)
    assert digest(planned) == expected
    assert STEPS * people * rounds <= MAX_STEPS
