"""Opponent styles of our own that play unlike ``heuristic``: ``spender`` and ``hoarder``.

montecarlo reads the other seats as ``heuristic`` players and plays its own later moves like
one, so a table of heuristic players flatters it.  These two play the same game the opposite
ways round, so a change to the search is kept only if it helps, or costs nothing, against each
(issue #21, docs/bots.md "Opponent styles").

- ``spender`` never holds back: following, it never passes while it holds a play that beats the
  pile; when no whole group of low cards does, it splits a group or spends a 2, joker, wild card
  or (last) a bomb.  It leads as the heuristic does, its low groups first.
- ``hoarder`` keeps its controls (2s, jokers, wild cards, bombs, and Aces too) to the very end:
  it spends one to follow only when its controls outnumber its other groups or an opponent is
  down to one card, never splits a group, and passes rather than jump four ranks early.

Both are ``heuristic_move`` with other thresholds of ``Style`` (heuristic.py), so they play
every preset at every table size the heuristic does, and exchange cards as it does.
"""

from gameplay.bots.heuristic import HeuristicBot, Style, heuristic_move

NEVER = 1_000  # a threshold no hand reaches: more cards than any deck holds

# in danger at once and in the endgame from the start: nothing is worth a pass
SPENDER = Style(pass_jump=NEVER, danger=NEVER, endgame_margin=NEVER, split_total=NEVER,
                split_near_top=NEVER)

# spends controls once they outnumber the other groups (the heuristic: one group more), fights
# only an opponent on its last card (the heuristic: two), never splits a pair, passes rather
# than jump 4 ranks early (the heuristic: 6), and counts Aces as controls
HOARDER = Style(pass_jump=4, danger=1, endgame_margin=-1, split_total=0, controls_below_top=1)


class StyledBot(HeuristicBot):
    """``heuristic_move`` in the class's ``style``; the exchange as the heuristic bot's."""

    style = Style()

    def play(self, obs, legal):
        return heuristic_move(obs.rules, obs, legal, self.style)


class SpenderBot(StyledBot):
    name = "spender"
    style = SPENDER


class HoarderBot(StyledBot):
    name = "hoarder"
    style = HOARDER
