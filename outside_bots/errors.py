"""The outside bots' exception types for a user's mistake (STYLE.md "Errors"), and the one
place a bot removed meanwhile becomes a 404."""

from contextlib import contextmanager

from django.http import Http404

from league.errors import LeagueError


class OutsideBotError(LeagueError):
    """A refused registration or change of an outside bot; ``message`` is meant for its author
    or the administrator, shown as is."""


class OutsideBotGone(OutsideBotError):
    """The bot was removed meanwhile, by another tab or request, after the view found it: the
    API and the pages answer 404 with ``message`` (not_found_if_gone)."""


@contextmanager
def not_found_if_gone():
    """A bot another request removed after the view found it: 404, in the service's words.
    Django's Http404, which DRF answers as its own 404, so the pages and the API share it."""
    try:
        yield
    except OutsideBotGone as e:
        raise Http404(e.message) from None

