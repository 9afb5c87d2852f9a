"""The API's error JSON: each names the field it is about, or is ``{"detail": message}``.

A LeagueError (a user's mistake refused by a service, STYLE.md "Errors") answers 400 with its
message as it is; a transcript the engine's checker refuses (TranscriptRefused, from the
service) answers 400 with the fault's deal, move and error under ``transcript``; a Conflict
(refused for what the game is now: a deal number already recorded, a game that has ended)
answers 409 with its message as ``detail``. Anything else
is DRF's own answer, or a bug left to raise.
"""

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from league.errors import Conflict, LeagueError, TranscriptRefused


def exception_handler(exc, context):
    if isinstance(exc, TranscriptRefused):
        return Response({"transcript": exc.verdict}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Conflict):
        return Response({"detail": exc.message}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, LeagueError):
        return Response({"detail": exc.message}, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)
