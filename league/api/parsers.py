"""The API's JSON body parser: DRF's, refusing JSON nested deeper than any request needs.

Python's decoder recurses once per level, so a body of 100,000 brackets would raise
RecursionError (a 500); data a little less deep would then fail the serializers, which recurse
too. No request body of the API is more than a few levels deep (a transcript is five).
"""

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_JSON_DEPTH = 64


def nested_deeper_than(data, limit: int) -> bool:
    """Whether parsed JSON has lists or objects more than ``limit`` levels deep."""
    stack = [(data, 1)] if isinstance(data, (list, dict)) else []
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        for item in value.values() if isinstance(value, dict) else value:
            if isinstance(item, (list, dict)):
                stack.append((item, depth + 1))
    return False


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        too_deep = ParseError(f"JSON parse error - nested more than {MAX_JSON_DEPTH} levels "
                              "deep")
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise too_deep from None
        if nested_deeper_than(data, MAX_JSON_DEPTH):
            raise too_deep
        return data
