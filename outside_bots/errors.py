"""The outside bots' exception type for a user's mistake (STYLE.md "Errors")."""

from league.errors import LeagueError


class OutsideBotError(LeagueError):
    """A refused registration or change of an outside bot; ``message`` is meant for its author
    or the administrator, shown as is."""


class OutsideBotGone(OutsideBotError):
    """The bot was removed meanwhile, by another tab or request, after the view found it: the
    API and the pages answer 404 with ``message``."""
