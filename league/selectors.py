"""Reads: querysets and aggregates for pages, the admin and the benchmark."""

from dataclasses import dataclass

from django.db.models import Count, F, FloatField, Max, Q, Sum
from django.db.models.functions import Cast

from gameplay.engine.errors import RuleViolation
from gameplay.engine.roles import Role, exchange_pairs, rank_shift
from gameplay.engine.scoring import PENALTY
from league.errors import LeagueError
from league.models import Deal, Game, Place, Player, Rating, RatingHistory, RatingJob, Seat
from league.rules import options_of, rating_scope

ROLE_COUNTS = ("presidents", "vice_presidents", "citizens", "vice_scums", "scums")


# How season_standings ranks its rows, in order (docs/league.md); the API shows this list.
TIE_BREAKS = [
    "more wins",
    "points: fewer under penalty scoring, more otherwise",
    "lower mean finishing position",
    "more deals as President",
    "name",
]


def season_standings(*, season):
    """One row per player who played a deal in the season, best first, in one query,
    ranked by TIE_BREAKS."""
    points_order = F("points").asc() if season.scoring_system == PENALTY else F("points").desc()
    return list(
        Seat.objects.filter(game__season=season, deals__gt=0)
        .values("player_id", name=F("player__name"))
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(is_winner=True)),
            points=Sum("points"),
            deals_played=Sum("deals"),
            mean_position=Cast(Sum("position_sum"), FloatField())
            / Cast(Sum("deals"), FloatField()),
            **{name: Sum(name) for name in ROLE_COUNTS},
        )
        .order_by(F("wins").desc(), points_order, F("mean_position").asc(),
                  F("presidents").desc(), "name")
    )


def ratings_updating(*, season=None) -> bool:
    """Whether a season's (or the all-time) ratings are still being recomputed."""
    return RatingJob.objects.filter(scope=rating_scope(season), dirty_from__isnull=False).exists()


def season_ratings(*, season=None):
    """Current ratings, highest ordinal first; all-time when ``season`` is None."""
    return (Rating.objects.filter(season=season).select_related("player")
            .order_by("-ordinal", "player__name"))


def rating_history(*, player, season=None):
    """(deal id, mu, sigma, ordinal) after each of a player's deals, for a chart."""
    return list(RatingHistory.objects.filter(player=player, season=season)
                .order_by("deal_id").values_list("deal_id", "mu", "sigma", "ordinal"))


@dataclass
class NextDeal:
    number: int
    seats: list  # Seat rows at the table for the next deal, by seat number
    ranking: list  # (Player, Role) best first, carried from the last deal; [] before deal 1
    exchanges: list  # (giver Player, receiver Player, cards) in the order they happen
    exchange_in_preset: bool


def game_next_ranking(*, game) -> list[tuple[int, Role]]:
    """The ranking (player id, Role) carried into the next deal: the last deal's finishing
    order shifted by the players who left or joined since (engine's ``rank_shift``)."""
    last = game.deal_set.order_by("-number").first()
    if last is None:
        return []
    order = list(last.places.order_by("position").values_list("player_id", flat=True))
    changes = list(game.seat_changes.filter(before_deal=last.number + 1)
                   .values_list("kind", "player_id"))
    try:
        return rank_shift(order, leaving=[p for k, p in changes if k == "leave"],
                          joining=[p for k, p in changes if k == "join"])
    except RuleViolation as e:
        raise LeagueError(e.message) from e


def game_next_deal(*, game) -> NextDeal:
    number = (game.deal_set.aggregate(n=Max("number"))["n"] or 0) + 1
    seats = [s for s in game.seats.select_related("player").order_by("number")
             if s.plays_in(number)]
    ranking = game_next_ranking(game=game)
    players = {s.player_id: s.player for s in seats}
    return NextDeal(
        number=number, seats=seats,
        ranking=[(players[p], role) for p, role in ranking],
        exchanges=[(players[g], players[r], n) for g, r, n in exchange_pairs(ranking)],
        exchange_in_preset=options_of(game.season).exchange != "none",
    )


def game_deals(*, game):
    """The game's deals with their places, in two queries."""
    return game.deal_set.prefetch_related(
        _places_prefetch()).order_by("number")


def _places_prefetch():
    from django.db.models import Prefetch

    return Prefetch("places", queryset=Place.objects.select_related("player").order_by("position"))


def game_scoreboard(*, game):
    """The game's seats with their totals, winners first then by seat."""
    return list(game.seats.select_related("player").order_by("number"))


def club_players(*, club):
    return Player.objects.filter(clubs=club).order_by("name")


def season_games(*, season):
    return Game.objects.filter(season=season).annotate(deal_count=Count("deal_set")) \
        .order_by("number")


def deal_count(*, season) -> int:
    return Deal.objects.filter(game__season=season).count()

