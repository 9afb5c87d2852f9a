"""``{{ replay_url|at_step:fault.step }}``: the address of a replay opened at a game's step.

The one spelling of a link to a decision in a replay, for faults and logs on the ladder's and
the tournaments' pages. A step is the game's (as bot games store a fault's, a log's and each
decision's: bot_games.services.deal_steps); a replay of one deal carries the game's step it
starts at (``steps.first``), so the replay's script (league/replay.js) opens at the same
decision whether the replay shows the whole game or one deal.
"""

from django import template

register = template.Library()


@register.filter
def at_step(replay_url: str, step: int | None) -> str:
    """``replay_url`` with the anchor of the game's ``step``; as it is without a step (a fault
    stored before steps were)."""
    return f"{replay_url}#step-{step}" if step else replay_url
