"""The API's routes, mounted at /api/v1/ by config/urls.py: each app's viewsets on one router."""

from rest_framework.routers import DefaultRouter

from accounts.api import BotViewSet, TokenViewSet
from ladder.api import LadderGameViewSet, LadderViewSet
from league.api import views as league
from league.api.table_links import TableLinkViewSet
from outside_bots import api as outside_bots
from tournaments.web import api as tournaments


class Router(DefaultRouter):
    """Every id in a path is a whole number (Django's ``int`` converter): anything else in its
    place is a route miss, a JSON 404 naming the path (config.not_found)."""

    def __init__(self):
        super().__init__(use_regex_path=False)

    def get_lookup_regex(self, viewset, lookup_prefix=""):
        name = getattr(viewset, "lookup_url_kwarg", None) or getattr(viewset, "lookup_field",
                                                                      "pk")
        return f"<int:{lookup_prefix}{name}>"


router = Router()
router.register("clubs", league.ClubViewSet)
router.register("players", league.PlayerViewSet)
router.register("seasons", league.SeasonViewSet)
router.register("games", league.GameViewSet)
router.register("deals", league.DealViewSet)
router.register("table-links", TableLinkViewSet)
router.register("tournaments", tournaments.TournamentViewSet)
router.register("outside-bots", outside_bots.OutsideBotViewSet)
router.register("bots", BotViewSet, basename="bot")
router.register("tokens", TokenViewSet, basename="token")
router.register("ladder", LadderViewSet, basename="ladder-entry")
router.register("ladder-games", LadderGameViewSet, basename="ladder-game")

app_name = "api"
urlpatterns = router.urls
