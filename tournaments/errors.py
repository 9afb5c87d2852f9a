"""The tournament's exception type for a user's mistake (STYLE.md "Errors")."""

from collections.abc import Sequence

from league.errors import LeagueError


class TournamentError(LeagueError):
    """A refused tournament operation; ``message`` is meant for the organiser, shown as is.

    ``field``: the field of the API's post it is about ("name", "seats", "games_per_table",
    "rounds", "format", "preset", "options", "scoring", or a field of the scoring:
    "scoring.limit"), or None. With ``entrants`` (their indices in the list entered, from 0)
    it is that part of those entrants: "name" or "bot", answered under ``entrants`` by their
    index. The new tournament page shows each refusal at its field (``refusals``)."""

    def __init__(self, message: str, *, field: str | None = None,
                 entrants: Sequence[int] = (), **kwargs):
        super().__init__(message, field=field, **kwargs)
        self.entrants = tuple(entrants)

    def places(self) -> list[tuple]:
        if not self.entrants or self.field is None:
            return super().places()
        return [("entrants", i, self.field) for i in self.entrants]
