"""The API's JSON shapes. Writes are validated here for shape only; the league's rules are the
services' (a refused operation comes back as a LeagueError, league/api/errors.py)."""

from rest_framework import serializers

from gameplay.engine.scoring import parameters, systems
from league.models import ROLE_CHOICES, Club, Deal, Game, Place, Player, Rating, Season, Seat
from plumbing.api import inputs
from plumbing.api.inputs import IdField, KnownFields


class ClubSerializer(serializers.ModelSerializer):
    organisers = serializers.SlugRelatedField(many=True, read_only=True, slug_field="username")

    class Meta:
        model = Club
        fields = ["id", "name", "organisers", "created_at"]


class PlayerSerializer(serializers.ModelSerializer):
    clubs = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = Player
        fields = ["id", "name", "kind", "clubs"]


# A season's ``scoring`` object shown and taken flat, as the API always has: its system as
# ``scoring_system`` and each parameter any registered system takes as ``scoring_<name>``
# (gameplay.engine.scoring). Written, they come back as one ``scoring`` of what was sent.
# (Comments, not a docstring: the schema would show a docstring on every season serializer.)
class ScoringFieldsMixin:
    def get_fields(self):
        fields = {}
        for name, field in super().get_fields().items():
            if name != "scoring":
                fields[name] = field
                continue
            fields["scoring_system"] = serializers.ChoiceField(
                [(system.name, system.name) for system in systems()], source="scoring.system",
                required=False)
            for parameter in parameters():
                fields[f"scoring_{parameter}"] = inputs.WholeNumberField(
                    source=f"scoring.{parameter}", min_value=0, max_value=SMALL_MAX,
                    allow_null=True, required=False)
        return fields


def scoring_sent(data: dict, base: dict) -> dict:
    """``data`` with its ``scoring`` fields over ``base`` (the season's, or the default):
    what a write asks for, a parameter sent as null left out."""
    scoring = {**base, **data.get("scoring", {})}
    return {**data, "scoring": {k: v for k, v in scoring.items() if v is not None}}


# The shapes read back (writes have their own serializers below) show their relations as
# read-only ids: the browsable API's form would offer a writable one as a list of every club,
# season or game of the site, a query or two each (5 s for /api/v1/deals/ on 3,000 games).
class SeasonSerializer(ScoringFieldsMixin, serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "club", "name", "preset", "options", "scoring", "starts_on", "ends_on"]
        read_only_fields = ["club"]


class PlaceSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Place
        fields = ["position", "seat", "player", "player_name", "role"]


class DealSerializer(serializers.ModelSerializer):
    places = PlaceSerializer(many=True, read_only=True)
    recorded_by = serializers.SlugRelatedField(read_only=True, allow_null=True,
                                               slug_field="username")

    class Meta:
        model = Deal
        fields = ["id", "game", "number", "dealer", "places", "transcript", "recorded_by",
                  "recorded_at", "source", "table_link"]
        read_only_fields = ["game", "table_link"]


class SeatSerializer(serializers.ModelSerializer):
    """A seat and its player's totals in the game."""

    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Seat
        fields = ["number", "player", "player_name", "joined_before", "left_before", "points",
                  "deals", "position_sum", "presidents", "vice_presidents", "citizens",
                  "vice_scums", "scums", "is_winner"]


class GameSerializer(serializers.ModelSerializer):
    club = serializers.IntegerField(source="season.club_id", read_only=True)

    class Meta:
        model = Game
        fields = ["id", "season", "club", "number", "dealer", "status", "time_called_at",
                  "reopened_at", "created_at"]
        read_only_fields = ["season", "time_called_at", "reopened_at"]


class GameDetailSerializer(GameSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    deals = DealSerializer(source="deal_set", many=True, read_only=True)

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "seats", "deals"]


class TranscriptField(inputs.JSONField):
    """A one-deal transcript (TRANSCRIPT.md), a JSON object; the service has the engine's
    checker judge it, once (a fault answers 400 naming its deal and move, league/api/errors.py)."""

    def to_internal_value(self, data):
        data = super().to_internal_value(data)
        if not isinstance(data, dict):
            raise serializers.ValidationError("a transcript is a JSON object (TRANSCRIPT.md)")
        return data


class DealWriteSerializer(KnownFields, serializers.Serializer):
    """A deal's result: its finishing order (player ids, first out first), or its transcript;
    which of them, and whether the order lists each seated player once, is the service's to
    judge (league.services.deal_record)."""

    finishing_order = serializers.ListField(
        child=inputs.WholeNumberField(min_value=1, max_value=2**63 - 1), required=False,
        allow_null=True, max_length=64, help_text="player ids, first out first")
    transcript = TranscriptField(required=False, allow_null=True,
                                 help_text="a one-deal transcript (TRANSCRIPT.md)")


class DealRecordSerializer(DealWriteSerializer):
    game = IdField(queryset=Game.objects.select_related(
        "season__club"), help_text="the game the deal is recorded in")
    number = inputs.WholeNumberField(
        min_value=1, max_value=1_000_000,
        help_text="the deal this result is for: the game's next deal number. A number "
                  "already recorded (the same deal entered on another phone) is refused with "
                  "409, saying when, from where and by whom it was recorded and its finishing "
                  "order; nothing changes")


class StandingRowSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    points = serializers.IntegerField()
    deals_played = serializers.IntegerField()
    mean_position = serializers.FloatField()
    presidents = serializers.IntegerField()
    vice_presidents = serializers.IntegerField()
    citizens = serializers.IntegerField()
    vice_scums = serializers.IntegerField()
    scums = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    scoring_system = serializers.CharField()
    tie_breaks = serializers.ListField(child=serializers.CharField(),
                                       help_text="the order rows are ranked in")
    rows = StandingRowSerializer(many=True)


class RatingSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Rating
        fields = ["player", "player_name", "season", "mu", "sigma", "ordinal", "deals"]


class RatingPointSerializer(serializers.Serializer):
    deal = serializers.IntegerField(help_text="deal id")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class RatingHistorySerializer(serializers.Serializer):
    player = serializers.IntegerField()
    season = serializers.IntegerField(allow_null=True, help_text="null: all-time")
    updating = serializers.BooleanField(help_text="ratings are being recomputed")
    points = RatingPointSerializer(many=True)
    next = serializers.URLField(allow_null=True, help_text="the points after these; null: "
                                                           "these are the last")


# Writes of clubs, players, seasons, games and seat changes: shapes
# only; the services refuse what the league does not allow (a LeagueError, 400 as it is).

SMALL_MAX = 32767  # a scoring parameter's largest value here (the engine's is smaller)
SEASON_NAME_MAX = Season._meta.get_field("name").max_length
TABLE_MAX = 200  # more players than any table's pack of cards (3 decks and jokers) can deal to


class PlayerListField(serializers.ListField):
    """Player ids, resolved in one query; order and repeats kept for the service to judge."""

    child = inputs.WholeNumberField(min_value=1, max_value=2**63 - 1)

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", TABLE_MAX)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        ids = super().to_internal_value(data)
        found = Player.objects.in_bulk(ids)
        unknown = [i for i in dict.fromkeys(ids) if i not in found]
        if unknown:
            raise serializers.ValidationError(
                f"no player with id {', '.join(map(str, unknown))}")
        return [found[i] for i in ids]


class ClubWriteSerializer(KnownFields, serializers.Serializer):
    name = serializers.CharField(max_length=100)


class PlayerCreateSerializer(KnownFields, serializers.Serializer):
    name = serializers.CharField(max_length=100)
    kind = serializers.ChoiceField(Player.KIND_CHOICES, default=Player.PERSON)
    club = IdField(
        queryset=Club.objects.all(), help_text="a club you organise; the player plays in it")


class PlayerUpdateSerializer(KnownFields, serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False)
    kind = serializers.ChoiceField(Player.KIND_CHOICES, required=False)


class PlayerJoinClubSerializer(KnownFields, serializers.Serializer):
    club = IdField(
        queryset=Club.objects.all(), help_text="a club you organise")


class SeasonUpdateSerializer(KnownFields, ScoringFieldsMixin, inputs.ModelSerializer):
    class Meta:
        model = Season
        fields = ["name", "preset", "options", "scoring", "starts_on", "ends_on"]
        validators = []  # a clashing name is the service's refusal, with its message


class SeasonCreateSerializer(SeasonUpdateSerializer):
    class Meta(SeasonUpdateSerializer.Meta):
        fields = ["club", *SeasonUpdateSerializer.Meta.fields]


class GameCreateSerializer(KnownFields, serializers.Serializer):
    season = IdField(queryset=Season.objects.select_related("club"))
    players = PlayerListField(help_text="player ids in seat order, seat 0 first")
    dealer = inputs.WholeNumberField(min_value=0, max_value=TABLE_MAX, default=0,
                                      help_text="seat number of the first deal's dealer")


class SeatChangeSerializer(KnownFields, serializers.Serializer):
    leaving = PlayerListField(default=list, help_text="ids of players who leave the table")
    joining = PlayerListField(default=list, help_text="ids of club players who sit down")


class RankSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    role = serializers.ChoiceField(ROLE_CHOICES)


class ExchangeSerializer(serializers.Serializer):
    giver = serializers.IntegerField()
    giver_name = serializers.CharField()
    receiver = serializers.IntegerField()
    receiver_name = serializers.CharField()
    cards = serializers.IntegerField()


class SeatChangeResultSerializer(serializers.Serializer):
    """The roles the next deal's exchange uses once the players left or joined."""

    game = serializers.IntegerField()
    before_deal = serializers.IntegerField(help_text="the number of the next deal")
    ranking = RankSerializer(many=True, help_text="best first (the engine's rank_shift)")
    exchange_in_preset = serializers.BooleanField()
    exchanges = ExchangeSerializer(many=True, help_text="in the order they happen; none when "
                                                        "the preset has no exchange")


# A club night (league.nights): plan the seating, then confirm a round's tables as games.
NIGHT_PEOPLE_MAX = 100
NIGHT_ROUNDS_MAX = 10


class NightPlanRequestSerializer(KnownFields, serializers.Serializer):
    present = PlayerListField(allow_empty=False, max_length=NIGHT_PEOPLE_MAX,
                              help_text="ids of the club's players present, each once")
    rounds = inputs.WholeNumberField(min_value=1, max_value=NIGHT_ROUNDS_MAX, default=1)
    preferred = serializers.ListField(
        child=inputs.WholeNumberField(min_value=1, max_value=SMALL_MAX), min_length=2,
        max_length=2, required=False,
        help_text="[low, high] players per table preferred, within what the preset allows")
    seed = inputs.WholeNumberField(min_value=0, max_value=2**31 - 1, default=0,
                                    help_text="another seed gives another plan as good")


class NightSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="seat number, 0 first")
    player = serializers.IntegerField()
    player_name = serializers.CharField()


class NightTableSerializer(serializers.Serializer):
    seats = NightSeatSerializer(many=True)
    dealer = serializers.IntegerField(help_text="seat number of the first dealer")


class NightRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="the round's index in the season, 0 first")
    tables = NightTableSerializer(many=True)


class NightScoreSerializer(serializers.Serializer):
    repeats = serializers.IntegerField(help_text="meetings of pairs who met before")
    back_to_back = serializers.IntegerField(help_text="meetings of pairs who met the round "
                                                      "before")
    seat_spread = serializers.IntegerField()
    dealer_spread = serializers.IntegerField()
    cost = serializers.IntegerField(help_text="the planner's weighted cost, lower is better")


class NightPlanSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    smallest = serializers.IntegerField(help_text="fewest players per table the preset allows")
    largest = serializers.IntegerField(help_text="most players per table the preset allows")
    rounds = NightRoundSerializer(many=True)
    score = NightScoreSerializer()


class NightTableWriteSerializer(KnownFields, serializers.Serializer):
    players = PlayerListField(allow_empty=False, help_text="player ids in seat order")
    dealer = inputs.WholeNumberField(min_value=0, max_value=TABLE_MAX, default=0,
                                      help_text="seat number of the first dealer")


class NightConfirmSerializer(KnownFields, serializers.Serializer):
    tables = NightTableWriteSerializer(many=True, allow_empty=False,
                                       max_length=NIGHT_PEOPLE_MAX)
    round = inputs.WholeNumberField(
        required=False, min_value=1, max_value=10_000,
        help_text="the round of tonight this is: refused (409) once that round exists")
    while_in_play = serializers.BooleanField(
        default=False, help_text="start it although the round before is still in play "
                                 "(otherwise 409 naming its tables still playing)")


class RoundCancelSerializer(KnownFields, serializers.Serializer):
    round = inputs.WholeNumberField(min_value=1, max_value=10_000,
                                     help_text="the round of tonight to cancel")


class NightEndSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField(help_text="the table's number in its round")
    game = serializers.IntegerField(help_text="the game's id")
    number = serializers.IntegerField(help_text="the game's number in its season")
    cancelled = serializers.BooleanField(help_text="no deal was played: cancelled")
    winners = serializers.ListField(child=serializers.CharField())


class NightGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    players = serializers.ListField(child=serializers.IntegerField(),
                                    help_text="player ids in seat order")
    dealer = serializers.IntegerField()
    table_link = serializers.IntegerField(help_text="the game's table link (its token: GET "
                                                    "/api/v1/table-links/{id}/)")


class NightConfirmedSerializer(serializers.Serializer):
    games = NightGameSerializer(many=True)
