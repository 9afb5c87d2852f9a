"""A season's scoring in words, from its system (gameplay.engine.scoring):
``{{ season.scoring|scoring_words }}`` ("penalty, ends at 4 points") and
``{{ season.scoring|time_called_rule }}`` (who wins when time is called)."""

from django import template

from gameplay.engine.scoring import Scoring

register = template.Library()


@register.filter
def scoring_words(scoring: dict) -> str:
    return Scoring.from_dict(scoring).words()


@register.filter
def time_called_rule(scoring: dict) -> str:
    return Scoring.from_dict(scoring).system.time_called_rule
