"""The tournaments' API: bot tournaments (/api/v1/tournaments/)."""

from django.db import transaction
from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from league.api import idempotency
from league.api.schema import ERRORS, NOT_FOUND, creates, valid
from league.api.serializers import SEASON_NAME_MAX, SMALL_MAX, TABLE_MAX
from league.api.views import naming_in
from plumbing.api import inputs
from plumbing.api.inputs import KnownFields, KnownQueryParameters
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Entrant, Tournament

TOURNAMENT_SEASON_PREFIX = "Tournament: "  # tournament_create names its season so
SEED_WORDS = f"A seed is a whole number from {-2**63:,} to {2**63 - 1:,}."


class FaultCountsSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    timeout = serializers.IntegerField()
    error = serializers.IntegerField()
    malformed = serializers.IntegerField()
    oversized = serializers.IntegerField()
    illegal = serializers.IntegerField()


class EntrantSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)
    faults = serializers.SerializerMethodField(
        help_text="answers its seat could not use in the tournament's games, by kind")

    class Meta:
        model = Entrant
        fields = ["player", "player_name", "bot", "faults"]
        read_only_fields = fields

    @extend_schema_field(FaultCountsSerializer)
    def get_faults(self, entrant) -> dict:
        return tournament_selectors.fault_counts(entrant)


class TournamentSerializer(serializers.ModelSerializer):
    entrants = EntrantSerializer(many=True, read_only=True)

    class Meta:
        model = Tournament
        fields = ["id", "club", "name", "season", "preset", "options", "scoring", "format",
                  "seats", "games_per_table", "rounds", "duplicate", "seed", "starts_at",
                  "status", "total_games", "created_at", "finished_at", "entrants"]
        read_only_fields = fields


class ProgressSerializer(serializers.Serializer):
    status = serializers.CharField()
    done = serializers.IntegerField()
    total = serializers.IntegerField()
    fraction = serializers.FloatField()
    games_per_second = serializers.FloatField(allow_null=True)
    eta_seconds = serializers.FloatField(allow_null=True)
    stalled = serializers.BooleanField(
        help_text="running, but no game stored nor worker heard from for a while: no ETA")
    unplayed = serializers.IntegerField(
        help_text="games the site could not play (an error in its own code, or a hosted entrant "
                  "on a worker without the sandbox; not a bot's fault)")
    unplayed_reason = serializers.CharField(help_text="the latest unplayed game's reason")


class EntrantWriteSerializer(KnownFields, serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="a bot player of the club (a new "
                                                           "name becomes one)")
    bot = serializers.CharField(max_length=300, help_text=(
        'a built-in bot ("heuristic", "montecarlo:budget_ms=50", …) or "outside:NAME", an '
        "outside bot an administrator registered"))


def _bounds(least: int, most: int, below: str, above: str) -> dict:
    """A whole number field's bounds and their refusals (``{max_value}`` in ``above`` is
    ``most``)."""
    return {"min_value": least, "max_value": most,
            "error_messages": {"min_value": below, "max_value": above}}


class TournamentCreateSerializer(KnownFields, inputs.ModelSerializer):
    entrants = EntrantWriteSerializer(many=True, allow_empty=False, max_length=TABLE_MAX)

    class Meta:
        model = Tournament
        fields = ["club", "name", "preset", "options", "scoring", "format", "seats",
                  "games_per_table", "rounds", "duplicate", "seed", "batch_size", "starts_at",
                  "entrants"]
        validators = []  # a clashing name is the service's refusal, with its message
        # The columns' bounds on every database, and bounds that keep the number of games
        # within what the database counts.
        # Their refusals in the site's words: the new tournament page shows them as they are.
        extra_kwargs = {
            "name": {"max_length": SEASON_NAME_MAX - len(TOURNAMENT_SEASON_PREFIX),
                     "help_text": f"its season is called \"{TOURNAMENT_SEASON_PREFIX}NAME\"",
                     "error_messages": {
                         "required": "A tournament needs a name.",
                         "null": "A tournament needs a name.",
                         "blank": "A tournament needs a name.",
                         "max_length": "A tournament's name is at most {max_length} "
                                       "characters (its season is called "
                                       f"\"{TOURNAMENT_SEASON_PREFIX}NAME\")."}},
            "seats": _bounds(0, SMALL_MAX, "Tables of at least 2 bots.",
                             "Tables of at most {max_value:,} bots."),
            "games_per_table": _bounds(0, 10_000, "At least 1 game per table.",
                                       "At most {max_value:,} games per table."),
            "rounds": _bounds(0, 1_000, "At least 1 round.", "At most {max_value:,} rounds."),
            "batch_size": _bounds(0, 10_000, "At least 1 game per task.",
                                  "At most {max_value:,} games per task."),
            "seed": _bounds(-2**63, 2**63 - 1, SEED_WORDS, SEED_WORDS)}

    def validate_scoring(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError(
                'scoring is an object, e.g. {"system": "penalty", "limit": 4}')
        return value


def _tournament_action(name, operation, doc):
    def act(self, request, pk=None):
        tournament = operation(tournament=self.get_object(), by=request.user)
        tournament.refresh_from_db()  # as it is now: with no broker its games ran at commit
        return Response(TournamentSerializer(tournament).data)

    act.__name__ = name
    return extend_schema(request=None, responses={200: TournamentSerializer, **ERRORS,
                                                  **NOT_FOUND}, description=doc)(
        action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)(act))


@extend_schema_view(
    create=creates(TournamentCreateSerializer, TournamentSerializer,
                    "A bot tournament in a club you organise, with its own season "
                    "(tournaments.services.tournament_create); start it with `start`."),
)
class TournamentViewSet(KnownQueryParameters, viewsets.ReadOnlyModelViewSet):
    """Bot tournaments; a club's organisers create, start, cancel and resume them."""

    idempotent_actions = ("create",)
    queryset = Tournament.objects.prefetch_related(
        Prefetch("entrants", queryset=tournament_selectors.with_fault_counts(
            Entrant.objects.select_related("player").order_by("id")))
    ).order_by("-created_at", "id")
    serializer_class = TournamentSerializer
    filterset_fields = ["club", "status"]

    start = _tournament_action("start", tournament_services.tournament_start,
                               "Pair the first round and enqueue its games.")
    cancel = _tournament_action("cancel", tournament_services.tournament_cancel,
                                "Stop scheduling; queued batches stop before their next game.")
    resume = _tournament_action("resume", tournament_services.tournament_resume,
                                "Go on with a cancelled or stalled tournament.")

    def create(self, request, *args, **kwargs):
        data = dict(valid(TournamentCreateSerializer, request))
        self.check_object_permissions(request, data["club"])
        data["entrants"] = [(e["name"], e["bot"]) for e in data["entrants"]]

        @transaction.atomic
        def create():
            naming_in(data["club"])
            return Response(TournamentSerializer(self.get_queryset().get(
                pk=tournament_services.tournament_create(by=request.user, **data).pk)).data,
                status=status.HTTP_201_CREATED)

        return idempotency.idempotent(request, create)

    @extend_schema(responses={200: ProgressSerializer, **NOT_FOUND})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def progress(self, request, pk=None):
        """Games stored out of the total, the rate and the time the rest would take."""
        progress = tournament_selectors.tournament_progress(tournament=self.get_object())
        return Response(ProgressSerializer(progress.to_dict()).data)
