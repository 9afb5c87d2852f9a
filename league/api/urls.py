"""The API's routes, mounted at /api/v1/ by config/urls.py."""

from rest_framework.routers import DefaultRouter

from accounts.api import BotViewSet
from ladder.api import LadderGameViewSet, LadderViewSet
from league.api import views

router = DefaultRouter()
router.register("clubs", views.ClubViewSet)
router.register("players", views.PlayerViewSet)
router.register("seasons", views.SeasonViewSet)
router.register("games", views.GameViewSet)
router.register("deals", views.DealViewSet)
router.register("tournaments", views.TournamentViewSet)
router.register("outside-bots", views.OutsideBotViewSet)
router.register("bots", BotViewSet, basename="bot")
router.register("ladder", LadderViewSet, basename="ladder-entry")
router.register("ladder-games", LadderGameViewSet, basename="ladder-game")

app_name = "api"
urlpatterns = router.urls
