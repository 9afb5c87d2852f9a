"""bench/reading.py (issue #32): how close montecarlo's dealt worlds come to the true hands,
by style. It deals through MonteCarloBot.dealer, so it must keep up with that method's name
(it once called a sampler method that no longer existed and failed at its first decision)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def reading(*args):
    out = subprocess.run([sys.executable, "bench/reading.py", "--deals", "2", *args], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout)


def test_the_reading_bench_scores_each_style_and_repeats():
    first = reading("--preset", "classic", "--seats", "greedy;random;heuristic")
    shares = first["share_of_true_ranks"]
    assert sorted(shares) == ["greedy", "heuristic", "random"]
    assert all(0 < share <= 1 for share in shares.values())
    assert reading("--preset", "classic", "--seats", "greedy;random;heuristic") == first
