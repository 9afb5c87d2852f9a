"""Public pages for finding one's way and reading what things mean: the home page, the rules of
each preset and the ratings help."""

import re
from functools import cache

from django.conf import settings
from django.db.models import Count
from django.shortcuts import render
from django.urls import reverse
from markdown_it import MarkdownIt
from markdown_it.token import Token

from gameplay.engine.options import PRESETS
from league import par, selectors
from league.models import Club
from league.web import explain
from league.web.refused import refuse
from tournaments import selectors as tournament_selectors

# The rules as written for players (docs/rules/), one page per file; README.md is the index.
RULES_DIR = settings.BASE_DIR / "docs" / "rules"
RULES_INDEX = "README"
# js-default: no raw HTML passes through (html=False), unsafe link schemes are refused, and
# the index's table renders.
MARKDOWN = MarkdownIt("js-default")


def home(request):
    clubs = Club.objects.annotate(season_count=Count("seasons", distinct=True),
                                  player_count=Count("players", distinct=True))
    return render(request, "home.html", {
        "clubs": clubs,
        "tournaments": tournament_selectors.running_tournaments(),
        "recent_games": selectors.recent_games(),
    })


def rules(request, page=RULES_INDEX):
    pages = rules_pages()
    if page not in pages:
        return refuse(request, f"There is no rules page {page!r}; the pages are "
                               f"{', '.join(p for p in pages if p != RULES_INDEX)}.", 404)
    return render(request, "league/rules.html", {
        "title": pages[page],
        "html": rules_html(page),
        "preset": page if page in PRESETS else None,
        "glossary": explain.glossary(page) if page in PRESETS else None,
        "pages": {p: t for p, t in pages.items() if p != RULES_INDEX},
        "page": page,
    })


def rating_help(request):
    settling = explain.settling()
    return render(request, "league/rating_help.html", {
        "settling": settling,
        "half": next(row.deals for row in settling if row.sigma <= explain.START_SIGMA / 2),
        "start_mu": explain.START_MU,
        "start_sigma": explain.START_SIGMA,
        "start_rating": explain.START_MU - 3 * explain.START_SIGMA,
        "last": dict(zip(("mu", "sigma", "rating"), explain.last_in_first_deal(), strict=True)),
    })


def par_help(request):
    example = {seat.name: seat for seat in par.worked_example()}
    points_total = sum(seat.points for seat in example.values())
    par_total = sum(seat.par for seat in example.values())
    west = example["West"]
    west.gap = west.points - west.par
    return render(request, "league/par_help.html", {
        "example": example.values(), "preset": par.EXAMPLE_PRESET, "system": par.EXAMPLE_SYSTEM,
        "dealer": par.EXAMPLE_DEALER, "previous": par.EXAMPLE_PREVIOUS,
        "order": par.EXAMPLE_ORDER, "west": west, "north": example["North"],
        "points_total": points_total, "par_total": par_total,
        "mean_gap": (points_total - par_total) / len(example),
    })


@cache
def rules_pages() -> dict[str, str]:
    """Each rules page's name (its file's stem) and title (its first heading)."""
    pages = {}
    for path in sorted(RULES_DIR.glob("*.md")):
        first = path.read_text(encoding="utf-8").lstrip().splitlines()[0]
        pages[path.stem] = first.lstrip("# ").strip()
    return pages


def rules_url(page) -> str:
    if page == RULES_INDEX:
        return reverse("league:rules_index")
    return reverse("league:rules", args=[page])


_MD_LINK = re.compile(r"^(?P<page>[\w-]+)\.md(?P<anchor>#[\w-]*)?$")


@cache
def rules_html(page) -> str:
    """The page rendered to HTML, its links to other rules files turned into links to their
    pages on the site. The files ship with the code: read once per process."""
    text = (RULES_DIR / f"{page}.md").read_text(encoding="utf-8")
    tokens = MARKDOWN.parse(text)
    for token in tokens:
        for child in token.children or ():
            href = child.attrGet("href") if child.type == "link_open" else None
            match = _MD_LINK.match(href or "")
            if match and match["page"] in rules_pages():
                child.attrSet("href", rules_url(match["page"]) + (match["anchor"] or ""))
        if token.children:
            token.children = _set_apart_tests(token.children)
    return MARKDOWN.renderer.render(tokens, MARKDOWN.options, {})


_TESTED_BY = re.compile(r"\s*—\s*tested\s+by\s*")
_BETWEEN_TESTS = re.compile(r"^[\s,]*$")


def _set_apart_tests(children):
    """A rule's "— tested by `tests/…`" tail in a <span class="tested"> the stylesheet sets in
    small print: for players the rule is the point, for developers the tests stay there."""
    for i, child in enumerate(children):
        if child.type != "text":
            continue
        end, run = i, ""  # the text from here to the next code or link, line breaks and all
        while end < len(children) and children[end].type in ("text", "softbreak"):
            run += children[end].content if children[end].type == "text" else "\n"
            end += 1
        match = _TESTED_BY.search(run)
        if match is None:
            continue
        rest = children[end:]
        tests = 0  # the test names, with the commas and line breaks between them
        while tests < len(rest) and (rest[tests].type in ("code_inline", "softbreak") or (
                rest[tests].type == "text" and _BETWEEN_TESTS.match(rest[tests].content))):
            tests += 1
        return [*children[:i], Token("text", "", 0, content=run[:match.start()]),
                Token("html_inline", "", 0, content=' <span class="tested">'),
                Token("text", "", 0, content="Tested by " + run[match.end():]),
                *rest[:tests], Token("html_inline", "", 0, content="</span>"), *rest[tests:]]
    return children
