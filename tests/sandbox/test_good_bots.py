"""Starter-like bots in Python and Node play normal games through the real sandbox: a source
file, and a directory unpacked from a zip."""

import io
import zipfile

import pytest

from gameplay.bots.sandbox import SandboxedProgram, SandboxUnavailable, jail, unpack_upload
from tests.sandbox.games import ANSWERS, EXAMPLE, GOOD_JS, needs_sandbox, play, sandbox_processes


def _zip(files: dict) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return data.getvalue()


def _normal(result, bot):
    stats = result.stats[0]
    assert stats.faults == [] and bot.stopped is None, (stats.faults[:1], bot.stderr)
    assert stats.decisions > 0
    # its CPU time, for the time bank: in clock ticks as it plays (the seat's figures), then
    # from its rusage once it ended
    assert "cpu_ms" in stats.figures and bot.cpu_seconds() > 0
    assert sandbox_processes(bot.jail.uid) == []


@needs_sandbox
def test_the_python_starter_plays_a_normal_game():
    _normal(*play(EXAMPLE, timeout_ms=5000))


@needs_sandbox
def test_the_node_starter_plays_a_normal_game():
    _normal(*play(GOOD_JS, "node", timeout_ms=5000))


@needs_sandbox
@pytest.mark.parametrize("runtime, files", [
    ("python", {"bot.py": "from strategy import *\n", "strategy.py": ANSWERS}),
    ("node", {"bot.js": "require('./lib/good.js');\n", "lib/good.js": GOOD_JS.read_text()}),
])
def test_a_zipped_bot_plays_from_its_own_files(tmp_path, runtime, files):
    unpack_upload(_zip(files), tmp_path / "code")
    _normal(*play(tmp_path / "code", runtime, timeout_ms=5000))


@needs_sandbox
def test_a_python_bot_may_import_the_kit_and_nothing_else_of_the_project(tmp_path):
    code = tmp_path / "bot.py"
    code.write_text("import os, sys\nfrom gameplay.engine.options import preset\n"
                    "print(sorted(os.listdir('/kit/gameplay')), preset('classic').preset,"
                    " file=sys.stderr)\n" + ANSWERS)
    result, bot = play(code, timeout_ms=5000)
    _normal(result, bot)
    kit = ["__init__.py", *(p for p in jail.KIT_PACKAGES if (jail.GAMEPLAY / p).is_dir())]
    assert bot.stderr.decode() == f"{sorted(kit)} classic\n"


@needs_sandbox
def test_the_bot_writes_its_stderr_for_its_author(tmp_path):
    code = tmp_path / "bot.py"
    code.write_text("import sys\nsys.stderr.write('thinking hard\\n')\n" + ANSWERS)
    result, bot = play(code, timeout_ms=5000)
    assert bot.stderr == b"thinking hard\n"


def test_without_bubblewrap_a_hosted_bot_is_refused_not_run_unsandboxed(monkeypatch, tmp_path):
    monkeypatch.setattr(jail, "SEARCH_PATH", str(tmp_path))  # no bwrap there
    monkeypatch.setattr(jail, "_checked", False)
    with pytest.raises(SandboxUnavailable, match="bwrap is not installed"):
        SandboxedProgram(EXAMPLE)
