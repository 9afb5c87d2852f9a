"""The kit installs on its own (issue #29): ``pip install .`` at the repository's root into a
fresh virtual environment brings the engine, bots, runner and the ``president`` command, and no
Django; the installed command plays and validates a starter bot. Without the playout kernel
montecarlo plays its playouts in Python. (The time it takes: bench/kit.py.)"""

import subprocess
import sys
import warnings

import pytest

import gameplay.bots
from gameplay.bots import make_bot, montecarlo
from gameplay.engine.options import preset
from gameplay.runner.match import play_game
from tests.kit.conftest import ROOT, STARTERS


@pytest.mark.integration  # a real venv and pip (setuptools comes from the package index)
def test_the_kit_installs_alone_and_plays_a_starter_bot(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(ROOT)],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr
    python = str(venv / "bin" / "python")
    listed = subprocess.run([python, "-m", "pip", "list", "--format=freeze"],
                            capture_output=True, text=True, check=True).stdout.lower()
    assert "president-kit==" in listed and "django" not in listed
    found = subprocess.run([python, "-c", "import gameplay.kit, gameplay.engine; "
                            "import importlib.util as u; print(u.find_spec('django'))"],
                           capture_output=True, text=True, cwd=tmp_path, check=True)
    assert found.stdout.split() == ["None"]
    bot = f"{python} {STARTERS / 'python' / 'bot.py'} --stdio"
    president = str(venv / "bin" / "president")
    played = subprocess.run([president, "play", bot, "--deals", "1", "--transcripts",
                             str(tmp_path / "t")], capture_output=True, text=True, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "4 of 4 checked valid" in played.stdout
    checked = subprocess.run([president, "validate", bot], capture_output=True, text=True,
                             cwd=tmp_path)
    assert (checked.returncode, checked.stdout) == (0, "classic: passed: no fault\n")


def test_montecarlo_plays_in_python_where_the_kernel_is_not_built(monkeypatch):
    monkeypatch.setitem(sys.modules, "gameplay.bots.kernel", None)  # its import fails
    # ... even where another test imported it already (then it is the package's attribute)
    monkeypatch.delattr(gameplay.bots, "kernel", raising=False)
    montecarlo._kernel.cache_clear()
    try:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            bot = make_bot("montecarlo:playouts=4", seed=1)
        assert bot.kernel is None
        assert any("playouts in Python" in str(w.message) for w in said)
        others = [make_bot("random", seed=s) for s in (2, 3, 4)]
        result = play_game([bot, *others], preset("classic"), seed=3)
        assert result.stats[0].decisions > 0 and bot.figures()["playouts"] > 0
    finally:
        montecarlo._kernel.cache_clear()


def test_the_missing_kernels_warning_says_what_a_kit_user_runs(monkeypatch):
    """`make kernel` builds the service's .venv: a kit installed with `pip install .` builds the
    kernel in its source folder and installs again (checked in a fresh venv: the kit's own
    `python -m gameplay.bots.kernel.build` cannot run, its package import failing first)."""
    monkeypatch.setitem(sys.modules, "gameplay.bots.kernel._kernel", None)  # not built
    monkeypatch.delitem(sys.modules, "gameplay.bots.kernel", raising=False)
    monkeypatch.delattr(gameplay.bots, "kernel", raising=False)
    montecarlo._kernel.cache_clear()
    try:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            make_bot("montecarlo:playouts=4", seed=1)
        words = " ".join(str(w.message) for w in said)
        assert "python gameplay/bots/kernel/build.py" in words
        assert "then `pip install .` again" in words
    finally:
        montecarlo._kernel.cache_clear()
