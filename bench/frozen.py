"""montecarlo against a frozen version of itself: 1 against 3, duplicate one-deal games (#32).

    python bench/frozen.py [--commit REF] [--preset classic ...] [--games 400]
        [--playouts N] [--bot montecarlo ...] [--workers 1] [--seed 1] [--cache .bench-cache]

The frozen version is the kit (``pip install .``, docs/kit.md) of commit ``REF`` (default
``BEFORE_32``, montecarlo as it stood before issue #32's changes), installed once into its own
virtual environment under the cache directory (``git archive`` of the commit, its playout
kernel built there with ``build.py``, then ``pip install``; later runs reuse it). Three seats
are that version served by ``president serve montecarlo:playouts=N --stdio`` as local program
bots speaking president-bot/1 (one process per seat and game); the fourth is this checkout's
``--bot``. Both sides play at the same fixed playouts per decision: ``--playouts``, else the
preset's ``PLAYOUTS_50MS``. Fixed playouts make a run repeat exactly (same seed, same figures).

Prints one JSON line per preset: games, the measured bot's mean place with its 95% interval
(par 2.5 against three equals), first-out and last-place rates with theirs, the playouts, the
frozen seats' mean place and their faults (a fault means a frozen seat played a safe move: the
figures are then not the two versions' own; they should be 0).

With ``--bot`` given more than once, each bot plays the same games in turn, and each after the
first adds a line pairing it with the first, game by game: the mean of its place less the first
bot's with the 95% interval of that mean, and how many games they finished in the same place.
Two settings mostly play the same moves, so the pairs' spread is a fraction of either line's:
a difference a line's own interval cannot show, the pairs can.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import measure, rounded, with_search  # noqa: E402
from gameplay.bots import make_bot  # noqa: E402
from gameplay.engine.options import PRESETS  # noqa: E402
from gameplay.runner.figures import mean_interval  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# main's head when issue #32 began: montecarlo before any of #32's changes.
BEFORE_32 = "a283b98d8ccd063bc5d00d66ddd16d923d239d08"
# The playouts montecarlo reached in 50 ms on an idle core, as issue #32 states them.
PLAYOUTS_50MS = {"classic": 750, "presidents-deck": 800, "school-scum": 250}
FROZEN = "frozen"  # the frozen seats' program name in the lineup
# A frozen seat answers through a pipe with a fresh process each game (its start-up counts
# against its first decision): a time bank no run reaches, so no seat plays a safe move.
OVERAGE_MS = "3600000"


def commit_of(ref: str) -> str:
    """The full commit ``ref`` names in this repository."""
    return subprocess.run(["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout.strip()


def home_of(cache: Path, commit: str) -> Path:
    """Where the frozen kit of ``commit`` lives: its source and virtual environment."""
    return cache / f"montecarlo-{commit[:12]}"


def install(commit: str, cache: Path) -> Path:
    """The ``president`` command of ``commit``'s kit, installed first if not yet (a few
    minutes: pip fetches setuptools to build it)."""
    home = home_of(cache, commit)
    president = home / "venv" / "bin" / "president"
    ready = home / "ready"
    if ready.exists():
        return president
    source, venv = home / "src", home / "venv"
    subprocess.run(["rm", "-rf", str(home)], check=True)
    source.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    # the kernel is not in git: built in the source so that pip installs it (package data)
    subprocess.run([python, "gameplay/bots/kernel/build.py"], cwd=source, check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", str(source)], check=True)
    # from outside the source, so the installed copy is what imports
    subprocess.run([python, "-c", "import gameplay.bots.kernel"], cwd=home, check=True)
    ready.write_text(commit + "\n")
    return president


def frozen_program(president: Path, playouts: int, seed: int = 0) -> list[str]:
    """The command line of a frozen montecarlo seat at ``playouts`` per decision."""
    return [str(president), "serve", f"montecarlo:playouts={playouts}", "--stdio",
            "--seed", str(seed)]


def figures(r: dict, commit: str, playouts: int) -> dict:
    """The line printed for one preset, from ``bench.bots.measure``'s result ``r``."""
    return {"preset": r["preset"], "frozen": commit[:12], "bot": r["lineup"].split(";")[0],
            "playouts": playouts, "games": r["games"],
            "mean_place": r["mean_position"], "mean_place_ci": r["mean_position_ci"],
            "first_out": r["first_out"], "first_out_ci": r["first_out_ci"],
            "last_place": r["last_place"], "last_place_ci": r["last_place_ci"],
            "frozen_mean_place": r["opponents_mean_position"][FROZEN],
            "frozen_faults": r["opponents_faults"][FROZEN], "faults": r["faults"],
            "seconds": r["seconds"]}


def paired(preset: str, bot: str, base: str, places: list[int], base_places: list[int]) -> dict:
    """The line pairing ``bot``'s places with ``base``'s on the same games (lists in the
    games' order): the mean difference (bot less base; below 0, ``bot`` placed better) with
    its 95% interval, and the games both finished alike."""
    differences = [a - b for a, b in zip(places, base_places, strict=True)]
    n = len(differences)
    return rounded({"preset": preset, "bot": bot, "base": base, "games": n,
                    "place_difference": sum(differences) / n,
                    "place_difference_ci": mean_interval(sum(differences),
                                                         sum(d * d for d in differences), n),
                    "same_place": sum(d == 0 for d in differences)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default=BEFORE_32,
                        help="the frozen version's commit, tag or branch (default: before #32)")
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    parser.add_argument("--games", type=int, default=400, help="rounded up to a multiple of 4")
    parser.add_argument("--playouts", type=int,
                        help=f"per decision, both sides (default by preset: {PLAYOUTS_50MS})")
    parser.add_argument("--bot", action="append",
                        help="this checkout's measured bot (default montecarlo); repeat it to "
                             "pair each with the first on the same games")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=ROOT / ".bench-cache")
    args = parser.parse_args()
    presets = args.preset or ["classic"]
    bots = args.bot or ["montecarlo"]
    missing = [p for p in presets if args.playouts is None and p not in PLAYOUTS_50MS]
    if missing:
        parser.error(f"no playouts known for {', '.join(missing)}: give --playouts")
    for bot in bots:
        if not bot.startswith("montecarlo"):
            parser.error(f"--bot {bot!r}: the measured bot is a montecarlo spec (its playouts "
                         "are set here)")
    try:
        commit = commit_of(args.commit)
    except subprocess.CalledProcessError:
        parser.error(f"no commit {args.commit!r} in this repository")
    president = install(commit, args.cache.resolve())
    os.environ.setdefault("OUTSIDE_BOT_OVERAGE_MS", OVERAGE_MS)
    for preset in presets:
        playouts = args.playouts or PLAYOUTS_50MS[preset]
        specs = [with_search(bot, None, playouts) for bot in bots]
        for spec in specs:
            make_bot(spec).close()  # a wrong spec stops here
        first = None
        for spec in specs:
            places = []
            r = measure(preset, [spec] + [FROZEN] * 3, games=args.games, seed=args.seed,
                        workers=args.workers, scoring=None,
                        programs={FROZEN: frozen_program(president, playouts)}, places=places)
            line = figures(r, commit, playouts)
            print(json.dumps(line), flush=True)
            if line["frozen_faults"]:
                print(f"warning: the frozen seats faulted {line['frozen_faults']} times (safe "
                      "moves played): these are not the two versions' figures", file=sys.stderr)
            if first is None:
                first = (spec, places)
            else:
                print(json.dumps(paired(preset, spec, first[0], places, first[1])), flush=True)


if __name__ == "__main__":
    main()
