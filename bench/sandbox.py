"""Hosted bots' sandbox: its start-up time per game and its overhead per decision, against the
same bot run as a local program (docs/sandbox.md).

    python bench/sandbox.py [--games 20] [--runtime python|node ...]

Plays ``--games`` classic games for each runtime with its starter-like bot (Python:
examples/outside_bot.py, Node: tests/sandbox/bots/good.js) at seat 0 and random bots at the
others, once as a local program (``ProgramBot``) and once in the sandbox (``SandboxedProgram``),
timing every exchange and the closing.  A game's first exchange starts the program (and the
sandbox); the others are decisions; closing ends it (the sandboxed bot's stdin is closed and it
exits by itself).  Prints JSON: for each runtime the median first exchange, closing, and the
median and 90th percentile decision, local and sandboxed, and the differences (the sandbox's
cost),
with the machine's CPUs and load average, since the figures depend on what else runs.
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gameplay.bots import make_bot  # noqa: E402
from gameplay.bots.outside import ProgramBot  # noqa: E402
from gameplay.bots.sandbox import SandboxedProgram  # noqa: E402
from gameplay.bots.sandbox.jail import RUNTIMES, runtime_paths  # noqa: E402
from gameplay.engine.options import preset  # noqa: E402
from gameplay.runner.match import play_game  # noqa: E402

BOTS = {"python": (ROOT / "examples" / "outside_bot.py", ("--stdio",)),
        "node": (ROOT / "tests" / "sandbox" / "bots" / "good.js", ())}
TIMEOUT_MS = 10_000  # generous: a slow start is measured, not faulted


def timed(bot, method: str) -> list[float]:
    """Record how long each call of the bot's ``method`` takes, in ms."""
    times, call = [], getattr(bot, method)

    def timed_call(*args):
        start = time.perf_counter()
        try:
            return call(*args)
        finally:
            times.append(1000 * (time.perf_counter() - start))

    setattr(bot, method, timed_call)
    return times


def play(make, games: int) -> tuple[list[float], list[float], list[float]]:
    """The first exchange of each game, every later one, and each game's closing."""
    firsts, decisions, closings = [], [], []
    for seed in range(games):
        bot = make()
        times, closing = timed(bot, "exchange_json"), timed(bot, "close")
        others = [make_bot("random", seed=seat) for seat in range(1, 4)]
        result = play_game([bot, *others], preset("classic"), seed=seed)
        if result.stats[0].faults:
            raise SystemExit(f"the bot faulted: {result.stats[0].faults[0]}")
        firsts.append(times[0])
        decisions += times[1:]
        closings += closing
    return firsts, decisions, closings


def figures(firsts, decisions, closings) -> dict:
    return {"first_exchange_ms": round(statistics.median(firsts), 2),
            "decision_ms": round(statistics.median(decisions), 3),
            "decision_p90_ms": round(statistics.quantiles(decisions, n=10)[-1], 3),
            "close_ms": round(statistics.median(closings), 2),
            "decisions": len(decisions)}


def bench(runtime: str, games: int) -> dict:
    code, args = BOTS[runtime]
    binary, _ = runtime_paths(runtime)
    local = figures(*play(lambda: ProgramBot(
        [binary, *RUNTIMES[runtime].flags, str(code), *args], timeout_ms=TIMEOUT_MS), games))
    sandboxed = figures(*play(lambda: SandboxedProgram(
        code, runtime, args=args, timeout_ms=TIMEOUT_MS), games))
    return {"games": games, "local": local, "sandboxed": sandboxed,
            "startup_overhead_ms": round(
                sandboxed["first_exchange_ms"] - local["first_exchange_ms"], 2),
            "close_overhead_ms": round(sandboxed["close_ms"] - local["close_ms"], 2),
            "decision_overhead_ms": round(sandboxed["decision_ms"] - local["decision_ms"], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runtime", action="append", choices=sorted(BOTS))
    options = parser.parse_args()
    # the local program gets the sandbox's environment: variables such as NODE_EXTRA_CA_CERTS
    # would otherwise cost it start-up time the sandboxed one does not pay
    os.environ.clear()
    os.environ.update(PATH="/usr/bin", HOME="/tmp", LANG="C.UTF-8")
    report = {"cpus": os.cpu_count(), "load_before": os.getloadavg()[0]}
    for runtime in options.runtime or sorted(BOTS):
        report[runtime] = bench(runtime, options.games)
    report["load_after"] = os.getloadavg()[0]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
