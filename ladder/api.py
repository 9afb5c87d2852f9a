"""The ladder's API (docs/api.md "The ladder"), registered in league/api/urls.py:

- ``/api/v1/ladder/?preset=classic``: the preset's ladder table, best first;
- ``/api/v1/ladder/{id}/``: one bot on one ladder: rating, history points, recent games,
  faults by kind and the latest faults, its validation game;
- ``POST /api/v1/ladder/{id}/pause/``: its author takes an active bot off the ladder;
- ``POST /api/v1/ladder/{id}/resume/``: its author asks a paused bot back (a validation game)
  once its wait is over;
- ``POST /api/v1/ladder/{id}/new-version/``: its author starts the bot's next version;
- ``/api/v1/ladder-games/`` (``?entry=``, ``?kind=``) and ``/api/v1/ladder-games/{id}/`` with
  the transcript; ``POST /api/v1/ladder-games/`` starts a challenge game.

Everyone reads; only a bot's author pauses, resumes or challenges with it. Views are thin: the
selectors read, ``ladder.services`` writes, a LadderError answers 400.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response

from bot_games.models import BotFault
from ladder import selectors, services
from ladder.models import Entry, Game, RatingPoint, Seat, Version
from league.errors import Conflict
from league.models import PRESET_CHOICES
from plumbing.api.errors import ErrorSerializer
from plumbing.api.inputs import KnownFields, KnownQueryParameters, WholeNumberField, id_param
from plumbing.api.pagination import Pages

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="the field that is wrong, or the "
                                                      "ladder's refusal as `detail`"),
    401: OpenApiResponse(ErrorSerializer, description="not signed in"),
    403: OpenApiResponse(ErrorSerializer, description="not the bot's author"),
    404: OpenApiResponse(ErrorSerializer, description="no such bot or game"),
    409: OpenApiResponse(ErrorSerializer, description="your bot was removed: its record stays "
                                                      "on the ladder, and a bot you register "
                                                      "under its name continues it"),
}
PRESET = OpenApiParameter("preset", OpenApiTypes.STR, enum=[p for p, _ in PRESET_CHOICES],
                          description="the ladder's preset; classic by default")
ORDER = OpenApiParameter("order", OpenApiTypes.STR, enum=list(selectors.ORDERS), description=(
    "rating (default): the ladder's ranking, ordinal = mu - 3 sigma; adjusted: luck-adjusted "
    "points per deal (par, issue #31), bots without par last"))


class ReadsForEveryone(BasePermission):
    """Everyone reads; writes take a signed-in user (the view checks that it is the author)."""

    message = "sign in to change the ladder"

    def has_permission(self, request, view):
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated and request.user.is_active)


def _check_author(user, entry: Entry) -> None:
    removed = services.removed_bot_refusal(entry, user)
    if removed:
        raise Conflict(removed)
    bot = entry.outside_bot
    if entry.reference or bot is None or bot.owner_id != user.pk:
        raise PermissionDenied(f"only the author of {entry.name} may do this")


# Serializers


class ParSerializer(serializers.Serializer):
    """A bot's points per deal with par (issue #31): raw and luck-adjusted, 95% intervals."""

    deals = serializers.IntegerField(help_text="its deals with par; 0: no par")
    mean_points = serializers.FloatField(allow_null=True)
    mean_points_ci = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    adjusted_mean = serializers.FloatField(allow_null=True, help_text="points less luck")
    adjusted_ci = serializers.ListField(child=serializers.FloatField(), allow_null=True)


class LadderEntrySerializer(serializers.ModelSerializer):
    """A row of the ladder table: the entry's rating and aggregates of its rated games."""

    owner = serializers.SerializerMethodField(help_text="its author's username; empty for "
                                                        "built-in bots")
    interval = serializers.SerializerMethodField(help_text="mu's 95% interval")
    first_out_rate = serializers.SerializerMethodField(help_text="share of its rated deals "
                                                                 "it went out first")
    last_rate = serializers.SerializerMethodField(help_text="share of its rated deals it "
                                                            "went out last")
    mean_position = serializers.SerializerMethodField()
    fault_rate = serializers.SerializerMethodField(help_text="share of its rated games with "
                                                             "a fault")
    rated = serializers.SerializerMethodField(help_text="it played a rated game: false lists "
                                                        "it after the ranking")
    par = serializers.SerializerMethodField(help_text=(
        "its points per deal with par (issue #31, /help/par/): raw and luck-adjusted (points "
        "less the deal's luck), each with its 95% interval; par_deals 0 and nulls: no par"))

    class Meta:
        model = Entry
        fields = ["id", "preset", "name", "reference", "owner", "status", "reason", "mu",
                  "sigma", "ordinal", "interval", "rated", "rated_deals", "version", "games",
                  "deals", "firsts", "lasts", "positions",
                  "first_out_rate", "last_rate", "mean_position", "faults", "fault_kinds",
                  "faulted_games", "fault_rate", "decisions", "decision_median_ms",
                  "decision_p95_ms", "last_played_at", "created_at", "par"]
        read_only_fields = fields

    def get_owner(self, entry) -> str:
        return entry.author.get_username() if entry.author_id else ""

    @extend_schema_field(serializers.ListField(child=serializers.FloatField(),
                                               min_length=2, max_length=2))
    def get_interval(self, entry):
        return list(selectors.figures(entry)["interval"])

    def get_first_out_rate(self, entry) -> float | None:
        return selectors.figures(entry)["first_out_rate"]

    def get_last_rate(self, entry) -> float | None:
        return selectors.figures(entry)["last_rate"]

    def get_mean_position(self, entry) -> float | None:
        return selectors.figures(entry)["mean_position"]

    def get_fault_rate(self, entry) -> float | None:
        return selectors.figures(entry)["fault_rate"]

    def get_rated(self, entry) -> bool:
        return entry.rated_deals > 0

    @extend_schema_field(ParSerializer)
    def get_par(self, entry) -> dict:
        return selectors.figures(entry)["par"]


class LadderPointSerializer(serializers.ModelSerializer):
    class Meta:
        model = RatingPoint
        fields = ["game", "at", "mu", "sigma", "ordinal", "deals", "version"]


# A ladder seat's played figures (selectors.seats_played) come from its bot game's seat; each
# is described as it was when the seat had it as a column, so the schema stays the same.
INT64 = {"min_value": -2 ** 63, "max_value": 2 ** 63 - 1}
ID_MAX = 2 ** 63 - 1  # the largest id the databases store


class LadderSeatSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="entry.name", read_only=True)
    positions = serializers.JSONField(required=False, help_text="its finishing position in "
                                                                "each deal, 1 = first")
    score = serializers.IntegerField(source="points", required=False, allow_null=True, **INT64)
    decisions = serializers.IntegerField(required=False, **{**INT64, "min_value": 0})
    decision_ms = serializers.FloatField(required=False, help_text="its decisions' total time")
    faults = serializers.IntegerField(required=False, **{**INT64, "min_value": 0})

    class Meta:
        model = Seat
        fields = ["seat", "entry", "name", "version", "positions", "score", "decisions",
                  "decision_ms", "faults", "mu_after", "sigma_after"]


class LadderFaultSerializer(serializers.ModelSerializer):
    """A bot game's fault as the ladder shows it (selectors.faults): with its ladder game and
    the entry at its seat."""

    game = serializers.IntegerField(source="ladder_game.pk", read_only=True)
    entry = serializers.IntegerField(source="entry.pk", read_only=True)
    name = serializers.CharField(source="entry.name", read_only=True)

    class Meta:
        model = BotFault
        fields = ["id", "game", "entry", "name", "seat", "deal", "number", "decision", "kind",
                  "message", "answer"]


class LadderGameSerializer(serializers.ModelSerializer):
    seats = LadderSeatSerializer(many=True, read_only=True)

    class Meta:
        model = Game
        fields = ["id", "kind", "preset", "status", "reason", "deals", "created_at",
                  "stored_at", "seats"]


class LadderGameFaultsSerializer(LadderGameSerializer):
    """A game with its faults, without its transcript (a bot page's validation game)."""

    faults = serializers.SerializerMethodField()

    class Meta(LadderGameSerializer.Meta):
        fields = [*LadderGameSerializer.Meta.fields, "faults"]

    @extend_schema_field(LadderFaultSerializer(many=True))
    def get_faults(self, game):
        return LadderFaultSerializer(selectors.game_faults(game=game, seats=list(game.seats.all())),
                                     many=True).data


class LadderGameDetailSerializer(LadderGameFaultsSerializer):
    transcript = serializers.JSONField(source="bot_game.transcript", read_only=True,
                                       allow_null=True,
                                       help_text="the engine's transcript (checker-valid), "
                                                 "once stored")

    class Meta(LadderGameSerializer.Meta):
        fields = [*LadderGameSerializer.Meta.fields, "faults", "transcript"]


class LadderVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Version
        fields = ["number", "started_at", "reason"]  # not its URL: its author's to tell


class LadderEntryDetailSerializer(LadderEntrySerializer):
    history = serializers.SerializerMethodField(help_text="its latest rating points, oldest "
                                                          "first")
    recent_games = serializers.SerializerMethodField(help_text="its latest games, newest "
                                                               "first")
    recent_faults = serializers.SerializerMethodField(help_text="its latest faults, newest "
                                                                "first")
    validation_game = serializers.SerializerMethodField(help_text="its latest validation "
                                                                  "game, with its faults")
    versions = LadderVersionSerializer(many=True, read_only=True,
                                       help_text="its versions after the first (version 1 is "
                                                 "the bot as it joined)")

    class Meta(LadderEntrySerializer.Meta):
        fields = [*LadderEntrySerializer.Meta.fields, "history", "versions", "recent_games",
                  "recent_faults", "validation_game", "pauses", "resume_after",
                  "probation_decisions", "probation_faults"]
        read_only_fields = fields

    @extend_schema_field(LadderPointSerializer(many=True))
    def get_history(self, entry):
        return selectors.history_values(entry=entry)  # as LadderPointSerializer shows them

    @extend_schema_field(LadderGameSerializer(many=True))
    def get_recent_games(self, entry):
        return LadderGameSerializer(selectors.recent_games(entry=entry), many=True).data

    @extend_schema_field(LadderFaultSerializer(many=True))
    def get_recent_faults(self, entry):
        return LadderFaultSerializer(selectors.faults(entry=entry), many=True).data

    @extend_schema_field(LadderGameFaultsSerializer(allow_null=True))
    def get_validation_game(self, entry):
        game = selectors.validation_game(entry=entry)
        return None if game is None else LadderGameFaultsSerializer(game).data


class LadderChallengeSerializer(KnownFields, serializers.Serializer):
    entry = WholeNumberField(min_value=1, max_value=ID_MAX,
                                     help_text="your bot's ladder entry (its id)")
    opponents = serializers.ListField(child=WholeNumberField(min_value=1,
                                                                     max_value=ID_MAX),
                                      min_length=1,
                                      max_length=20,
                                      help_text="the opponents' ladder entries, same preset")


# Views


class LadderPagination(Pages):
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


@extend_schema_view(
    list=extend_schema(parameters=[
        PRESET, OpenApiParameter("owner", OpenApiTypes.STR, description="its author's username"),
        OpenApiParameter("status", OpenApiTypes.STR, enum=[s for s, _ in Entry.STATUS_CHOICES],
                         description="only bots in this status (retired ones too)"), ORDER],
        responses={200: LadderEntrySerializer(many=True), 400: ERRORS[400]},
        description="The preset's ladder table, best first (ordinal = mu - 3 sigma, or "
                    "`?order=`): active, paused and validating bots, or those of `?status=`."),
    retrieve=extend_schema(responses={200: LadderEntryDetailSerializer, 404: ERRORS[404]},
                           description="One bot on one ladder: rating, history, recent games "
                                       "and faults, its validation game."),
)
class LadderViewSet(KnownQueryParameters, viewsets.ReadOnlyModelViewSet):
    permission_classes = [ReadsForEveryone]
    query_parameters = ["preset", "owner", "status", "order"]
    pagination_class = LadderPagination
    filter_backends = []
    serializer_class = LadderEntrySerializer
    queryset = Entry.objects.none()

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        if self.action == "list":
            preset = self.request.query_params.get("preset", "classic")
            if preset not in dict(PRESET_CHOICES):
                raise ValidationError({"preset": f"unknown preset {preset!r}; presets are "
                                                 f"{', '.join(dict(PRESET_CHOICES))}"})
            status = self.request.query_params.get("status")
            if status is not None and status not in dict(Entry.STATUS_CHOICES):
                raise ValidationError({"status": [f"unknown status {status!r}; statuses are "
                                                  f"{', '.join(dict(Entry.STATUS_CHOICES))}"]})
            order = self.request.query_params.get("order", "rating")
            if order not in selectors.ORDERS:
                raise ValidationError({"order": f"unknown order {order[:40]!r}; orders are "
                                                f"{', '.join(selectors.ORDERS)}"})
            rows = selectors.ladder_rows(preset=preset, statuses=(status,) if status else
                                         selectors.SHOWN, order=order)
            owner = self.request.query_params.get("owner")
            return rows if owner is None else rows.filter(author__username=owner)
        return (Entry.objects.select_related("outside_bot", "author", "validation_game")
                .prefetch_related("versions"))

    def get_serializer_class(self):
        return LadderEntryDetailSerializer if self.action == "retrieve" else LadderEntrySerializer

    def list(self, request, *args, **kwargs):
        # Rows of plain values with their figures (selectors.ladder_rows), shaped as
        # LadderEntrySerializer documents them: no model or serializer field per row.
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([selectors.row_figures(row) for row in page])

    @extend_schema(request=None, responses={200: LadderEntrySerializer, **ERRORS},
                   description="Your paused bot asks to come back, once its wait is over "
                               "(resume_after): it plays a validation game again, and is active "
                               "once that game has no fault.")
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return self._by_author(pk, services.entry_resume)

    @extend_schema(request=None, responses={200: LadderEntrySerializer, **ERRORS},
                   description="Take your active or validating bot off the ladder: it gets no "
                               "new games; resume it after LADDER_RESUME_COOLDOWN_SECONDS.")
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        return self._by_author(pk, services.entry_pause)

    @extend_schema(request=None, responses={200: LadderEntrySerializer, **ERRORS},
                   description="Say your bot is a new version at the same URL (a new URL "
                               "starts one by itself): its mu goes on with sigma reset, its "
                               "figures start afresh, and it plays a validation game. A paused "
                               "bot does so once it may resume.")
    @action(detail=True, methods=["post"], url_path="new-version")
    def new_version(self, request, pk=None):
        return self._by_author(pk, services.entry_new_version)

    def _by_author(self, pk, change):
        entry = get_object_or_404(Entry.objects.select_related("outside_bot"), pk=pk)
        _check_author(self.request.user, entry)
        entry = change(entry=entry, by=self.request.user)
        return Response(LadderEntrySerializer(selectors.entry_get(entry.pk)).data)


@extend_schema_view(
    list=extend_schema(parameters=[
        OpenApiParameter("entry", OpenApiTypes.INT, description="games of this ladder entry"),
        OpenApiParameter("kind", OpenApiTypes.STR, enum=[k for k, _ in Game.KIND_CHOICES])],
        responses={200: LadderGameSerializer(many=True), 400: ERRORS[400]},
        description="Ladder games, newest first."),
    retrieve=extend_schema(responses={200: LadderGameDetailSerializer, 404: ERRORS[404]},
                           description="A ladder game: seats, results, faults (the request's "
                                       "decision and the start of the bot's answer) and the "
                                       "transcript for the replay."),
)
class LadderGameViewSet(KnownQueryParameters, mixins.ListModelMixin,
                        mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    permission_classes = [ReadsForEveryone]
    query_parameters = ["entry", "kind"]
    filter_backends = []
    serializer_class = LadderGameSerializer
    queryset = Game.objects.none()

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Game.objects.none()
        if self.action == "retrieve":
            return selectors.game_get_queryset()
        games = Game.objects.order_by("-id")
        params = self.request.query_params
        entry = id_param(self.request, "entry")
        if entry is not None:
            games = games.filter(seats__entry_id=entry)
        if "kind" in params:
            if params["kind"] not in dict(Game.KIND_CHOICES):
                raise ValidationError({"kind": "rated, validation or challenge"})
            games = games.filter(kind=params["kind"])
        return selectors.with_seats(games)

    def get_serializer_class(self):
        return LadderGameDetailSerializer if self.action == "retrieve" else LadderGameSerializer

    @extend_schema(request=LadderChallengeSerializer,
                   responses={201: LadderGameSerializer, **ERRORS},
                   description="Start an unrated challenge game of your bot against chosen "
                               "opponents on its ladder (LADDER_CHALLENGES_PER_DAY a day).")
    def create(self, request, *args, **kwargs):
        form = LadderChallengeSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        entry = Entry.objects.select_related("outside_bot").filter(pk=data["entry"]).first()
        if entry is None:
            raise ValidationError({"entry": f"no ladder entry {data['entry']}"})
        _check_author(request.user, entry)
        opponents = {e.pk: e for e in Entry.objects.filter(pk__in=data["opponents"])}
        missing = [pk for pk in data["opponents"] if pk not in opponents]
        if missing:
            raise ValidationError({"opponents": f"no ladder entry {missing[0]}"})
        game = services.challenge_create(by=request.user, entry=entry,
                                         opponents=[opponents[pk] for pk in data["opponents"]])
        game = selectors.game_get(game.pk)
        return Response(LadderGameSerializer(game).data, status=status.HTTP_201_CREATED)
