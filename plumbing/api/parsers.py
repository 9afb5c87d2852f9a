"""The API's JSON body parser: DRF's, refusing what no request needs and the code after it
cannot take.

- Nesting deeper than MAX_JSON_DEPTH: Python's decoder recurses once per level, so 100,000
  brackets raised RecursionError (a 500), and data a little less deep would fail the
  serializers, which recurse too. No body of the API is more than a few levels deep (a
  transcript is five).
- Numbers too large for a float (``1e999`` reads as infinity): an id given so raised
  OverflowError in DRF's related fields.
- Whole numbers of more digits than Python converts (sys.get_int_max_str_digits): its own
  error named the interpreter's setting.
"""

import math
import sys

from rest_framework import parsers
from rest_framework.exceptions import ParseError

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


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested more than {MAX_JSON_DEPTH} levels "
                             "deep") from None
        except ParseError as error:
            if "integer string conversion" in str(error.detail):
                raise ParseError("JSON parse error - a number of more than "
                                 f"{sys.get_int_max_str_digits():,} digits") from None
            raise
        refusal = json_refusal(data)
        if refusal is not None:
            raise ParseError(f"JSON parse error - {refusal}")
        return data
