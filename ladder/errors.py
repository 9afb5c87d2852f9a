"""The ladder's exception type for a user's mistake (STYLE.md "Errors")."""

from league.errors import LeagueError


class LadderError(LeagueError):
    """A refused ladder operation; ``message`` is meant for the bot's author, shown as is."""
