"""Games with a sandboxed bot at seat 0 and built-in bots at the others, and the checks every
hostile case shares (docs/sandbox.md)."""

import os
from pathlib import Path

import pytest

from gameplay.bots import make_bot
from gameplay.bots.sandbox import SandboxedProgram, available
from gameplay.bots.sandbox.jail import UID_COUNT, UID_FIRST
from gameplay.engine import checker
from gameplay.engine.options import preset
from gameplay.runner.match import play_game

PROJECT_DIR = Path(__file__).resolve().parents[2]
EXAMPLE = PROJECT_DIR / "examples" / "outside_bot.py"  # the starter-like Python bot
GOOD_JS = Path(__file__).parent / "bots" / "good.js"
SECRET = "fake-secret-key-0f9e8d7c6b5a"  # in the test's environment, never in a bot's output

# The good bot's answers, appended to each hostile program so it plays on after its attack.
ANSWERS = '''
import json, sys
def answer(r):
    d = r["decision"]
    if d == "play":
        plays = [i for i, m in enumerate(r["legal"]) if "play" in m]
        return {"choice": plays[0] if plays else 0}
    if d == "give_back":
        return {"cards": r["allowed"][: r["count"]]}
    if d == "name_cards":
        return {"cards": []}
    if d == "ask":
        return {"ask": "high"}
    return {"leader": r["observation"]["seat"], "direction": "cw"}
for line in sys.stdin:
    print(json.dumps(answer(json.loads(line))), flush=True)
'''

# every module of real games: `pytestmark = needs_sandbox`
needs_sandbox = pytest.mark.skipif(not available(), reason="bubblewrap cannot sandbox here")


def hostile(tmp_path: Path, attack: str) -> Path:
    """A Python bot that runs ``attack`` when it starts, then answers like the good bot."""
    path = tmp_path / "bot.py"
    path.write_text("import os, sys\n" + attack + "\n" + ANSWERS)
    return path


def play(code, runtime="python", *, seed=1, scoring=None, **options):
    bot = SandboxedProgram(code, runtime, **options)
    others = [make_bot("random", seed=seat) for seat in range(1, 4)]
    result = play_game([bot, *others], preset("classic"), seed=seed, scoring=scoring)
    exit_code, verdict = checker.check(result.transcript)
    assert exit_code == 0, verdict  # the game ended, by the rules
    return result, bot


def sandbox_processes(uid: int | None = None) -> list[int]:
    """Processes on this machine running as the sandbox's ``uid`` (a game's), or as any
    sandbox's uid (another test run's sandboxes too); none once a game is over."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        found_uid = int(next(ln for ln in status.splitlines() if ln.startswith("Uid:")).split()[1])
        ours = found_uid == uid if uid is not None else (
            UID_FIRST <= found_uid < UID_FIRST + UID_COUNT)
        if ours:
            found.append(int(pid))
    return found


def contained(result, bot) -> list[dict]:
    """The checks every hostile game shares; returns the bot's faults."""
    faults = result.stats[0].faults
    said = bot.stderr.decode(errors="replace") + repr(faults)
    assert SECRET not in said
    assert len(bot.stderr) <= bot.limits.stderr_kept
    assert not bot.jail.home.exists()  # the copy of its files made for the game
    left = sandbox_processes(bot.jail.uid)
    assert left == [], [Path(f"/proc/{pid}/stat").read_text() for pid in left]
    _, after = play(EXAMPLE, seed=2, timeout_ms=5000)
    assert after.stopped is None  # the next game is normal
    return faults


def stopped_for(result, bot, *words) -> str:
    """The bot was stopped with a reason in words; every later decision faulted at once."""
    faults = contained(result, bot)
    assert faults, ("the bot was not stopped", bot.stderr)
    first = faults[0]["message"]
    for word in words:
        assert word in first, first
    assert all(f["message"].startswith("not asked: stopped earlier") for f in faults[1:])
    return first
