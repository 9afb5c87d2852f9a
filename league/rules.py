"""The bridge from league rows to the engine's rules: a season's options and scoring.

Scoring, roles and rank shifting are the engine's (``gameplay.engine``); this module only turns
a season's fields into the engine's values and its faults into LeagueError.
"""

from gameplay.engine.errors import PresidentError
from gameplay.engine.options import Options, preset
from gameplay.engine.rules.leading import next_dealer
from gameplay.engine.scoring import Scoring
from league.errors import LeagueError


def scoring_of(season) -> Scoring:
    try:
        return Scoring.from_dict(season.scoring)
    except PresidentError as e:
        # at the season's field: scoring_limit (the API's and the season form's name)
        raise LeagueError(f"season scoring: {e.message}",
                          field=f"scoring_{e.field}" if e.field else None) from e


def options_of(season) -> Options:
    if not isinstance(season.options, dict):
        raise LeagueError("season options must be an object of option names and values",
                          field="options")
    try:
        return preset(season.preset, **season.options)
    except PresidentError as e:
        # at the option it names (options.jokers), or at options (an unknown option)
        raise LeagueError(f"season options: {e.message}", options=e.options,
                          field=".".join(("options", *e.options[:1]))) from e


def rating_scope(season=None) -> str:
    """The RatingJob key of a season's ratings, or of the all-time ratings."""
    return "all-time" if season is None else f"season:{season.pk}"


def deal_dealer(game, seats, number: int, previous) -> int:
    """The seat number of deal ``number``'s dealer: the first deal's is the game's; after it
    the engine's rule (``next_dealer``) among the ``seats`` that play the deal. ``previous``
    is the deal before, with its places (prefetched: no query here), or None."""
    playing = sorted(s.number for s in seats if s.plays_in(number))
    if previous is None:
        return game.dealer if game.dealer in playing else playing[0]
    order = [p.seat for p in sorted(previous.places.all(), key=lambda p: p.position)]
    return next_dealer(options_of(game.season), playing, previous.dealer, order)
