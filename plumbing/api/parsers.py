"""The API's JSON body parser: DRF's, refusing what no request needs, what is ambiguous, and
what the code after it cannot take.

- Nesting deeper than MAX_JSON_DEPTH: Python's decoder recurses once per level, so 100,000
  brackets raised RecursionError (a 500), and data a little less deep would fail the
  serializers, which recurse too. No body of the API is more than a few levels deep (a
  transcript is five).
- Numbers too large for a float (``1e999`` reads as infinity): an id given so raised
  OverflowError in DRF's related fields.
- Whole numbers of more digits than Python converts (sys.get_int_max_str_digits): its own
  error named the interpreter's setting.
- A key given twice in one object: Python's decoder kept the last, so a body with two
  ``finishing_order`` was recorded by the second alone.
- A charset other than UTF-8, JSON's own (RFC 8259): Django reads a charset Python does not
  know as UTF-8 without a word, and one it knows (latin-1) as what the client did not mean.
"""

import codecs
import math
import sys

from django.utils.http import parse_header_parameters
from rest_framework import parsers
from rest_framework.exceptions import ParseError, UnsupportedMediaType
from rest_framework.utils import json

MAX_JSON_DEPTH = 64


def json_refusal(data, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why parsed JSON is refused, or None: lists or objects more than ``max_depth`` levels
    deep, or a number out of a float's range."""
    stack = [(data, 1)] if isinstance(data, (list, dict)) else []
    if isinstance(data, float) and not math.isfinite(data):
        return "a number out of range"
    while stack:
        value, depth = stack.pop()
        if depth > max_depth:
            return f"nested more than {max_depth} levels deep"
        for item in value.values() if isinstance(value, dict) else value:
            if isinstance(item, (list, dict)):
                stack.append((item, depth + 1))
            elif isinstance(item, float) and not math.isfinite(item):
                return "a number out of range"
    return None


def unique_keys(pairs: list[tuple]) -> dict:
    """An object's pairs as a dict, refusing a key given twice (ValueError, as the decoder's
    own faults)."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise ValueError(f"the key {twice[:40]!r} is given twice in one object")
    return data


def json_loads(text: str):
    """``text`` read as the API reads JSON, or ValueError saying why it is refused: a body,
    and a form's JSON field (plumbing.api.inputs.JSONField)."""
    try:
        data = json.loads(text, object_pairs_hook=unique_keys)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_JSON_DEPTH} levels deep") from None
    except ValueError as error:
        if "integer string conversion" in str(error):
            raise ValueError(f"a number of more than {sys.get_int_max_str_digits():,} "
                             "digits") from None
        raise
    refusal = json_refusal(data)
    if refusal is not None:
        raise ValueError(refusal)
    return data


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        charset = parse_header_parameters(media_type or "")[1].get("charset")
        if charset is not None and charset.lower() not in ("utf-8", "utf8"):
            raise UnsupportedMediaType(media_type, detail=(
                "the body is read as UTF-8 (JSON's own encoding), not "
                f"charset={charset[:40]}"))
        try:
            return json_loads(codecs.getreader("utf-8")(stream).read())
        except ValueError as error:  # UnicodeDecodeError too
            raise ParseError(f"JSON parse error - {error}") from None
