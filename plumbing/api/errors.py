"""The API's error shape: each error names the field it is about, or is ``{"detail":
message}`` (a transcript the checker refuses names its fault under ``transcript``). Each app's
exception handler answers in it (league/api/errors.py)."""

import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import APIException

# get_object_or_404's own words, in the model's class name: the API and the pages say instead
# what is missing in theirs (league/api/errors.py, config/not_found.py)
MODEL_WORDS = re.compile(r"No \w+ matches the given query\.")


@extend_schema_field({"oneOf": [
    {"type": "object", "description": "the checker's fault: its deal and move (0-based)",
     "properties": {"deal": {"type": "integer", "nullable": True},
                    "move": {"type": "integer", "nullable": True},
                    "error": {"type": "string"}},
     "required": ["deal", "move", "error"]},
    {"type": "array", "items": {"type": "string"},
     "description": "what is wrong with the transcript's shape"}]})
class TranscriptErrorField(serializers.JSONField):
    """The checker's fault in a transcript, or what is wrong with the field's shape."""


class ErrorSerializer(serializers.Serializer):
    """``{"detail": message}``, or field names each with what is wrong with them."""

    detail = serializers.CharField(required=False)
    transcript = TranscriptErrorField(required=False)


class IdempotencyKeyReused(APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "idempotency_key_reused"
    default_detail = ("this Idempotency-Key was already used with a different request; "
                      "send a new key for a new deal")
