"""Every module of the project sits in one of the layers .importlinter checks
(docs/architecture.md), so a new module cannot escape the layers contract by not being named."""

import configparser
import re
import runpy
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


def test_the_architecture_doc_draws_the_import_graph_the_code_has():
    graph = runpy.run_path(str(ROOT / "scripts" / "import_graph.py"))["report"]()
    doc = (ROOT / "docs" / "architecture.md").read_text()
    drawn = re.search(r"<!-- import graph: begin -->\n```\n(.*?)\n```", doc, re.S).group(1)
    assert drawn == graph, "run scripts/import_graph.py and paste its output into the doc"
    assert graph.endswith("arrows up a layer: none\ncycles: none")
