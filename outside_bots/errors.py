"""The outside bots' exception types for a user's mistake (STYLE.md "Errors"), and the one
place a bot removed meanwhile becomes a 404."""

from contextlib import contextmanager

from django.http import Http404
from django.utils.timezone import localtime

from league.errors import Conflict, LeagueError


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


class SecretReplaced(Conflict, OutsideBotError):
    """A replacement of the bot's secret asked for from a page (or an API answer) that showed
    an older secret: another tab or request replaced it since (at ``at``, None if unknown).
    Nothing was changed, so the secret that replacement showed stays the one in use; 409 on
    the pages and in the API. ``message`` is the page's words, ``said_to_the_api`` the API's."""

    def __init__(self, bot_name: str, at):
        self.bot_name, self.at = bot_name, at
        when = self._when("since that page was loaded")
        super().__init__(f"the secret of {bot_name} was replaced{when}, in another tab or by "
                         "the API; this click changed nothing — the secret shown there is the "
                         "one in use; replace it again here to get a new one")

    def _when(self, unknown: str) -> str:
        return f" at {localtime(self.at):%H:%M %Z}" if self.at else f" {unknown}"

    def said_to_the_api(self) -> str:
        when = self._when("since the secret_tag sent was read")
        return (f"the secret of {self.bot_name} was replaced{when}, in another tab or by the "
                "API; nothing was changed — the secret that replacement answered is the one "
                "in use; send the bot's secret_tag as it is now (GET the bot) to replace it "
                "again")
