"""The figures of bots' play, in one place: seeds from a game's key, the conservative rating
(ordinal), 95% intervals (Wilson for a rate, normal for a mean) and the per-deal figures of a
bot or a player, first-out rate and mean finishing position. Plain Python: the match runner,
the bench, tournaments, the ladder and the league's ratings all use these."""

import math
import random

# The normal distribution's two-sided 95% quantile.
Z95 = 1.959964


def seed_of(*parts) -> int:
    """A seed (of a game's deals, or of one bot) from its key: the same on every run."""
    return random.Random(":".join(map(str, parts))).getrandbits(63)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative display rating, mu - 3 sigma (OpenSkill's ``ordinal``)."""
    return mu - 3 * sigma


def rating_interval(mu: float, sigma: float) -> tuple[float, float]:
    """The 95% interval of a rating (mu, sigma)."""
    return (mu - Z95 * sigma, mu + Z95 * sigma)


def interval(successes: float, trials: int) -> tuple[float, float]:
    """Wilson 95% interval for a rate."""
    if not trials:
        return (0.0, 0.0)
    p = successes / trials
    d = 1 + Z95 ** 2 / trials
    centre = (p + Z95 ** 2 / (2 * trials)) / d
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95 ** 2 / (4 * trials ** 2)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(total: float, squares: float, n: int) -> tuple[float, float]:
    """Normal 95% interval of the mean of ``n`` values from their sum and sum of squares (the
    sample's variance); (0, 0) without values."""
    if not n:
        return (0.0, 0.0)
    mean = total / n
    variance = max(0.0, squares / n - mean * mean) * n / max(1, n - 1)
    half = Z95 * math.sqrt(variance / n)
    return (mean - half, mean + half)


def share(count: float, n: int) -> float | None:
    """``count`` per one of ``n`` (a rate per deal or per game); None of nothing."""
    return count / n if n else None


def deal_figures(deals: int, firsts: int, position_sum: int,
                 position_squares: int) -> dict:
    """A bot's or a player's figures per deal, from its deals, deals gone out first and the sum
    of its finishing positions (1 = first out) and of their squares: first-out rate and mean
    position, each with its 95% interval (None of no deal)."""
    if not deals:
        return {"first_out_rate": None, "first_out_ci": None, "mean_position": None,
                "mean_position_ci": None}
    return {"first_out_rate": firsts / deals, "first_out_ci": interval(firsts, deals),
            "mean_position": position_sum / deals,
            "mean_position_ci": mean_interval(position_sum, position_squares, deals)}


def par_figures(deals: int, points: float, points_squares: float, adjusted: float,
                adjusted_squares: float) -> dict:
    """A bot's points per deal, raw and luck-adjusted (issue #31, docs/par.md), each with its
    95% interval, from its deals with par and the sums of each deal's points and adjusted
    points and of their squares (None of no deal)."""
    if not deals:
        return {"deals": 0, "mean_points": None, "mean_points_ci": None,
                "adjusted_mean": None, "adjusted_ci": None}
    return {"deals": deals, "mean_points": points / deals,
            "mean_points_ci": list(mean_interval(points, points_squares, deals)),
            "adjusted_mean": adjusted / deals,
            "adjusted_ci": list(mean_interval(adjusted, adjusted_squares, deals))}


def summary_text(player: int, s: dict) -> str:
    """One lineup player's line of a match summary (``Tally.summary``), intervals in brackets."""
    wl, wh = s["win_rate_ci"]
    pl, ph = s["mean_position_ci"]
    fl, fh = s["first_out_ci"]
    roles = ", ".join(f"{k} {v}" for k, v in sorted(s["roles"].items()))
    return (f"{player} {s['bot']}: games {s['games']}, wins {s['wins']} "
            f"({s['win_rate']:.1%} [{wl:.1%}, {wh:.1%}]), mean position "
            f"{s['mean_position']:.2f} [{pl:.2f}, {ph:.2f}], first out "
            f"{s['first_out_rate']:.1%} [{fl:.1%}, {fh:.1%}], roles: {roles}; "
            f"{s['mean_decision_ms']:.2f} ms/decision, faults {s['faults']}")
