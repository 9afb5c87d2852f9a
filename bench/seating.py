"""Seating quality: the planner against random seatings and against a lower bound.

    python bench/seating.py [--random 1000] [--seed 0] [--caps]

For 9, 13, 17 and 24 people over 3, 4 and 6 rounds, at tables of 3 to 7 with 4 to 5 preferred,
without history and after a season of 20 earlier rounds (five nights of four rounds, each
person coming to a night with probability 0.8, seated at random as by hand), prints one JSON
line per case: the planner's repeats (meetings of a pair who had met before), back-to-back
repeats, seat and first-dealer spread and seconds; the same for the best of ``--random`` random
seatings (best by repeats, then back-to-back; the best seat and dealer spreads of any of them);
and ``lower_bound`` from ``league.seating.repeats_lower_bound`` (docs/seating.md). Everyone is
present all night. ``seconds`` is wall-clock time, ``cpu_seconds`` the process's CPU time.

``--caps`` instead plans the largest nights the page and the API take (100 people, 1 and 10
rounds, without and after a season of 20 rounds), each without a time budget and with the web's
(``budget``: SEATING_BUDGET_SECONDS of config/settings/base.py, docs/seating.md "Time"), and
adds the plan's ``digest`` (equal digests, equal plans), its ``cost`` (``score(...).cost``), the
search's greedy start (``greedy_*``: the plan with a budget of 0, whose search stops before its
first step), the search's ``steps`` (STEPS per person and round, at most MAX_STEPS) and
``step_us``: CPU microseconds per step, the plan's CPU time less the greedy plan's over the
steps (for 10 rounds; one round without history ends early, at a night without repeats).
"""

import argparse
import hashlib
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.seating import (  # noqa: E402
    MAX_STEPS,
    STEPS,
    History,
    TableSizes,
    plan_night,
    random_night,
    repeats_lower_bound,
    score,
)

SIZES = TableSizes(3, 7, preferred=(4, 5))
HISTORY_ROUNDS = 20
ROUNDS_PER_NIGHT = 4


def season(people, rng):
    """Twenty earlier rounds, night by night, seated at random."""
    played = []
    for night in range(HISTORY_ROUNDS // ROUNDS_PER_NIGHT):
        present = [p for p in people if rng.random() < 0.8]
        played += random_night([present] * ROUNDS_PER_NIGHT, SIZES, seed=rng.randrange(2**32),
                               first_round=night * ROUNDS_PER_NIGHT)
    return History.from_rounds(played)


def web_budget():
    """The budget the page and the API give the planner (the settings' SEATING_BUDGET_SECONDS)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    from django.conf import settings

    return settings.SEATING_BUDGET_SECONDS


def case(people, rounds, history_rounds, tries, seed, budget=None, greedy=False):
    rng = random.Random(seed)
    everyone = list(range(people))
    history = season(everyone, rng) if history_rounds else History()
    present = [everyone] * rounds
    started, cpu = time.perf_counter(), time.process_time()
    plan = plan_night(present, SIZES, history, seed=seed, budget=budget)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    planned = score(plan, history)
    randoms = [score(random_night(present, SIZES, history, seed=seed + k), history)
               for k in range(tries)]
    best = min(randoms, key=lambda s: (s.repeats, s.back_to_back))
    line = {
        "people": people, "rounds": rounds, "history_rounds": history_rounds, "budget": budget,
        "tables": SIZES.split(people),
        "repeats": planned.repeats, "back_to_back": planned.back_to_back,
        "seat_spread": planned.seat_spread, "dealer_spread": planned.dealer_spread,
        "random_best_repeats": best.repeats, "random_best_back_to_back": best.back_to_back,
        "random_best_seat_spread": min(s.seat_spread for s in randoms),
        "random_best_dealer_spread": min(s.dealer_spread for s in randoms),
        "lower_bound": repeats_lower_bound(present, SIZES, history),
        "seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3),
    }
    if greedy:
        greedy_cpu = time.process_time()
        start = score(plan_night(present, SIZES, history, seed=seed, budget=0), history)
        greedy_cpu = time.process_time() - greedy_cpu
        steps = min(STEPS * people * rounds, MAX_STEPS)
        line |= {"digest": digest(plan), "cost": planned.cost, "greedy_repeats": start.repeats,
                 "greedy_back_to_back": start.back_to_back, "greedy_cost": start.cost,
                 "steps": steps}
        if rounds > 1:
            line["step_us"] = round((cpu - greedy_cpu) / steps * 1e6, 2)
    return line


def digest(plan):
    """A short digest of the plan's seats and first dealers, as tests/league/test_seating*.py."""
    text = repr([(r.number, [(t.seats, t.dealer) for t in r.tables]) for r in plan])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=1000, help="random seatings to compare")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--caps", action="store_true",
                        help="the largest nights (100 people), without and with the web's budget")
    args = parser.parse_args()
    if args.caps:
        for history_rounds in (0, HISTORY_ROUNDS):
            for rounds in (1, 10):
                for budget in (None, web_budget()):
                    print(json.dumps(case(100, rounds, history_rounds, args.random, args.seed,
                                          budget, greedy=True)), flush=True)
        return
    for history_rounds in (0, HISTORY_ROUNDS):
        for people in (9, 13, 17, 24):
            for rounds in (3, 4, 6):
                print(json.dumps(case(people, rounds, history_rounds, args.random, args.seed)),
                      flush=True)


if __name__ == "__main__":
    main()
