"""The league's one exception type for a user's mistake (STYLE.md "Errors")."""

from gameplay.engine.errors import PresidentError


class LeagueError(PresidentError):
    """A refused league operation; ``message`` is meant for the organiser, shown as it is.

    A subclass of the engine's PresidentError, so a caller that already shows engine faults
    (an illegal transcript, a deal after the game ended) shows these the same way.
    """
