"""Every module of the project sits in one of the layers .importlinter checks
(docs/architecture.md), so a new module cannot escape the layers contract by not being named."""

import configparser
import re
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["accounts", "config", "gameplay", "ladder", "league", "outside_bots", "plumbing",
            "tournaments"]


def layer_modules() -> set[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    layers = config["importlinter:contract:layers"]["layers"]
    return {name for name in re.split(r"[\s:|]+", layers) if name}


def test_every_module_is_in_a_layer():
    listed = layer_modules()
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    unplaced = sorted(
        module for module in graph.modules
        if module not in PACKAGES
        and not any(module == layer or module.startswith(layer + ".") for layer in listed))
    assert unplaced == [], f"add these to a layer in .importlinter: {unplaced}"


def test_the_layers_name_only_modules_that_exist():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert sorted(layer_modules() - set(graph.modules)) == []
