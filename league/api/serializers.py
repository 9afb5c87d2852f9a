"""The API's JSON shapes. Writes are validated here for shape only; the league's rules are the
services' (a refused operation comes back as a LeagueError, league/api/errors.py)."""

from rest_framework import serializers

from gameplay.engine.checker import check
from league.api.errors import TranscriptFault
from league.models import Club, Deal, Game, Place, Player, Rating, Season, Seat


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


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "club", "name", "preset", "options", "scoring_system", "scoring_limit",
                  "scoring_target", "scoring_deals", "starts_on", "ends_on"]


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
                  "recorded_at"]


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
        fields = ["id", "season", "club", "number", "dealer", "status", "created_at"]


class GameDetailSerializer(GameSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    deals = DealSerializer(source="deal_set", many=True, read_only=True)

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "seats", "deals"]


class TranscriptField(serializers.JSONField):
    """A one-deal transcript (TRANSCRIPT.md), checked by the engine's checker on the way in."""

    def to_internal_value(self, data):
        data = super().to_internal_value(data)
        if not isinstance(data, dict):
            raise serializers.ValidationError("a transcript is a JSON object (TRANSCRIPT.md)")
        _, verdict = check(data)
        if not verdict["valid"]:
            raise TranscriptFault(verdict)
        return data


class DealWriteSerializer(serializers.Serializer):
    """A deal's result: its finishing order (player ids, first out first), or its transcript."""

    finishing_order = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, allow_null=True,
        max_length=64, help_text="player ids, first out first")
    transcript = TranscriptField(required=False, allow_null=True,
                                 help_text="a one-deal transcript (TRANSCRIPT.md)")

    def validate(self, attrs):
        if attrs.get("finishing_order") is None and attrs.get("transcript") is None:
            raise serializers.ValidationError(
                {"finishing_order": "give a finishing order or a transcript"})
        return attrs


class DealRecordSerializer(DealWriteSerializer):
    game = serializers.PrimaryKeyRelatedField(queryset=Game.objects.select_related(
        "season__club"), help_text="the game the deal is recorded in")


class TranscriptFaultDetailSerializer(serializers.Serializer):
    deal = serializers.IntegerField(allow_null=True)
    move = serializers.IntegerField(allow_null=True)
    error = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    """``{"detail": message}``, or field names each with what is wrong with them."""

    detail = serializers.CharField(required=False)
    transcript = TranscriptFaultDetailSerializer(required=False)


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


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        from gameplay.models import Tournament

        model = Tournament
        fields = ["id", "club", "name", "season", "preset", "options", "scoring", "format",
                  "seats", "games_per_table", "rounds", "duplicate", "seed", "starts_at",
                  "status", "total_games", "created_at", "finished_at"]
        read_only_fields = fields


class ProgressSerializer(serializers.Serializer):
    status = serializers.CharField()
    done = serializers.IntegerField()
    total = serializers.IntegerField()
    fraction = serializers.FloatField()
    games_per_second = serializers.FloatField(allow_null=True)
    eta_seconds = serializers.FloatField(allow_null=True)
