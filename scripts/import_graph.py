"""The import graph between the project's top-level folders, drawn from the code with grimp
(which import-linter uses): one line per arrow, ``A -> B`` when a module of A imports one of B,
higher layers first, then any arrow that runs up a layer and any cycle.

The web layer's modules (the first layer of .importlinter's layers contract: pages, API, admin,
template tags, management commands) sit inside the folders of the apps they show, as Django
expects, so they are drawn as one box, ``web``; gameplay/ is drawn as its three layers.

    .venv/bin/python scripts/import_graph.py    (docs/architecture.md holds its output)
"""

import configparser
import re
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
SPLIT = {"gameplay"}  # folders drawn as their subfolders (each its own layer)


def layers() -> list[list[str]]:
    """The layers contract of .importlinter, top first: each layer's module names."""
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    text = config["importlinter:contract:layers"]["layers"]
    return [[name for name in re.split(r"[\s:|]+", line) if name]
            for line in text.strip().splitlines()]


def box_of(module: str, web: list[str]) -> str:
    """The box a module is drawn in: web, a top-level folder, or gameplay's subfolder."""
    if any(module == w or module.startswith(w + ".") for w in web):
        return "web"
    parts = module.split(".")
    if parts[0] in SPLIT and len(parts) > 1:
        return "/".join(parts[:2])
    return parts[0]


def arrows(graph, web: list[str]) -> set[tuple[str, str]]:
    found = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if imported in graph.modules:  # the project's own, not a library
                a, b = box_of(module, web), box_of(imported, web)
                if a != b:
                    found.add((a, b))
    return found


def ranks(contract: list[list[str]], boxes: set[str]) -> dict[str, int]:
    """Each box's layer, 0 (web) at the top: the highest layer below web that lists one of its
    modules."""
    rank = {"web": 0}
    for box in boxes - {"web"}:
        dotted = box.replace("/", ".")
        rank[box] = min(i for i, layer in enumerate(contract) if i > 0 and any(
            m == dotted or m.startswith(dotted + ".") for m in layer))
    return rank


def cycles(edges: set[tuple[str, str]]) -> list[str]:
    """The boxes on a cycle of arrows (none, in a layered house)."""
    boxes = {b for edge in edges for b in edge}
    reach = {b: {t for s, t in edges if s == b} for b in boxes}
    changed = True
    while changed:
        changed = False
        for b in boxes:
            more = set().union(*(reach[t] for t in reach[b])) - reach[b]
            if more:
                reach[b] |= more
                changed = True
    return sorted(b for b in boxes if b in reach[b])


def report() -> str:
    contract = layers()
    packages = sorted(config_roots())
    graph = grimp.build_graph(*packages, cache_dir=None)
    edges = arrows(graph, contract[0])
    rank = ranks(contract, {b for edge in edges for b in edge})
    lines = [f"{a} -> {b}" for a, b in sorted(edges, key=lambda e: (rank[e[0]], e[0],
                                                                      rank[e[1]], e[1]))]
    up = [f"{a} -> {b}" for a, b in sorted(edges) if rank[a] > rank[b]]
    lines.append(f"arrows up a layer: {', '.join(up) or 'none'}")
    lines.append(f"cycles: {', '.join(cycles(edges)) or 'none'}")
    return "\n".join(lines)


def config_roots() -> list[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    return config["importlinter"]["root_packages"].split()


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print(report())
