"""drf-spectacular hooks: every operation documents the error answers it can give."""

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
