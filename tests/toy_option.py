"""A toy house-rule option registered by the test suite alone: what adding an option to one
preset takes (a specification in the engine's table and a field to hold its value), shown to
reach the season form and the playout kernel's refusal with no other file changed."""

from dataclasses import dataclass, fields

import pytest

from gameplay.engine import options
from gameplay.engine.options import Options, OptionSpec

TOY = OptionSpec("toy_rule", bool, False, "Toy rule: a joke of the test suite",
                 help="Only the school rules and Friday Afternoons play it.",
                 presets=("school-scum", "friday"))


@dataclass(frozen=True)
class WithToy(Options):
    toy_rule: bool = TOY.default


@pytest.fixture
def toy_option(monkeypatch):
    """``toy_rule``, taken by school-scum and friday, neither played by the kernel nor read
    by the inference (``kernel`` and ``inference`` left False, as for any new option),
    registered until the test ends."""
    monkeypatch.setitem(options.OPTIONS, TOY.name, TOY)
    for name, own in list(options.PRESETS.items()):
        values = {f.name: getattr(own, f.name) for f in fields(own)}
        monkeypatch.setitem(options.PRESETS, name, WithToy(**values))
    return TOY
