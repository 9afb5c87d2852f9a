"""API views: reads through querysets and league.selectors, writes through league.services.

Views hold no league rule: they check who may write (league/api/permissions.py), shape the
input (serializers.py) and hand over to a service, whose LeagueError answers 400 as it is.
"""

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from gameplay import selectors as tournament_selectors
from gameplay import services as tournament_services
from gameplay.models import Tournament
from league import selectors, services
from league.api import filters, idempotency
from league.api import serializers as s
from league.models import Club, Deal, Game, Place, Player, Season, Seat

ERRORS = {
    400: OpenApiResponse(s.ErrorSerializer, description="the field that is wrong, or "
                                                          "the league's refusal as `detail`"),
    401: OpenApiResponse(s.ErrorSerializer, description="not signed in"),
    403: OpenApiResponse(s.ErrorSerializer, description="not an organiser of this club"),
}
NOT_FOUND = {404: OpenApiResponse(s.ErrorSerializer, description="no such row")}
IDEMPOTENCY_KEY = OpenApiParameter(
    idempotency.HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="a retry with the same key gets the first answer again (docs/api.md)")

_places = Prefetch("places", queryset=Place.objects.select_related("player")
                   .order_by("position"))


class ClubViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Club.objects.prefetch_related("organisers").order_by("name")
    serializer_class = s.ClubSerializer
    filterset_class = filters.ClubFilter
    ordering_fields = ["name", "created_at"]


class PlayerViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Player.objects.prefetch_related("clubs").order_by("name")
    serializer_class = s.PlayerSerializer
    filterset_class = filters.PlayerFilter
    ordering_fields = ["name"]

    @extend_schema(
        parameters=[OpenApiParameter("season", OpenApiTypes.INT, description=(
            "a season's id; all-time ratings without it"))],
        responses={200: s.RatingHistorySerializer, **ERRORS, **NOT_FOUND})
    @action(detail=True, methods=["get"], url_path="rating-history", filter_backends=[],
            pagination_class=None)
    def rating_history(self, request, pk=None):
        """The player's rating after each of their deals, in a season or all-time."""
        player = self.get_object()
        season = None
        season_id = request.query_params.get("season")
        if season_id is not None:
            if not season_id.isdigit():
                return Response({"season": ["a season is given by its id, a whole number"]},
                                status=status.HTTP_400_BAD_REQUEST)
            season = get_object_or_404(Season, pk=int(season_id))
        points = selectors.rating_history(player=player, season=season)
        return Response(s.RatingHistorySerializer({
            "player": player.pk, "season": season and season.pk,
            "updating": selectors.ratings_updating(season=season),
            "points": [{"deal": d, "mu": mu, "sigma": sigma, "ordinal": o}
                       for d, mu, sigma, o in points],
        }).data)


class SeasonViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Season.objects.order_by("club__name", "-starts_on", "id")
    serializer_class = s.SeasonSerializer
    filterset_class = filters.SeasonFilter
    ordering_fields = ["starts_on", "name"]

    @extend_schema(responses={200: s.StandingsSerializer, **NOT_FOUND})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def standings(self, request, pk=None):
        """The season's standings, best first, ranked by ``tie_breaks`` in order."""
        season = self.get_object()
        return Response(s.StandingsSerializer({
            "season": season.pk, "scoring_system": season.scoring_system,
            "tie_breaks": selectors.TIE_BREAKS,
            "rows": selectors.season_standings(season=season),
        }).data)

    @extend_schema(responses={200: s.RatingSerializer(many=True), **NOT_FOUND})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def ratings(self, request, pk=None):
        """The season's current ratings, highest ordinal first."""
        season = self.get_object()
        return Response(s.RatingSerializer(selectors.season_ratings(season=season),
                                           many=True).data)


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Game.objects.select_related("season").order_by("season_id", "number")
    filterset_class = filters.GameFilter
    ordering_fields = ["number", "created_at"]

    def get_queryset(self):
        qs = super().get_queryset()
        if self.action == "retrieve":
            qs = qs.prefetch_related(
                Prefetch("seats", queryset=Seat.objects.select_related("player")
                         .order_by("number")),
                Prefetch("deal_set", queryset=Deal.objects.select_related("recorded_by")
                         .prefetch_related(_places).order_by("number")))
        return qs

    def get_serializer_class(self):
        return s.GameDetailSerializer if self.action == "retrieve" else s.GameSerializer

    @extend_schema(description="A game with its seats (each player's totals) and its deals.")
    def retrieve(self, request, *args, **kwargs):
        return super().retrieve(request, *args, **kwargs)

@extend_schema_view(
    create=extend_schema(
        request=s.DealRecordSerializer, parameters=[IDEMPOTENCY_KEY],
        responses={201: s.DealSerializer, **ERRORS,
                   422: OpenApiResponse(s.ErrorSerializer,
                                        description="Idempotency-Key reused for another request")},
        description="Record the next deal of a game (league.services.deal_record); the game is "
                    "rescored and its ratings recomputed."),
    update=extend_schema(
        request=s.DealWriteSerializer, responses={200: s.DealSerializer, **ERRORS, **NOT_FOUND},
        description="Correct a recorded deal (league.services.deal_edit); the game is "
                    "rescored."),
    destroy=extend_schema(
        responses={204: None, **ERRORS, **NOT_FOUND},
        description="Delete a deal (league.services.deal_delete); later deals move up one "
                    "number and the game is rescored."),
)
class DealViewSet(mixins.CreateModelMixin, mixins.UpdateModelMixin, mixins.DestroyModelMixin,
                  viewsets.ReadOnlyModelViewSet):
    queryset = (Deal.objects.select_related("game__season__club", "recorded_by")
                .prefetch_related(_places).order_by("game_id", "number"))
    serializer_class = s.DealSerializer
    filterset_class = filters.DealFilter
    ordering_fields = ["number", "recorded_at"]
    http_method_names = ["get", "post", "put", "delete", "head", "options"]

    def create(self, request, *args, **kwargs):
        form = s.DealRecordSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        game = form.validated_data["game"]
        self.check_object_permissions(request, game)

        def record():
            deal = services.deal_record(
                game=game, finishing_order=form.validated_data.get("finishing_order"),
                transcript=form.validated_data.get("transcript"), by=request.user)
            return Response(s.DealSerializer(self.get_queryset().get(pk=deal.pk)).data,
                            status=status.HTTP_201_CREATED)

        return idempotency.idempotent(request, record)

    def update(self, request, *args, **kwargs):
        deal = self.get_object()
        form = s.DealWriteSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        services.deal_edit(deal=deal, finishing_order=form.validated_data.get("finishing_order"),
                           transcript=form.validated_data.get("transcript"), by=request.user)
        return Response(s.DealSerializer(self.get_queryset().get(pk=deal.pk)).data)

    def destroy(self, request, *args, **kwargs):
        services.deal_delete(deal=self.get_object(), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)



def _tournament_action(name, operation, doc):
    def act(self, request, pk=None):
        tournament = operation(tournament=self.get_object(), by=request.user)
        return Response(s.TournamentSerializer(tournament).data)

    act.__name__ = name
    return extend_schema(request=None, responses={200: s.TournamentSerializer, **ERRORS,
                                                  **NOT_FOUND}, description=doc)(
        action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)(act))


class TournamentViewSet(viewsets.ReadOnlyModelViewSet):
    """Bot tournaments; a club's organisers start, cancel and resume them."""

    queryset = Tournament.objects.order_by("-created_at", "id")
    serializer_class = s.TournamentSerializer
    filterset_fields = ["club", "status"]

    start = _tournament_action("start", tournament_services.tournament_start,
                               "Pair the first round and enqueue its games.")
    cancel = _tournament_action("cancel", tournament_services.tournament_cancel,
                                "Stop scheduling; queued batches stop before their next game.")
    resume = _tournament_action("resume", tournament_services.tournament_resume,
                                "Go on with a cancelled or stalled tournament.")

    @extend_schema(responses={200: s.ProgressSerializer, **NOT_FOUND})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def progress(self, request, pk=None):
        """Games stored out of the total, the rate and the time the rest would take."""
        progress = tournament_selectors.tournament_progress(tournament=self.get_object())
        return Response(s.ProgressSerializer(progress.to_dict()).data)
