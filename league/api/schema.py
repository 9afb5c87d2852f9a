"""The API's schema: every operation documents the error answers it can give (a
drf-spectacular hook), and the shapes of a create, an update and their errors that the
viewsets' ``extend_schema`` declarations share."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from league.api import idempotency
from plumbing.api.errors import ErrorSerializer

ERROR_REF = {"$ref": "#/components/schemas/Error"}
ANSWERS = {
    "400": "the field that is wrong (query, body or header), or the league's refusal as `detail`",
    "401": "credentials given but not valid, or none given for a write",
    "403": "signed in, but not an organiser of this club",
    "404": "no such row, or no such page",
}
WRITE_ANSWERS = {"415": "the body is not JSON, form or multipart data"}


def document_errors(result, generator, request, public):
    """Add the API's error answers (league/api/errors.py) to each operation's responses."""
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            answers = dict(ANSWERS)
            if method in ("post", "put", "patch"):
                answers.update(WRITE_ANSWERS)
            for code, description in answers.items():
                operation["responses"].setdefault(code, {
                    "content": {"application/json": {"schema": ERROR_REF}},
                    "description": description,
                })
    return result


def refuse_other_fields(result, generator, request, public):
    """A request body takes its fields and no other (plumbing/api/inputs.py): every request
    shape (COMPONENT_SPLIT_REQUEST names them …Request) says so."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request") and component.get("type") == "object":
            component["additionalProperties"] = False
    return result


ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="the field that is wrong, or "
                                                          "the league's refusal as `detail`"),
    401: OpenApiResponse(ErrorSerializer, description="not signed in"),
    403: OpenApiResponse(ErrorSerializer, description="not an organiser of this club"),
}
CONFLICT = {409: OpenApiResponse(ErrorSerializer, description=(
    "refused for what the game is now, said in `detail`: a deal number already recorded "
    "(when, from where, by whom, its finishing order), or a game that has ended and must be "
    "reopened first; nothing changed"))}
NOT_FOUND = {404: OpenApiResponse(ErrorSerializer, description="no such row")}
IDEMPOTENCY_KEY = OpenApiParameter(
    idempotency.HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="a retry with the same key gets the first answer again (docs/api.md)")
KEY_REUSED = {422: OpenApiResponse(ErrorSerializer,
                                   description="Idempotency-Key reused for another request")}


STILL_PLAYING = {409: OpenApiResponse(ErrorSerializer, description=(
    "a player still sits at an open table of the club (one person, one table): where, in "
    "`detail`; nothing created"))}


def creates(request, answer, doc, refusals=None):
    """The schema of a create: takes an Idempotency-Key, answers 201 with ``answer`` (or one
    of ``refusals`` beside the usual errors)."""
    return extend_schema(request=request, parameters=[IDEMPOTENCY_KEY], description=doc,
                         responses={201: answer, **ERRORS, **KEY_REUSED, **(refusals or {})})


def updates(request, answer, doc):
    return extend_schema(request=request, description=doc,
                         responses={200: answer, **ERRORS, **NOT_FOUND})


def valid(serializer_class, request, **kwargs) -> dict:
    form = serializer_class(data=request.data, **kwargs)
    form.is_valid(raise_exception=True)
    return form.validated_data
