"""Reads for the web pages that the plain selectors do not give: a game's running totals, a
player's head-to-head, the preview of a finishing order, a season's export rows.

Each read runs a fixed number of queries, whatever the number of players and deals.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, F, OuterRef, Q, Subquery

from gameplay.engine.errors import RuleViolation
from gameplay.engine.roles import Role, exchange_pairs, roles_of
from gameplay.engine.scoring import ScoreSheet
from league import selectors
from league.models import Deal, Game, Place, Player, Seat
from league.rules import options_of, scoring_of

ROLE_NAMES = {role: role.value.replace("-", " ").capitalize() for role in Role}


@dataclass
class DealRow:
    deal: Deal
    places: list  # Place rows, first out first
    totals: list  # (Seat, running total or None when the seat has not played yet)
    ends_game: bool = False


@dataclass
class GameSheet:
    game: Game
    seats: list
    rows: list = field(default_factory=list)


def game_sheet(*, game) -> GameSheet:
    """Each deal with its places and the running totals after it, under the season's scoring
    (the engine's ScoreSheet, so the page adds up as the services do)."""
    seats = selectors.game_scoreboard(game=game)
    deals = list(selectors.game_deals(game=game))
    sheet = ScoreSheet(scoring_of(game.season))
    rows = []
    for deal in deals:
        places = list(deal.places.all())
        try:
            sheet.add([p.player_id for p in places])
        except RuleViolation:  # a deal after the end cannot be stored; show what is there
            pass
        rows.append(DealRow(
            deal=deal, places=places,
            totals=[(s, sheet.totals.get(s.player_id)) for s in seats],
            ends_game=sheet.finished and not any(r.ends_game for r in rows)))
    return GameSheet(game=game, seats=seats, rows=rows)


@dataclass
class OrderPreview:
    """What a finishing order would give: each player's role, and the exchange before the
    deal after it (RULES.md: the Scum gives, the President gives back…)."""

    places: list  # (position, Player, role name)
    exchanges: list  # (giver Player, receiver Player, cards)
    exchange_in_preset: bool


def order_preview(*, game, players: list[Player]) -> OrderPreview:
    roles = roles_of([p.pk for p in players])
    by_id = {p.pk: p for p in players}
    ranking = [(p.pk, roles[p.pk]) for p in players]
    return OrderPreview(
        places=[(i, p, ROLE_NAMES[roles[p.pk]]) for i, p in enumerate(players, start=1)],
        exchanges=[(by_id[g], by_id[r], n) for g, r, n in exchange_pairs(ranking)],
        exchange_in_preset=options_of(game.season).exchange != "none",
    )


def ranking_preview(*, ranking, players) -> list[tuple[Player, str]]:
    """(Player, role name) from a ranking of (player id, Role), for display."""
    by_id = {p.pk: p for p in players}
    return [(by_id[pid], ROLE_NAMES[role]) for pid, role in ranking]


def exchanges_of(ranking, players) -> list[tuple[Player, Player, int]]:
    by_id = {p.pk: p for p in players}
    return [(by_id[g], by_id[r], n) for g, r, n in exchange_pairs(ranking)]


# Players


def player_seats(*, player):
    """The player's games, newest first, with their season and club."""
    return list(Seat.objects.filter(player=player)
                .select_related("game__season__club").order_by("-game__created_at", "-pk"))


def player_positions(*, player) -> list[tuple[int, int]]:
    """(finishing position, how many deals) for the player."""
    return list(Place.objects.filter(player=player).values_list("position")
                .annotate(n=Count("id")).order_by("position"))


def player_head_to_head(*, player) -> list[dict]:
    """Against each other player met in a deal: deals together, and how often each finished
    ahead of the other; most met first."""
    mine = Place.objects.filter(deal=OuterRef("deal"), player=player).values("position")[:1]
    return list(
        Place.objects.filter(deal__places__player=player).exclude(player=player)
        .annotate(mine=Subquery(mine))
        .values("player_id", name=F("player__name"))
        .annotate(deals=Count("id"),
                  ahead=Count("id", filter=Q(mine__lt=F("position"))),
                  behind=Count("id", filter=Q(mine__gt=F("position"))))
        .order_by("-deals", "name"))


def rating_chart(*, player, season=None) -> dict:
    """The player's rating after each deal, as chart data (labels are deal counts)."""
    history = selectors.rating_history(player=player, season=season)
    return {"labels": list(range(1, len(history) + 1)),
            "ordinal": [round(o, 3) for _, _, _, o in history],
            "mu": [round(m, 3) for _, m, _, _ in history],
            "sigma": [round(s, 3) for _, _, s, _ in history]}


def season_rating_chart(*, season) -> dict:
    """Every rated player's rating after each of their deals in the season, one series each,
    indexed by the season's deal order; in one query."""
    from league.models import RatingHistory

    series = defaultdict(list)
    names = {}
    deal_index = {}
    for deal_id, player_id, name, ordinal in (
            RatingHistory.objects.filter(season=season).order_by("deal_id")
            .values_list("deal_id", "player_id", "player__name", "ordinal")):
        index = deal_index.setdefault(deal_id, len(deal_index) + 1)
        names[player_id] = name
        series[player_id].append({"x": index, "y": round(ordinal, 3)})
    return {"deals": len(deal_index),
            "series": [{"label": names[p], "data": series[p]}
                       for p in sorted(series, key=lambda p: names[p])]}


# Export


def season_results(*, season):
    """One row per place of every deal in the season, in game, deal and position order."""
    return (Place.objects.filter(deal__game__season=season)
            .order_by("deal__game__number", "deal__number", "position")
            .values_list("deal__game__number", "deal__number", "deal__dealer", "position",
                         "seat", "player__name", "role", "deal__recorded_at"))


def season_transcripts(*, season):
    """(game number, deal number, transcript) of every deal recorded with a transcript."""
    return (Deal.objects.filter(game__season=season, transcript__isnull=False)
            .order_by("game__number", "number")
            .values_list("game__number", "number", "transcript"))
