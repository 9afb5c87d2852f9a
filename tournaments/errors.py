"""The tournament's exception type for a user's mistake (STYLE.md "Errors")."""

from collections.abc import Sequence

from league.errors import LeagueError


class TournamentError(LeagueError):
    """A refused tournament operation; ``message`` is meant for the organiser, shown as is.

    ``field``: the field of the API's post it is about ("name", "seats", "games_per_table",
    "rounds", "format", "preset", "options", "scoring", or a field of the scoring:
    "scoring.limit"), or None. With ``entrants`` (their indices in the list entered, from 0)
    it is that part of those entrants: "name" or "bot". ``refusals``: each refusal it says
    (itself, or those raised together by ``together``). The new tournament page shows each
    at its field; the API answers them keyed by theirs (``answer``)."""

    def __init__(self, message: str, *, field: str | None = None,
                 entrants: Sequence[int] = (), **kwargs):
        super().__init__(message, field=field, **kwargs)
        self.entrants = tuple(entrants)
        self.refusals = (self,)

    @classmethod
    def together(cls, refusals: Sequence["TournamentError"]) -> "TournamentError":
        """One error saying every refusal of ``refusals`` (one or more), in their order."""
        if len(refusals) == 1:
            return refusals[0]
        error = cls("; ".join(r.message for r in refusals))
        error.refusals = tuple(refusals)
        return error

    def answer(self) -> dict:
        """Each refusal at its field, nested as the post is: ``{"games_per_table": [...],
        "scoring": {"limit": [...]}, "entrants": {1: {"bot": [...]}}}``; one about no field
        is the ``detail``."""
        body: dict = {}
        for refusal in self.refusals:
            if refusal.field is None:
                body["detail"] = f"{body['detail']}; {refusal.message}" \
                    if "detail" in body else refusal.message
            elif refusal.entrants:
                for i in refusal.entrants:
                    at = body.setdefault("entrants", {}).setdefault(i, {})
                    at.setdefault(refusal.field, []).append(refusal.message)
            else:
                *outer, last = refusal.field.split(".")
                at = body
                for name in outer:
                    at = at.setdefault(name, {})
                at.setdefault(last, []).append(refusal.message)
        return body
