"""How long a bot author waits from ``pip install .`` to a first local match (docs/kit.md).

    .venv/bin/python bench/kit.py [--deals 2] [--offline]

Makes a fresh virtual environment, installs the kit from this checkout, then plays the Python
starter bot (over stdin/stdout) against three built-in heuristic bots with ``president play``,
and prints each step's seconds. ``--offline`` builds with the venv's own setuptools
(``--no-build-isolation --no-index``): nothing is downloaded.
"""

import argparse
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = 68  # pyproject.toml's build-system requires


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--offline", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        venv = Path(tmp) / "venv"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        made = time.perf_counter()
        offline = ["--no-build-isolation", "--no-index"] if args.offline else []
        if args.offline:
            have = subprocess.run([str(venv / "bin" / "python"), "-c",
                                   "import setuptools; print(setuptools.__version__)"],
                                  capture_output=True, text=True, check=True).stdout.strip()
            if int(have.split(".")[0]) < SETUPTOOLS:
                sys.exit(f"--offline builds with the new venv's own setuptools, {have} here; the "
                         f"kit needs setuptools>={SETUPTOOLS} (pyproject.toml): run without "
                         f"--offline to fetch it")
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", *offline, str(ROOT)],
                       check=True)
        installed = time.perf_counter()
        bot = shlex.join([str(venv / "bin" / "python"), str(ROOT / "starters/python/bot.py"),
                          "--stdio"])
        subprocess.run([str(venv / "bin" / "president"), "play", bot, "--preset", "classic",
                        "--deals", str(args.deals), "--transcripts", str(Path(tmp) / "t")],
                       check=True)
        played = time.perf_counter()
    print(f"venv {made - start:.1f} s, pip install . {installed - made:.1f} s, first match "
          f"({args.deals} duplicate deals, {4 * args.deals} games) {played - installed:.1f} s; "
          f"from pip install to the match's end {played - made:.1f} s")


if __name__ == "__main__":
    main()
