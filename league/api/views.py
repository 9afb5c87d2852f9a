"""API views: reads through querysets and league.selectors, writes through league.services.

Views hold no league rule: they check who may write (league/api/permissions.py), shape the
input (serializers.py) and hand over to a service, whose LeagueError answers 400 as it is.
"""

from django.db import transaction
from django.db.models import Prefetch
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils.urls import replace_query_param

from league import nights, rounds, selectors, services
from league.api import filters, idempotency
from league.api import serializers as s
from league.api.permissions import StaffOpensClubs
from league.api.schema import (
    CONFLICT,
    ERRORS,
    IDEMPOTENCY_KEY,
    KEY_REUSED,
    NOT_FOUND,
    STILL_PLAYING,
    creates,
    updates,
    valid,
)
from league.api.table_links import OrganiserOrTableLink, TableLinkAuthentication, link_of
from league.models import Club, Deal, Game, Place, Player, Season, Seat, default_scoring
from league.rules import options_of
from plumbing.api.errors import ErrorSerializer
from plumbing.api.inputs import KnownQueryParameters, id_param

# A player's rating history is answered this many points at a time: a regular of ten seasons
# has 18,000, 1.7 MB in one answer.
RATING_HISTORY_PAGE = 1000

_places = Prefetch("places", queryset=Place.objects.select_related("player")
                   .order_by("position"))


@extend_schema_view(
    create=creates(s.ClubWriteSerializer, s.ClubSerializer,
                    "Open a club (league.services.club_create); a staff user may, and becomes "
                    "its organiser."),
    partial_update=updates(s.ClubWriteSerializer, s.ClubSerializer,
                            "Rename a club (league.services.club_update); its organisers may."),
)
class ClubViewSet(KnownQueryParameters, viewsets.ReadOnlyModelViewSet):
    idempotent_actions = ("create",)
    queryset = Club.objects.prefetch_related("organisers").order_by("name")
    serializer_class = s.ClubSerializer
    filterset_class = filters.ClubFilter
    ordering_fields = ["name", "created_at"]
    permission_classes = [StaffOpensClubs]

    def _answer(self, club, status_code=status.HTTP_200_OK):
        return Response(s.ClubSerializer(self.get_queryset().get(pk=club.pk)).data,
                        status=status_code)

    def create(self, request, *args, **kwargs):
        data = valid(s.ClubWriteSerializer, request)
        return idempotency.idempotent(request, lambda: self._answer(
            services.club_create(name=data["name"], organisers=[request.user],
                                 by=request.user), status.HTTP_201_CREATED))

    def partial_update(self, request, *args, **kwargs):
        club = self.get_object()
        data = valid(s.ClubWriteSerializer, request, partial=True)
        if "name" in data:
            club = services.club_update(club=club, name=data["name"], by=request.user)
        return self._answer(club)


@extend_schema_view(
    create=creates(s.PlayerCreateSerializer, s.PlayerSerializer,
                    "A new player in a club you organise (league.services.player_create)."),
    partial_update=updates(s.PlayerUpdateSerializer, s.PlayerSerializer,
                            "Rename a player or correct their kind "
                            "(league.services.player_update); only an organiser of every "
                            "club they play in may."),
)
class PlayerViewSet(KnownQueryParameters, viewsets.ReadOnlyModelViewSet):
    idempotent_actions = ("create",)
    queryset = Player.objects.prefetch_related("clubs").order_by("name")
    serializer_class = s.PlayerSerializer
    filterset_class = filters.PlayerFilter
    ordering_fields = ["name"]

    def _answer(self, player, status_code=status.HTTP_200_OK):
        return Response(s.PlayerSerializer(self.get_queryset().get(pk=player.pk)).data,
                        status=status_code)

    def create(self, request, *args, **kwargs):
        data = valid(s.PlayerCreateSerializer, request)
        self.check_object_permissions(request, data["club"])
        return idempotency.idempotent(request, lambda: self._answer(
            services.player_create(name=data["name"], kind=data["kind"], clubs=[data["club"]],
                                   by=request.user), status.HTTP_201_CREATED))

    def partial_update(self, request, *args, **kwargs):
        player = self.get_object()
        data = valid(s.PlayerUpdateSerializer, request, partial=True)
        return self._answer(services.player_update(player=player, by=request.user, **data))

    @extend_schema(request=s.PlayerJoinClubSerializer,
                   responses={200: s.PlayerSerializer, **ERRORS, **NOT_FOUND})
    @action(detail=True, methods=["post"], url_path="join-club", filter_backends=[],
            pagination_class=None)
    def join_club(self, request, pk=None):
        """An existing player plays in a club you organise too: a player of no club, or of
        a club you also organise (league.selectors.may_bring_into_club)."""
        player = generics.get_object_or_404(self.get_queryset(), pk=pk)  # 404 for "x" too
        data = valid(s.PlayerJoinClubSerializer, request)
        self.check_object_permissions(request, data["club"])
        services.player_join_club(player=player, club=data["club"], by=request.user)
        return self._answer(player)

    @extend_schema(
        parameters=[OpenApiParameter("season", OpenApiTypes.INT, description=(
            "a season's id; all-time ratings without it")),
            OpenApiParameter("after", OpenApiTypes.INT, description=(
                "a deal's id: the points after that deal (`next` gives it)"))],
        responses={200: s.RatingHistorySerializer, **ERRORS, **NOT_FOUND})
    @action(detail=True, methods=["get"], url_path="rating-history", filter_backends=[],
            pagination_class=None, query_parameters=["season", "after"])
    def rating_history(self, request, pk=None):
        """The player's rating after each of their deals, in a season or all-time, in deal
        order, RATING_HISTORY_PAGE points at a time; ``next`` asks for those after."""
        player = self.get_object()
        season_id = id_param(request, "season")
        season = None if season_id is None else Season.objects.filter(pk=season_id).first()
        if season_id is not None and season is None:
            raise NotFound(f"there is no season {season_id}")  # not the view's player
        points = selectors.rating_history(player=player, season=season,
                                          after=id_param(request, "after"),
                                          limit=RATING_HISTORY_PAGE + 1)
        more = len(points) > RATING_HISTORY_PAGE
        points = points[:RATING_HISTORY_PAGE]
        return Response(s.RatingHistorySerializer({
            "player": player.pk, "season": season and season.pk,
            "updating": selectors.ratings_updating(season=season),
            "points": [{"deal": d, "mu": mu, "sigma": sigma, "ordinal": o}
                       for d, mu, sigma, o in points],
            "next": replace_query_param(request.build_absolute_uri(), "after", points[-1][0])
            if more else None,
        }).data)


@extend_schema_view(
    create=creates(s.SeasonCreateSerializer, s.SeasonSerializer,
                    "A new season of a club you organise (league.services.season_create)."),
    partial_update=updates(s.SeasonUpdateSerializer, s.SeasonSerializer,
                            "Change a season (league.services.season_update); its rules and "
                            "scoring are fixed once a deal is recorded."),
)
class SeasonViewSet(KnownQueryParameters, viewsets.ReadOnlyModelViewSet):
    idempotent_actions = ("create", "night_confirm")
    queryset = Season.objects.order_by("club__name", "-starts_on", "id")
    serializer_class = s.SeasonSerializer
    filterset_class = filters.SeasonFilter
    ordering_fields = ["starts_on", "name"]

    @extend_schema(responses={200: s.StandingsSerializer, **NOT_FOUND})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def standings(self, request, pk=None):
        """The season's standings, best first, ranked by ``tie_breaks`` in order."""
        season = self.get_object()

        def document(rows):
            return s.StandingsSerializer({
                "season": season.pk, "scoring_system": season.scoring["system"],
                "tie_breaks": selectors.tie_break_words(), "rows": rows}).data

        renderer, media_type = request.accepted_renderer, request.accepted_media_type
        if renderer.format != "json":  # the browsable API's page differs per user
            return Response(document(selectors.season_standings(season=season)))
        # JSON is the same for everyone: rendered once per results version (and indent, which
        # the media type may ask for), as the renderer would render it for this request. Not
        # once per media type as sent: any parameter makes another, and each was a copy.
        context = self.get_renderer_context()
        indent = renderer.get_indent(media_type, context)
        body = selectors.season_standings_rendered(
            season=season, variant=f"{season.scoring['system']}:indent={indent}",
            render=lambda rows: renderer.render(document(rows), media_type, context))
        return HttpResponse(body, content_type=renderer.media_type)

    @extend_schema(responses={200: s.RatingSerializer(many=True), **NOT_FOUND})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def ratings(self, request, pk=None):
        """The season's current ratings, highest ordinal first."""
        season = self.get_object()
        return Response(s.RatingSerializer(selectors.season_ratings(season=season),
                                           many=True).data)

    @extend_schema(request=s.NightPlanRequestSerializer,
                   responses={200: s.NightPlanSerializer, **ERRORS, **NOT_FOUND},
                   description="Plan a club night (league.nights.night_plan): the players "
                               "present split into tables the preset allows, round by round, "
                               "so that few pairs meet again this season; seats in order with "
                               "each table's first dealer. Nothing is written. Organisers of "
                               "the season's club.")
    @action(detail=True, methods=["post"], url_path="night-plan", filter_backends=[],
            pagination_class=None)
    def night_plan(self, request, pk=None):
        season = self.get_object()
        data = valid(s.NightPlanRequestSerializer, request)
        plan = nights.night_plan(season=season, **data)
        return Response(s.NightPlanSerializer({
            "season": season.pk, "smallest": plan.sizes.smallest,
            "largest": plan.sizes.largest,
            "rounds": [{"number": r.number, "tables": [{
                "seats": [{"seat": i, "player": p.pk, "player_name": p.name}
                          for i, p in enumerate(t.seats)],
                "dealer": t.seats.index(t.dealer)} for t in r.tables]} for r in plan.rounds],
            "score": {"repeats": plan.score.repeats, "back_to_back": plan.score.back_to_back,
                      "seat_spread": plan.score.seat_spread,
                      "dealer_spread": plan.score.dealer_spread, "cost": plan.score.cost},
        }).data)

    @extend_schema(request=s.NightConfirmSerializer, parameters=[IDEMPOTENCY_KEY],
                   responses={201: s.NightConfirmedSerializer, **ERRORS, **NOT_FOUND,
                              **KEY_REUSED},
                   description="Confirm one round of a night (league.nights.night_confirm): "
                               "one game per table, players in seat order and the first "
                               "dealer's seat, all or none. Organisers of the season's club.")
    @action(detail=True, methods=["post"], url_path="night-confirm", filter_backends=[],
            pagination_class=None)
    def night_confirm(self, request, pk=None):
        season = self.get_object()
        data = valid(s.NightConfirmSerializer, request)

        def confirm():
            games = nights.night_confirm(
                season=season, by=request.user,
                tables=[(t["players"], t["dealer"]) for t in data["tables"]],
                round_number=data.get("round"), while_in_play=data["while_in_play"])
            return Response(s.NightConfirmedSerializer({"games": [
                {"id": g.pk, "number": g.number, "dealer": g.dealer,
                 "players": list(g.seats.order_by("number").values_list("player_id", flat=True)),
                 "table_link": g.table_links.values_list("pk", flat=True).first()}
                for g in games]}).data, status=status.HTTP_201_CREATED)

        return idempotency.idempotent(request, confirm)

    @extend_schema(request=s.RoundCancelSerializer,
                   responses={200: s.GameSerializer(many=True), **ERRORS, **CONFLICT,
                              **NOT_FOUND},
                   description="Cancel round `round` of tonight's club night, all its games "
                               "or none (league.nights.round_cancel): refused (409) if one "
                               "has a deal. Organisers of the season's club.")
    @action(detail=True, methods=["post"], url_path="night-cancel-round", filter_backends=[],
            pagination_class=None)
    def night_cancel_round(self, request, pk=None):
        season = self.get_object()
        number = valid(s.RoundCancelSerializer, request)["round"]
        games = nights.round_cancel(season=season, night=rounds.night_of(), number=number,
                                    by=request.user)
        return Response(s.GameSerializer(games, many=True).data)

    @extend_schema(request=None, responses={200: s.NightEndSerializer(many=True), **ERRORS,
                                            **NOT_FOUND},
                   description="The end of tonight's club night (league.nights.night_end): "
                               "time called on every open table, each game decided by its "
                               "scoring system's rule for an unfinished game; a table with no "
                               "deal is cancelled. Answers each table's winners. Organisers "
                               "of the season's club.")
    @action(detail=True, methods=["post"], url_path="night-end", filter_backends=[],
            pagination_class=None)
    def night_end(self, request, pk=None):
        season = self.get_object()
        ended = nights.night_end(season=season, night=rounds.night_of(), by=request.user)
        return Response(s.NightEndSerializer([
            {"round": t.round, "table": t.table, "game": t.game.pk, "number": t.game.number,
             "cancelled": t.cancelled, "winners": t.winners} for t in ended], many=True).data)

    def create(self, request, *args, **kwargs):
        data = s.scoring_sent(valid(s.SeasonCreateSerializer, request), default_scoring())
        club = data.pop("club")
        self.check_object_permissions(request, club)

        @transaction.atomic
        def create():
            naming_in(club)
            return Response(s.SeasonSerializer(
                services.season_create(club=club, by=request.user, **data)).data,
                status=status.HTTP_201_CREATED)

        return idempotency.idempotent(request, create)

    def partial_update(self, request, *args, **kwargs):
        season = self.get_object()
        data = valid(s.SeasonUpdateSerializer, request, partial=True)
        if "scoring" in data:
            data = s.scoring_sent(data, season.scoring)
        return Response(s.SeasonSerializer(
            services.season_update(season=season, by=request.user, **data)).data)


def naming_in(club: Club) -> None:
    """Lock ``club`` before a write that checks a name free in it, a season's or a
    tournament's (compared in any case, which the database's unique names do not): of two named
    alike at once, the second checks once the first is written."""
    Club.objects.select_for_update(no_key=True).get(pk=club.pk)


SEAT_CHANGE_DOC = ("Players leave or join before the next deal: `leaving` and `joining` are "
                   "player ids. Answers the roles the next exchange uses, shifted as the "
                   "engine's rank_shift does (RULES.md, last section).")


@extend_schema_view(
    create=creates(s.GameCreateSerializer, s.GameDetailSerializer,
                    "A new game of a season of a club you organise "
                    "(league.services.game_create): the players in seat order, the dealer's "
                    "seat.", refusals=STILL_PLAYING),
)
class GameViewSet(KnownQueryParameters, viewsets.ReadOnlyModelViewSet):
    idempotent_actions = ("create", "seat_changes")
    queryset = Game.objects.select_related("season").order_by("season_id", "number")
    filterset_class = filters.GameFilter
    ordering_fields = ["number", "created_at"]

    def get_queryset(self):
        qs = super().get_queryset()
        if self.action in ("retrieve", "create", "time_called", "reopen"):
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

    def create(self, request, *args, **kwargs):
        data = valid(s.GameCreateSerializer, request)
        self.check_object_permissions(request, data["season"])

        @transaction.atomic
        def create_game():
            services.free_checked(data["season"], data["players"])
            game = services.game_create(season=data["season"], players=data["players"],
                                        dealer=data["dealer"], by=request.user)
            return Response(s.GameDetailSerializer(self.get_queryset().get(pk=game.pk)).data,
                            status=status.HTTP_201_CREATED)

        return idempotency.idempotent(request, create_game)

    def _seat_change_answer(self, game, ranking):
        players = Player.objects.in_bulk([p for p, _ in ranking])
        last = game.deal_set.order_by("-number").values_list("number", flat=True).first()
        exchange_in_preset = options_of(game.season).has_exchange
        exchanges = (selectors.exchanges_of(ranking, players.values()) if exchange_in_preset
                     else [])
        return Response(s.SeatChangeResultSerializer({
            "game": game.pk, "before_deal": (last or 0) + 1,
            "ranking": [{"player": p, "player_name": players[p].name, "role": role.value}
                        for p, role in ranking],
            "exchange_in_preset": exchange_in_preset,
            "exchanges": [{"giver": g.pk, "giver_name": g.name, "receiver": r.pk,
                           "receiver_name": r.name, "cards": n} for g, r, n in exchanges],
        }).data)

    @extend_schema(request=s.SeatChangeSerializer, description=SEAT_CHANGE_DOC + (
        " Nothing changes: this is what `seat-changes` would do."),
        responses={200: s.SeatChangeResultSerializer, **ERRORS, **NOT_FOUND})
    @action(detail=True, methods=["post"], url_path="seat-change-preview", filter_backends=[],
            pagination_class=None)
    def seat_change_preview(self, request, pk=None):
        game = self.get_object()
        data = valid(s.SeatChangeSerializer, request)
        return self._seat_change_answer(game, services.seat_change_preview(game=game, **data))

    @extend_schema(request=s.SeatChangeSerializer, parameters=[IDEMPOTENCY_KEY],
                   description=SEAT_CHANGE_DOC,
                   responses={200: s.SeatChangeResultSerializer, **ERRORS, **NOT_FOUND,
                              **KEY_REUSED})
    @action(detail=True, methods=["post"], url_path="seat-changes", filter_backends=[],
            pagination_class=None)
    def seat_changes(self, request, pk=None):
        game = self.get_object()
        data = valid(s.SeatChangeSerializer, request)

        @transaction.atomic
        def change():
            return self._seat_change_answer(
                game, services.seat_change_apply(game=game, by=request.user, **data))

        return idempotency.idempotent(request, change)

    @extend_schema(request=None, responses={200: s.GameDetailSerializer, **ERRORS, **NOT_FOUND,
                                            **CONFLICT},
                   description="Time called at the end of the night: the open game ends with its "
                               "scoring system's rule for an unfinished game (docs/league.md "
                               "\"Time called\"); answers the finished game with its winners "
                               "(`is_winner`) and final totals. Organisers of the game's club.")
    @action(detail=True, methods=["post"], url_path="time-called", filter_backends=[],
            pagination_class=None)
    def time_called(self, request, pk=None):
        game = self.get_object()
        services.game_time_called(game=game, by=request.user)
        return Response(s.GameDetailSerializer(self.get_queryset().get(pk=game.pk)).data)

    @extend_schema(request=None, responses={200: s.GameDetailSerializer, **ERRORS, **NOT_FOUND,
                                            **CONFLICT},
                   description="Reopen a game that has ended (league.services.game_reopen) so "
                               "that its deals can be undone or corrected: time called is taken "
                               "back and the game goes on; a game its deals decided can be "
                               "corrected until it ends again. Answers the game with its "
                               "winners now. Organisers of the game's club.")
    @action(detail=True, methods=["post"], url_path="reopen", filter_backends=[],
            pagination_class=None)
    def reopen(self, request, pk=None):
        game = self.get_object()
        services.game_reopen(game=game, by=request.user)
        return Response(s.GameDetailSerializer(self.get_queryset().get(pk=game.pk)).data)

    @extend_schema(request=None, responses={200: s.GameSerializer, **ERRORS, **CONFLICT,
                                            **NOT_FOUND},
                   description="Cancel a game confirmed by mistake, before any deal "
                               "(league.services.game_cancel): it is left out of the pages, "
                               "standings and seating history; a game with deals or that has "
                               "ended answers 409. Organisers of the game's club.")
    @action(detail=True, methods=["post"], url_path="cancel", filter_backends=[],
            pagination_class=None)
    def cancel(self, request, pk=None):
        game = services.game_cancel(game=self.get_object(), by=request.user)
        return Response(s.GameSerializer(game).data)

@extend_schema_view(
    create=extend_schema(
        request=s.DealRecordSerializer, parameters=[IDEMPOTENCY_KEY],
        responses={201: s.DealSerializer, **ERRORS, **CONFLICT,
                   422: OpenApiResponse(ErrorSerializer,
                                        description="Idempotency-Key reused for another request")},
        description="Record deal `number` of a game, its next one (league.services.deal_record); "
                    "the game is rescored and its ratings recomputed. A number already "
                    "recorded answers 409 and records nothing. Organisers of the game's club, "
                    "or the game's table link (`Authorization: TableLink <token>`), whose "
                    "deal says it came from that link."),
    update=extend_schema(
        request=s.DealWriteSerializer,
        responses={200: s.DealSerializer, **ERRORS, **NOT_FOUND, **CONFLICT},
        description="Correct a recorded deal (league.services.deal_edit); the game is "
                    "rescored. Refused (409) in a game that has ended until it is reopened."),
    destroy=extend_schema(
        responses={204: None, **ERRORS, **NOT_FOUND, **CONFLICT},
        description="Delete a deal (league.services.deal_delete); later deals move up one "
                    "number and the game is rescored. Refused (409) in a game that has ended "
                    "until it is reopened."),
)
class DealViewSet(KnownQueryParameters, mixins.CreateModelMixin, mixins.UpdateModelMixin,
                  mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet):
    idempotent_actions = ("create",)
    queryset = (Deal.objects.select_related("game__season__club", "recorded_by")
                .prefetch_related(_places).order_by("game_id", "number"))
    serializer_class = s.DealSerializer
    filterset_class = filters.DealFilter
    ordering_fields = ["number", "recorded_at"]
    http_method_names = ["get", "post", "put", "delete", "head", "options"]
    authentication_classes = [TableLinkAuthentication, *api_settings.DEFAULT_AUTHENTICATION_CLASSES]
    permission_classes = [OrganiserOrTableLink]

    def create(self, request, *args, **kwargs):
        form = s.DealRecordSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        game = form.validated_data["game"]
        self.check_object_permissions(request, game)

        link = link_of(request)
        by = {"by": None, "table_link": link} if link else {"by": request.user}

        def record():
            deal = services.deal_record(
                game=game, finishing_order=form.validated_data.get("finishing_order"),
                transcript=form.validated_data.get("transcript"),
                number=form.validated_data["number"], source=Deal.API, **by)
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
