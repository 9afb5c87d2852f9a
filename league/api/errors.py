"""The API's error JSON: each names the field it is about, or is ``{"detail": message}``.

A LeagueError (a user's mistake refused by a service, STYLE.md "Errors") answers 400 with its
message as it is, keyed by the field it is about when it names one (LeagueError.answer); a
transcript the engine's checker refuses (TranscriptRefused, from the service) answers 400 with
the fault's deal, move and error under ``transcript``; a Conflict (refused for what the game is
now: a deal number already recorded, a game that has ended) answers 409 with its message as
``detail``, and so does a write the database refused for a row written meanwhile (two clubs of
one name sent at once: both were checked free, the second insert fails the unique name); any
other refusal of the database is a bug.
Anything else is DRF's own answer, or a bug left to raise.
"""

import logging

from django.db import IntegrityError
from django.http import Http404
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from league.errors import Conflict, LeagueError, TranscriptRefused
from plumbing.api.errors import MODEL_WORDS

logger = logging.getLogger(__name__)

# Sent again, the request is checked against what the other one wrote, and refused in words
# (or written, if they did not clash after all).
CLASHED = ("another request changed the same data at the same moment; nothing was changed: "
           "send it again")


def exception_handler(exc, context):
    if isinstance(exc, Http404) and MODEL_WORDS.fullmatch(str(exc)):
        return Response({"detail": _missing(context)}, status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, TranscriptRefused):
        return Response({"transcript": exc.verdict}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Conflict):
        return Response({"detail": exc.message}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, IntegrityError) and _clashed(exc):
        logger.warning("%s %s clashed with another write: %s", context["request"].method,
                       context["request"].path, exc)
        set_rollback()  # the transaction the database refused, if the request runs in one
        return Response({"detail": CLASHED}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, LeagueError):
        return Response(exc.answer(), status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)


def _clashed(error: IntegrityError) -> bool:
    """The database refused a unique or foreign key: a row written (or removed) meanwhile by
    another request. Any other refusal (a null, a check) is a bug, left to raise."""
    sqlstate = getattr(error.__cause__, "sqlstate", None)  # PostgreSQL's (psycopg)
    if sqlstate is not None:
        return sqlstate in ("23505", "23503")  # unique_violation, foreign_key_violation
    return str(error).startswith(("UNIQUE constraint failed", "FOREIGN KEY constraint failed"))


def _missing(context) -> str:
    """What a view looked for and did not find, in words: "there is no entry 12", or in the
    view's own ``row_words`` ("bot of yours")."""
    view = context.get("view")
    model = getattr(getattr(view, "queryset", None), "model", None)
    what = (getattr(view, "row_words", None)
            or (model._meta.verbose_name if model is not None else "such row"))
    pk = (context.get("kwargs") or {}).get("pk")
    return f"there is no {what} {pk}" if pk is not None else f"there is no {what}"
