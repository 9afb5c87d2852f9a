"""The league's one exception type for a user's mistake (STYLE.md "Errors")."""

from gameplay.engine.errors import PresidentError


class LeagueError(PresidentError):
    """A refused league operation; ``message`` is meant for the organiser, shown as it is.

    A subclass of the engine's PresidentError, so a caller that already shows engine faults
    (an illegal transcript, a deal after the game ended) shows these the same way. ``field``:
    the field of what was sent it is about, by the API's name (``scoring_limit``), or None.
    """

    def answer(self) -> dict:
        """The API's body for it (400): ``{field: [message]}``, or ``{"detail": message}``
        when it names no field."""
        return {self.field: [self.message]} if self.field else {"detail": self.message}


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
