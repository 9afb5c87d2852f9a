"""Reads about tournaments: progress, ratings for pairing, standings."""

from collections import defaultdict
from dataclasses import asdict, dataclass

from django.db.models import Count, Max, Min

from gameplay.models import Tournament, TournamentGame
from league.models import Place
from league.selectors import season_standings


@dataclass
class Progress:
    status: str
    done: int
    total: int
    games_per_second: float | None
    eta_seconds: float | None

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0

    def to_dict(self) -> dict:
        return {**asdict(self), "fraction": self.fraction}


def tournament_progress(*, tournament: Tournament) -> Progress:
    """Games stored out of the total, the rate between the first and last stored games and
    the time the rest would take at that rate; all from the database, one query."""
    status = Tournament.objects.filter(pk=tournament.pk).values_list("status", flat=True).get()
    row = TournamentGame.objects.filter(tournament_id=tournament.pk).aggregate(
        done=Count("id"), first=Min("stored_at"), last=Max("stored_at"))
    done = row["done"]
    rate = eta = None
    if done >= 2:
        seconds = (row["last"] - row["first"]).total_seconds()
        if seconds > 0:
            rate = (done - 1) / seconds
            eta = (tournament.total_games - done) / rate
    return Progress(status=status, done=done, total=tournament.total_games,
                    games_per_second=rate, eta_seconds=eta)


def tournament_ratings(*, tournament: Tournament) -> dict[int, float]:
    """OpenSkill ordinal of each entrant (by index) over the tournament's deals so far, in
    game-key order: the same stored games give the same ratings, whatever order workers
    stored them in (the league's own ratings follow storage order)."""
    from league.ratings import ordinal, replay

    entrants = list(tournament.entrants.order_by("id").values_list("player_id", flat=True))
    index = {p: i for i, p in enumerate(entrants)}
    orders = defaultdict(list)
    for key in (Place.objects.filter(deal__game__tournament_game__tournament=tournament)
                .order_by("deal__game__tournament_game__round",
                          "deal__game__tournament_game__table",
                          "deal__game__tournament_game__number", "deal__number", "position")
                .values_list("deal__game__tournament_game__round",
                             "deal__game__tournament_game__table",
                             "deal__game__tournament_game__number", "deal__number",
                             "player_id")):
        orders[key[:4]].append(index[key[4]])
    _, state = replay([(k, order) for k, order in orders.items()], {})
    return {i: ordinal(*state[i][:2]) if i in state else 0.0 for i in range(len(entrants))}


def tournament_standings(*, tournament: Tournament) -> list[dict]:
    """The league standings of the tournament's season."""
    return season_standings(season=tournament.season)


def tournament_results(*, tournament: Tournament) -> dict[tuple[int, int, int, int], list]:
    """Each stored deal's finishing order (player names) by (round, table, game, deal)."""
    results = defaultdict(list)
    for r, t, n, d, name in (
            Place.objects.filter(deal__game__tournament_game__tournament=tournament)
            .order_by("deal__game__tournament_game__round", "deal__game__tournament_game__table",
                      "deal__game__tournament_game__number", "deal__number", "position")
            .values_list("deal__game__tournament_game__round",
                         "deal__game__tournament_game__table",
                         "deal__game__tournament_game__number", "deal__number",
                         "player__name")):
        results[(r, t, n, d)].append(name)
    return dict(results)
