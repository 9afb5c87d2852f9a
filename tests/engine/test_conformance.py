"""The shared conformance transcripts (../shared/conformance/, README.md there): one test per
file against its expected verdict, the valid games replayed, and the checker's command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.engine import checker, transcript

REPO = Path(__file__).resolve().parents[2]
CONFORMANCE = REPO.parent / "shared" / "conformance"
EXPECTED = CONFORMANCE / "expected.jsonl"

if not EXPECTED.is_file():
    pytest.skip(f"conformance transcripts not found at {CONFORMANCE}", allow_module_level=True)

CASES = [json.loads(line) for line in EXPECTED.read_text().splitlines() if line.strip()]
VALID = [c for c in CASES if c["exit"] == 0]

def _load(name: str):
    return json.loads((CONFORMANCE / name).read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_checker_gives_expected_verdict(case):
    """Same exit status; same first fault, or same finishing orders and scores."""
    status, verdict = checker.check_text((CONFORMANCE / case["file"]).read_bytes())
    expected = case["verdict"]
    assert status == case["exit"], verdict
    assert verdict["valid"] is expected["valid"]
    if case["exit"] == 0:
        assert ([d["finishing_order"] for d in verdict["deals"]]
                == [d["finishing_order"] for d in expected["deals"]])
        assert ([d["finished"] for d in verdict["deals"]]
                == [d["finished"] for d in expected["deals"]])
        assert verdict.get("scores") == expected.get("scores")
    else:
        assert (verdict["deal"], verdict["move"]) == (expected["deal"], expected["move"]), verdict
        assert verdict["error"]


@pytest.mark.parametrize("case", VALID, ids=[c["file"] for c in VALID])
def test_replay_of_valid_game_gives_expected_finishing_orders(case):
    game = checker.replay(transcript.parse(_load(case["file"])))
    assert ([r.finishing_order for r in game.records]
            == [d["finishing_order"] for d in case["verdict"]["deals"]])


def test_reading_without_the_moves_gives_the_same_deals_with_no_moves():
    """``parse(moves=False)`` (par reads only the hands) reads every valid game's header,
    hands, blind piles and exchanges as the whole read does, and leaves the moves unread."""
    for case in VALID:
        data = _load(case["file"])
        whole, dealt = transcript.parse(data), transcript.parse(data, moves=False)
        assert (dealt.options, dealt.players, dealt.dealer) == \
            (whole.options, whole.players, whole.dealer)
        assert [(d.hands, d.blind, d.exchanges, d.moves) for d in dealt.deals] == \
            [(d.hands, d.blind, d.exchanges, []) for d in whole.deals]


def _cli(*files: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gameplay.engine", "check", *files],
                          cwd=REPO, input=stdin, capture_output=True, timeout=120)


def _first(suffix: str, exit_status: int) -> str:
    return str(CONFORMANCE / next(c["file"] for c in CASES
                                  if c["file"].endswith(suffix) and c["exit"] == exit_status))


def test_cli_exit_zero_when_all_valid_and_one_line_per_file():
    files = [str(CONFORMANCE / c["file"]) for c in VALID[:8]]
    result = _cli(*files)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["file"] for line in lines] == files
    assert all(line["valid"] for line in lines)


def test_cli_exit_one_with_a_broken_transcript():
    result = _cli(str(CONFORMANCE / VALID[0]["file"]), _first("-wrong-seat.json", 1))
    assert result.returncode == 1
    assert [json.loads(line)["valid"] for line in result.stdout.splitlines()] == [True, False]


def test_cli_exit_two_with_an_unreadable_transcript_wins_over_one():
    result = _cli(_first("-wrong-seat.json", 1), _first("-unreadable-card.json", 2),
                  str(CONFORMANCE / VALID[0]["file"]))
    assert result.returncode == 2
    assert len(result.stdout.splitlines()) == 3


def test_cli_exit_two_for_a_missing_file_and_not_json():
    assert _cli(str(CONFORMANCE / "no-such-file.json")).returncode == 2
    assert _cli("-", stdin=b"{not json").returncode == 2


def test_cli_dash_reads_standard_input():
    data = (CONFORMANCE / VALID[0]["file"]).read_bytes()
    result = _cli("-", stdin=data)
    assert result.returncode == 0
    line = json.loads(result.stdout)
    assert line["file"] == "-" and line["valid"] is True
    expected = [d["finishing_order"] for d in VALID[0]["verdict"]["deals"]]
    assert [d["finishing_order"] for d in line["deals"]] == expected
