"""A bot's own logs and error pages (issue #29, "Logs"): an answer's "log" is kept per
decision, bounded per decision (LOG_MAX) and per game (LOG_GAME_MAX, then one note), and an
error answer's body (a 500's traceback) is kept with its fault, bounded (FAULT_BODY_MAX)."""

import sys

from gameplay.bots.base import FAULT_BODY_MAX
from gameplay.bots.outside import LOG_GAME_MAX, LOG_LIMIT_NOTE, LOG_MAX, HttpBot, ProgramBot
from tests.bots.test_outside import _game, server  # noqa: F401 (the fixture)


def _bot(server):  # noqa: F811
    return HttpBot(server.url, allowed={server.allowed}, timeout_ms=3000)


def test_each_decision_keeps_its_own_log(server):  # noqa: F811
    server.log = lambda request: f"{request['decision']} at {len(server.requests)}"
    result = _game(_bot(server), deals=1)

    timeline = result.stats[0].timeline
    assert len(timeline) == result.stats[0].decisions == len(server.requests)
    assert [p["log"] for p in timeline] == [f"{r['decision']} at {n}"
                                            for n, r in enumerate(server.requests, 1)]
    assert all(not p["safe"] and p["ms"] > 0 for p in timeline)


def test_a_log_is_cut_to_log_max_its_control_characters_escaped(server):  # noqa: F811
    server.log = lambda request: "\x00é" + "y" * (2 * LOG_MAX)
    result = _game(_bot(server), deals=1)

    log = result.stats[0].timeline[0]["log"]
    assert len(log) == LOG_MAX and log.startswith("\\x00éyyy")


def test_a_games_logs_stop_at_log_game_max_with_one_note(server):  # noqa: F811
    server.log = lambda request: "z" * 3_000  # 22 decisions' worth fill the game's share
    result = _game(_bot(server), deals=3)

    logs = [p.get("log") for p in result.stats[0].timeline]
    kept = LOG_GAME_MAX // 3_000
    assert len(logs) > kept + 2  # the game has decisions past the limit
    assert logs[:kept] == ["z" * 3_000] * kept
    assert logs[kept] == LOG_LIMIT_NOTE
    assert logs[kept + 1:] == [None] * (len(logs) - kept - 1)
    assert sum(len(log or "") for log in logs) <= LOG_GAME_MAX


def test_a_log_that_is_not_text_is_ignored(server):  # noqa: F811
    server.log = lambda request: {"not": "text"}
    result = _game(_bot(server), deals=1)
    assert result.stats[0].faults == []
    assert all("log" not in p for p in result.stats[0].timeline)


def test_an_error_answers_body_is_kept_with_its_fault_bounded(server):  # noqa: F811
    server.mode = "traceback"
    result = _game(_bot(server), deals=1)

    faults = result.stats[0].faults
    assert faults and {f["kind"] for f in faults} == {"error"}
    body = faults[0]["body"]
    assert body.startswith("Traceback (most recent call last):\n<b>boom</b>\nxxx")
    assert len(body) == FAULT_BODY_MAX
    assert faults[0]["message"] == "HTTP status 500"


def test_a_fault_without_an_error_answer_has_no_body(server):  # noqa: F811
    server.mode = "junk"
    faults = _game(_bot(server), deals=1).stats[0].faults
    assert faults and all(f["body"] is None for f in faults)


def test_safe_moves_played_for_a_faulting_seat_are_marked(server):  # noqa: F811
    server.mode = "junk"
    result = _game(_bot(server), deals=1)
    timeline = result.stats[0].timeline
    assert timeline and all(p["safe"] for p in timeline)
    assert len(result.stats[0].faults) == len(timeline)


def test_a_program_bots_logs_are_bounded_the_same_way(tmp_path):
    program = tmp_path / "chatty.py"
    program.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps({'choice': 0, 'ask': 'high', 'direction': 'cw', 'leader': None,\n"
        "                      'log': 'w' * 5000}), flush=True)\n")
    bot = ProgramBot([sys.executable, str(program)], timeout_ms=3000)
    result = _game(bot, deals=2)

    logs = [p.get("log") for p in result.stats[0].timeline]
    kept = LOG_GAME_MAX // LOG_MAX
    assert logs[:kept] == ["w" * LOG_MAX] * kept
    assert logs[kept] == LOG_LIMIT_NOTE and set(logs[kept + 1:]) == {None}
