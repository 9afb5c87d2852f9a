"""Starting the starter bots and ``president serve`` as real processes on 127.0.0.1."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STARTERS = ROOT / "starters"
SECRET = "kit-test-secret"


class Running:
    """A bot process; ``url`` is where it serves HTTP (read from its first line)."""

    def __init__(self, argv: list[str], *, secret: str | None = None):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("PRESIDENT_SECRET", None)
        if secret:
            env["PRESIDENT_SECRET"] = secret
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=env, text=True)
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not found:
            self.close()
            raise AssertionError(f"{argv} did not serve: {line!r} {self.process.stderr.read()}")
        self.url = found.group(0)

    def close(self):
        self.process.kill()
        self.process.wait()
        self.process.stdout.close()
        self.process.stderr.close()


@pytest.fixture
def running():
    """``running(argv, secret=…)``: a bot process serving HTTP, stopped at the end."""
    started = []

    def start(argv, **kwargs):
        started.append(Running(argv, **kwargs))
        return started[-1]

    yield start
    for bot in started:
        bot.close()


def python_starter_http() -> list[str]:
    return [sys.executable, str(STARTERS / "python" / "bot.py"), "--http", "0"]


def node_or_skip() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the JavaScript starter needs Node 18 or later")
    return node


def compiled_c_starter(tmp_path) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler (cc or gcc): the C starter cannot be built")
    binary = tmp_path / "bot"
    subprocess.run([compiler, "-std=c11", "-O2", "-Wall", "-Werror", "-o", str(binary),
                    str(STARTERS / "c" / "bot.c")], check=True)
    return binary
