"""The API's routes, mounted at /api/v1/ by config/urls.py: each app's viewsets on one router."""

from rest_framework.routers import DefaultRouter

from accounts.api import BotViewSet
from gameplay.tournaments.web import api as tournaments
from ladder.api import LadderGameViewSet, LadderViewSet
from league.api import views as league

router = DefaultRouter()
router.register("clubs", league.ClubViewSet)
router.register("players", league.PlayerViewSet)
router.register("seasons", league.SeasonViewSet)
router.register("games", league.GameViewSet)
router.register("deals", league.DealViewSet)
router.register("tournaments", tournaments.TournamentViewSet)
router.register("outside-bots", tournaments.OutsideBotViewSet)
router.register("bots", BotViewSet, basename="bot")
router.register("ladder", LadderViewSet, basename="ladder-entry")
router.register("ladder-games", LadderGameViewSet, basename="ladder-game")

app_name = "api"
urlpatterns = router.urls
