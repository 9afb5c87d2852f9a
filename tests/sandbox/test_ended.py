"""A hosted bot that ends mid-game (docs/sandbox.md): its fault says how it ended, its exit code
or the signal that killed it, for everyone; the last line of its stderr is kept with the fault
for its author alone (the fault's body, as an HTTP bot's error page), never in the message
that every game page shows."""

import pytest

from gameplay.bots.base import BotFault
from gameplay.bots.sandbox import SandboxedProgram
from tests.sandbox.games import ANSWERS, needs_sandbox, play, stopped_for

pytestmark = needs_sandbox

LONG = "x" * 500


def ends_at_its_third_request(tmp_path, ending: str):
    path = tmp_path / "bot.py"
    path.write_text(ANSWERS.replace(
        "for line in sys.stdin:\n",
        "for n, line in enumerate(sys.stdin):\n"
        "    if n == 2:\n"
        "        print('thinking about request 3', file=sys.stderr)\n"
        f"        {ending}\n"))
    return path


def fault_at_its_third_request(bot):
    """The fault its third request raises, its first two answered; the bot closed after."""
    request = {"decision": "ask", "observation": {"seat": 0}}
    try:
        bot.exchange_json(request)
        bot.exchange_json(request)
        with pytest.raises(BotFault) as said:
            bot.exchange_json(request)
    finally:
        bot.close()
    return said.value


def test_a_bot_that_exits_is_told_with_its_code_and_its_stderrs_last_line(tmp_path):
    bot_file = ends_at_its_third_request(
        tmp_path, f"print('gave up: {LONG}', file=sys.stderr); sys.exit(3)")
    result, bot = play(bot_file, timeout_ms=5000)

    first = stopped_for(result, bot)
    assert first == "the program ended: exited with code 3"
    fault = result.stats[0].faults[0]
    assert fault["body"] == "the last line of its stderr: " + ("gave up: " + LONG)[:200]


def test_a_crash_keeps_the_tracebacks_last_line(tmp_path):
    bot_file = ends_at_its_third_request(tmp_path, "raise RuntimeError('my bug')")
    result, bot = play(bot_file, timeout_ms=5000)

    assert stopped_for(result, bot) == "the program ended: exited with code 1"
    body = result.stats[0].faults[0]["body"]
    assert body == "the last line of its stderr: RuntimeError: my bug"


def test_a_bot_that_ends_with_nothing_on_stderr_has_no_body(tmp_path):
    bot_file = ends_at_its_third_request(tmp_path, "sys.stderr.flush(); os._exit(0)")
    bot_file.write_text(bot_file.read_text().replace(
        "print('thinking about request 3', file=sys.stderr)", "pass").replace(
        "import json, sys", "import json, os, sys"))
    result, bot = play(bot_file, timeout_ms=5000)

    assert stopped_for(result, bot) == "the program ended: exited with code 0"
    assert result.stats[0].faults[0]["body"] is None


@pytest.mark.parametrize("attempt", range(5))
def test_the_exit_code_is_told_however_soon_it_is_asked_after_the_end(tmp_path, attempt):
    """The end of its stdout comes before bwrap, which waits for it, exits: the fault waited
    for neither, and said only "the program ended" (and let the bot play on) when asked in
    between."""
    bot = SandboxedProgram(ends_at_its_third_request(tmp_path, "sys.exit(5)"), "python",
                           timeout_ms=5000)
    said = fault_at_its_third_request(bot)
    assert said.message == "the program ended: exited with code 5"
    assert said.body == b"the last line of its stderr: thinking about request 3"


def test_an_end_seen_before_its_exit_status_is_told_with_its_exit_code(tmp_path, monkeypatch):
    """Its stdout closes a moment before the kernel gives its exit status (bwrap's files close
    first): asked in that moment, the sandbox took it for running, said only "the program
    ended" and asked it again. The moment is made here by hiding its end from ``running``."""
    bot = SandboxedProgram(ends_at_its_third_request(tmp_path, "sys.exit(6)"), "python",
                           timeout_ms=5000)
    monkeypatch.setattr(bot.jail, "running", lambda: True)
    said = fault_at_its_third_request(bot)
    assert said.message == "the program ended: exited with code 6"
    assert bot.stopped == said.message
