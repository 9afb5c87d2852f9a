"""`python -m gameplay.engine play` prints a transcript the checker accepts, every preset."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.engine import PRESETS, checker

REPO = Path(__file__).resolve().parents[2]


def _run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "gameplay.engine", *args], cwd=REPO,
                          input=stdin, capture_output=True, timeout=120)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_play_output_passes_the_checker(name):
    players = 2 if name == "friday" else 4
    out = _run("play", "--preset", name, "--players", str(players), "--seed", "3")
    assert out.returncode == 0, out.stderr
    status, verdict = checker.check_text(out.stdout)
    assert status == checker.VALID, verdict
    assert verdict["scores"]["finished"] is True
    check = _run("check", "-", stdin=out.stdout)
    assert check.returncode == 0 and json.loads(check.stdout)["valid"] is True


def test_play_with_options_and_same_seed_same_game():
    args = ("play", "--preset", "friday", "--players", "5", "--seed", "11", "--option",
            "revolution=true", "--scoring", "first-to-eleven", "--target", "5")
    first, second = _run(*args), _run(*args)
    assert first.returncode == 0 and first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert data["ruleset"] == {"preset": "friday", "options": {"revolution": True}}
    assert checker.check(data)[0] == checker.VALID


def test_play_refuses_impossible_options():
    out = _run("play", "--preset", "friday", "--players", "3", "--option", "blind=true")
    assert out.returncode == 2 and b"blind" in out.stderr


def test_check_reads_no_more_than_its_limit_from_an_endless_file():
    out = _run("check", "/dev/zero", "--max-bytes", "1000000")
    assert out.returncode == 2, out.stderr
    assert out.stderr == b""
    (line,) = out.stdout.decode().splitlines()
    assert json.loads(line) == {"file": "/dev/zero", "valid": False, "deal": None, "move": None,
                                "error": "file is longer than 1,000,000 bytes (--max-bytes)"}


def test_check_refuses_a_file_over_the_limit_and_still_checks_the_others(tmp_path):
    game = _run("play", "--preset", "classic", "--players", "4", "--seed", "3").stdout
    path = tmp_path / "game.json"
    path.write_bytes(game)
    limit = str(len(game))

    exact = _run("check", "--max-bytes", limit, str(path), "-", stdin=game)
    assert exact.returncode == 0 and [json.loads(v)["valid"] for v in exact.stdout.splitlines()] \
        == [True, True]

    over = _run("check", "--max-bytes", str(len(game) - 1), str(path), "-", stdin=game)
    assert over.returncode == 2
    verdicts = [json.loads(v) for v in over.stdout.splitlines()]
    assert [v["file"] for v in verdicts] == [str(path), "-"]
    assert all(f"longer than {len(game) - 1:,} bytes" in v["error"] for v in verdicts)
