"""OpenSkill's Plackett–Luce model over deals' finishing orders, without the database.

Every deal is one match of single-player teams ranked by finishing position. Replaying the same
deals from the same starting state gives the same numbers, which is what makes recomputation
after an edit deterministic.
"""

from collections.abc import Iterable, Sequence

from openskill.models import PlackettLuce

from gameplay.runner.figures import ordinal

MODEL = PlackettLuce()


def replay(deals: Iterable[tuple[int, Sequence[int]]],
           state: dict[int, tuple[float, float, int]]):
    """Rate deals in order from ``state`` (player -> (mu, sigma, deals rated)).

    Returns the history rows (deal, player, mu, sigma, ordinal) and the final state.
    """
    state = dict(state)
    rows = []
    for deal_id, order in deals:
        teams = []
        for player in order:
            mu, sigma, _ = state.get(player, (MODEL.mu, MODEL.sigma, 0))
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        rated = MODEL.rate(teams, ranks=list(range(1, len(order) + 1)))
        for player, (rating,) in zip(order, rated, strict=True):
            state[player] = (rating.mu, rating.sigma, state.get(player, (0, 0, 0))[2] + 1)
            rows.append((deal_id, player, rating.mu, rating.sigma,
                         ordinal(rating.mu, rating.sigma)))
    return rows, state
