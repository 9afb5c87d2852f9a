"""The tournament's exception type for a user's mistake (STYLE.md "Errors")."""

from league.errors import LeagueError


class TournamentError(LeagueError):
    """A refused tournament operation; ``message`` is meant for the organiser, shown as is."""
