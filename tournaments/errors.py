"""The tournament's exception type for a user's mistake (STYLE.md "Errors")."""

from league.errors import LeagueError


class TournamentError(LeagueError):
    """A refused tournament operation; ``message`` is meant for the organiser, shown as is.

    ``field``: the field of the API's post it is about ("name", "seats", "games_per_table",
    "rounds", "format", "preset", "options", "scoring", or a field of the scoring:
    "scoring.limit"), or None. With ``entrants`` (their
    indices in the list entered, from 0) it is that part of those entrants: "name" or
    "bot". The new tournament page shows the refusal at that field; the API answers with
    the message alone."""

    def __init__(self, message: str, *, field: str | None = None,
                 entrants: tuple[int, ...] = (), **kwargs):
        super().__init__(message, field=field, **kwargs)
        self.entrants = tuple(entrants)

    def answer(self) -> dict:
        return {"detail": self.message}
