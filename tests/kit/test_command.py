"""The ``president`` command: ``play`` against built-in bots over duplicate deals (figures
printed, transcripts written and checker-valid), ``validate`` (the site's validation game,
non-zero naming each fault), ``serve`` (a built-in bot as an HTTP or stdin/stdout bot, a program
as an HTTP bot), and the three starter bots passing validation."""

import importlib.util
import io
import json
import shlex
import sys
import urllib.error
import urllib.request

import pytest

from gameplay.engine import checker
from gameplay.kit.cli import main
from gameplay.kit.serve import BuiltInAnswerer, serve_stdio
from tests.kit.conftest import (
    ROOT,
    SECRET,
    STARTERS,
    compiled_c_starter,
    node_or_skip,
    python_starter_http,
)

# a command line as an author gives it; the checkout on the path, as an installed kit would be
ON_PATH = ["env", f"PYTHONPATH={ROOT}", sys.executable]
SERVE_STDIO = shlex.join([*ON_PATH, "-m", "gameplay.kit", "serve", "heuristic", "--stdio"])


def test_play_runs_duplicate_deals_prints_the_figures_and_writes_checked_transcripts(
        tmp_path, capsys):
    code = main(["play", SERVE_STDIO, "--preset", "friday", "--deals", "2", "--against",
                 "random,greedy", "--transcripts", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "2 deals of friday, each played from all 3 seats (6 games)" in out
    lines = [line for line in out.splitlines() if "mean position" in line]
    assert [line.split(":")[0] for line in lines] == [f"0 {SERVE_STDIO}", "1 random",
                                                      "2 greedy"]
    assert "6 of 6 checked valid" in out
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 6
    transcripts = [json.loads(f.read_text()) for f in files]
    assert all(checker.check(t)[0] == 0 for t in transcripts)
    # duplicate: each block of 3 games deals the same hands, seats rotated
    hands = [sorted(map(sorted, t["deals"][0]["hands"])) for t in transcripts]
    assert hands[0] == hands[1] == hands[2] and hands[3] == hands[4] == hands[5]
    assert hands[0] != hands[3]


def test_validate_exits_non_zero_naming_each_fault(capsys):
    code = main(["validate", "cat", "--preset", "classic", "--preset", "modern"])
    out = capsys.readouterr().out
    assert code == 1
    for preset in ("classic", "modern"):
        assert f"{preset}: failed: " in out
    assert 'malformed x' in out and 'the answer needs "choice"' in out


def test_play_names_the_faults_of_the_bot_under_test(tmp_path, capsys):
    # `cat` answers each request with the request itself: no "choice", a malformed answer
    code = main(["play", "cat", "--deals", "1", "--transcripts", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "faults by kind: {'malformed':" in out
    assert 'malformed x' in out and 'first in game 1' in out
    assert 'the answer needs "choice"' in out


def test_serve_over_http_with_a_secret_passes_validation_only_when_signed(running, capsys):
    served = running([sys.executable, "-m", "gameplay.kit", "serve", "montecarlo:playouts=8",
                      "--http", "0", "--secret", SECRET])
    assert main(["validate", served.url, "--secret", SECRET, "--preset", "wild-jokers"]) == 0
    assert "wild-jokers: passed: no fault" in capsys.readouterr().out
    assert main(["validate", served.url, "--deals", "1"]) == 1  # unsigned: refused
    out = capsys.readouterr().out
    assert "HTTP status 401" in out
    # what to do, said where the author looks: the bot checks signatures, the kit sent none
    assert "give the kit its secret: --secret=" in out
    assert main(["validate", served.url, "--secret", "not-its-secret", "--deals", "1"]) == 1
    out = capsys.readouterr().out
    assert "the ownership challenge was not answered (error: HTTP status 401)" in out
    assert "they were signed with another secret; give the kit its secret" in out


def test_serve_puts_the_compiled_c_starter_over_http_signed_and_challenged(
        tmp_path, running, capsys):
    binary = compiled_c_starter(tmp_path)
    served = running([sys.executable, "-m", "gameplay.kit", "serve", str(binary),
                      "--http", "0", "--secret", SECRET])
    # --secret: the challenge is answered before the games, then every decision is the C bot's
    assert main(["validate", served.url, "--secret", SECRET, "--preset", "presidents-deck"]) == 0
    assert "presidents-deck: passed: no fault" in capsys.readouterr().out
    assert main(["validate", served.url, "--deals", "1"]) == 1  # unsigned: refused
    out = capsys.readouterr().out
    assert "HTTP status 401" in out
    # what to do, said where the author looks: the bot checks signatures, the kit sent none
    assert "give the kit its secret: --secret=" in out
    assert main(["validate", served.url, "--secret", "not-its-secret", "--deals", "1"]) == 1
    out = capsys.readouterr().out
    assert "the ownership challenge was not answered (error: HTTP status 401)" in out
    assert "they were signed with another secret; give the kit its secret" in out


def test_a_served_programs_answer_gone_wrong_is_a_502_naming_the_fault(running):
    served = running([sys.executable, "-m", "gameplay.kit", "serve",
                      "sh -c 'while read line; do echo not json; done'", "--http", "0"])
    request = urllib.request.Request(served.url, data=json.dumps(
        {"decision": "play", "deadline_ms": 1000, "observation": {}, "legal": []}).encode())
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request, timeout=5)
    assert answer.value.code == 502
    assert "502 - malformed: the answer is not JSON" in answer.value.read().decode()


def test_the_python_starter_passes_validation(running, capsys):
    bot = running(python_starter_http(), secret=SECRET)
    args = ["validate", bot.url, "--secret", SECRET]
    assert main(args + ["--preset", "classic", "--preset", "presidents-deck"]) == 0
    stdio = shlex.join([*ON_PATH, str(STARTERS / "python" / "bot.py"), "--stdio"])
    assert main(["validate", stdio, "--preset", "school-scum"]) == 0
    out = capsys.readouterr().out
    assert out.count("passed: no fault") == 3


def test_the_javascript_starter_passes_validation(running, capsys):
    bot = running([node_or_skip(), str(STARTERS / "javascript" / "bot.js"), "--http", "0"],
                  secret=SECRET)
    args = ["validate", bot.url, "--secret", SECRET]
    assert main(args + ["--preset", "classic", "--preset", "presidents-deck"]) == 0
    assert capsys.readouterr().out.count("passed: no fault") == 2


def test_the_c_starter_passes_validation(tmp_path, capsys):
    binary = compiled_c_starter(tmp_path)
    presets = ["classic", "presidents-deck", "school-scum", "wild-jokers"]
    assert main(["validate", str(binary), *(a for p in presets for a in ("--preset", p))]) == 0
    assert capsys.readouterr().out.count("passed: no fault") == 4


@pytest.mark.parametrize("argv,message", [
    (["play", "cat", "--deals", "0"], "--deals must be at least 1"),
    (["play", "cat", "--against", "nobody"], "unknown bot 'nobody'; bots are random, greedy"),
    (["play", "cat", "--against", "heuristic:x"], "heuristic takes no settings, not 'x'"),
    (["validate", "http://example.invalid:99999/"], "usable URL"),
    (["serve", "http://127.0.0.1:8765/", "--http", "0"], "not a URL"),
    (["serve", "./no-such-bot --fast", "--http", "0"], "cannot run './no-such-bot'"),
    (["serve", "cat", "--stdio"], "serve it with --http"),
])
def test_bad_arguments_are_refused_in_words(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_the_python_starter_plays_its_lowest_play_by_the_rank_order_in_force():
    spec = importlib.util.spec_from_file_location("starter", STARTERS / "python" / "bot.py")
    starter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(starter)
    order = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    request = {"decision": "play", "observation": {"rank_order": order, "seat": 0},
               "legal": [{"pass": True}, {"play": ["2C"]}, {"play": ["10D", "10S"]},
                         {"play": ["4H"]}]}
    assert starter.decide(request) == {"choice": 3}
    # RULES.md seed 001: a revolution reverses the ranks, and the 2 is now the lowest
    request["observation"]["rank_order"] = order[::-1]
    assert starter.decide(request) == {"choice": 1}
    give = {"decision": "give_back", "count": 2, "observation": {"rank_order": order},
            "allowed": ["AS", "2C", "5D", "JK", "3H"]}
    assert starter.decide(give) == {"cards": ["3H", "5D"]}


def test_serve_stdio_says_what_is_wrong_with_a_line_it_cannot_answer_and_goes_on(capsys):
    # an author typing at `president serve heuristic --stdio` got a traceback and a dead
    # server; a line it cannot answer is now answered with why (a fault at once, not a crash)
    lines = io.StringIO('hello\n{}\n["a list"]\n{"decision": "ask", "index": 0}\n')
    serve_stdio(lambda request: {"ask": "high"} if request.get("index") == 0 else
                BuiltInAnswerer("heuristic")(request), stdin=lines)
    out, err = capsys.readouterr()
    answers = [json.loads(line) for line in out.splitlines()]
    assert [list(a) for a in answers] == [["error"], ["error"], ["error"], ["ask"]]
    assert answers[1]["error"] == "KeyError: 'observation'"
    assert "not JSON" in err and "KeyError: 'observation'" in err
    assert err.count("request.schema.json") == 3
