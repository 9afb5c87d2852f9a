"""The league's one exception type for a user's mistake (STYLE.md "Errors")."""

from collections.abc import Sequence

from gameplay.engine.errors import PresidentError


class LeagueError(PresidentError):
    """A refused league operation; ``message`` is meant for the organiser, shown as it is.

    A subclass of the engine's PresidentError, so a caller that already shows engine faults
    (an illegal transcript, a deal after the game ended) shows these the same way. ``field``:
    the field of what was sent it is about, by the API's name (``scoring_limit``; inside an
    object, with dots: ``options.jokers``), or None. ``refusals``: each refusal it says, itself
    alone or those raised at once (``together``), so a form shows each at its field.
    """

    @property
    def refusals(self) -> tuple["LeagueError", ...]:
        return getattr(self, "_refusals", (self,))

    @classmethod
    def together(cls, refusals: Sequence["LeagueError"]) -> "LeagueError":
        """One error saying every refusal of ``refusals`` (one or more), in their order."""
        if len(refusals) == 1:
            return refusals[0]
        error = cls("; ".join(r.message for r in refusals))
        error._refusals = tuple(refusals)
        return error

    def places(self) -> list[tuple]:
        """Where in the API's answer it goes: the path of keys of its field, or none."""
        return [tuple(self.field.split("."))] if self.field else []

    def answer(self) -> dict:
        """The API's body for it (400): each refusal at its field, nested as what was sent is
        (``{"name": [...], "options": {"jokers": [...]}}``); those about no field are the
        ``detail``."""
        body: dict = {}
        for refusal in self.refusals:
            places = refusal.places()
            if not places:
                body["detail"] = f"{body['detail']}; {refusal.message}" \
                    if "detail" in body else refusal.message
            for *outer, last in places:
                at = body
                for name in outer:
                    at = at.setdefault(name, {})
                at.setdefault(last, []).append(refusal.message)
        return body


class Conflict(LeagueError):
    """Refused for what the game is now, not for what was sent: a deal number already recorded
    (entered from another phone), a game that has ended. The API answers 409."""


class TranscriptRefused(LeagueError):
    """A transcript the engine's checker refuses; ``verdict`` is the checker's fault: its
    deal, move (0-based) and error (TRANSCRIPT.md "The checker")."""

    def __init__(self, verdict: dict):
        where = "".join(f" ({k} {verdict[k]})" for k in ("deal", "move")
                        if verdict.get(k) is not None)
        super().__init__(f"the transcript is not valid{where}: {verdict['error']}",
                         deal=verdict.get("deal"), move=verdict.get("move"))
        self.verdict = {"deal": self.deal, "move": self.move, "error": verdict["error"]}
