"""The protocol on the site, for bot authors: the page (/bots/protocol/, the kit's guide and the
protocol section of docs/bots.md, rendered as the rules pages are) and each message's JSON
Schema at a stable address (/bots/protocol/<name>.schema.json, the files of docs/protocol/)."""

import re
from functools import cache

from django.conf import settings
from django.http import FileResponse, Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html
from markdown_it import MarkdownIt
from markdown_it.token import Token

DOCS = settings.BASE_DIR / "docs"
SCHEMAS = DOCS / "protocol"
# js-default: no raw HTML passes through (html=False), unsafe link schemes are refused.
MARKDOWN = MarkdownIt("js-default")
# A link to another document of the repository, which the site does not serve: its text stays.
REPOSITORY_LINK = re.compile(r"\[([^\]]+)\]\((?![a-z]+:|/|#)([^)]+?\.md)(#[^)]*)?\)")


def schema_names() -> list[str]:
    return sorted(p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.schema.json"))


def schema_url(name: str) -> str:
    return reverse("bot_protocol_schema", args=[name])


@cache
def protocol_html() -> str:
    """docs/kit.md, then docs/bots.md's "Outside bots" section, with the schemas' links
    pointing at their addresses on the site."""
    bots = (DOCS / "bots.md").read_text(encoding="utf-8")
    start = bots.index("\n## Outside bots")
    section = bots[start:bots.index("\n## ", start + 1)]
    text = (DOCS / "kit.md").read_text(encoding="utf-8") + "\n" + section
    text = re.sub(r"\]\(protocol/([a-z]+)\.schema\.json\)",
                  lambda m: f"]({schema_url(m[1])})", text)
    text = text.replace("](protocol/)", f"]({reverse('bot_protocol')}#schemas)")
    text = REPOSITORY_LINK.sub(lambda m: f"{m[1]} (docs/{m[2]} in the repository)", text)
    tokens = _tables_in_boxes(MARKDOWN.parse(text))
    return MARKDOWN.renderer.render(tokens, MARKDOWN.options, {})


def _tables_in_boxes(tokens: list[Token]) -> list[Token]:
    """Each table in a box that scrolls sideways on a phone, which the keyboard can reach
    (docs/design.md, Tables), named after the table's column headings."""
    boxed = []
    for i, token in enumerate(tokens):
        if token.type == "table_open":
            end = next(j for j in range(i, len(tokens)) if tokens[j].type == "thead_close")
            headings = ["".join(c.content for c in t.children or ()) for t in tokens[i:end]
                        if t.type == "inline"]
            boxed.append(_html(format_html(
                '<div class="scroll" tabindex="0" role="region" aria-label="Table: {}">\n',
                "; ".join(headings))))
        boxed.append(token)
        if token.type == "table_close":
            boxed.append(_html("</div>\n"))
    return boxed


def _html(html: str) -> Token:
    """Markup of ours among the parsed tokens: the renderer writes an html_block as it is
    (MARKDOWN's html=False refuses it in the text only)."""
    token = Token("html_block", "", 0)
    token.content = html
    return token


def page(request):
    return render(request, "accounts/protocol.html", {
        "html": protocol_html(),
        "schemas": [(name, schema_url(name)) for name in schema_names()],
    })


def schema(request, name: str):
    """One message's JSON Schema; only the files of docs/protocol/ (a slug names one)."""
    if name not in schema_names():
        raise Http404(f"no schema {name!r}; the schemas are {', '.join(schema_names())}")
    response = FileResponse((SCHEMAS / f"{name}.schema.json").open("rb"),
                            content_type="application/schema+json")
    response["Access-Control-Allow-Origin"] = "*"  # public documents, for validators anywhere
    response["Cache-Control"] = "public, max-age=3600"
    return response
