"""The President rules engine: pure Python, no Django (STYLE.md "Boundaries").

Start with ``Rules(preset("classic"), players=4)``, ``Deal``'s ``legal_moves``/``apply``, the
checker in ``checker.check`` and whole games in ``selfplay``.
"""

from gameplay.engine.checker import check, check_text
from gameplay.engine.deal import CCW, CW, Deal
from gameplay.engine.errors import OptionsError, PresidentError, RuleViolation, Unreadable
from gameplay.engine.game import DealRecord, Game, deal_cards
from gameplay.engine.options import PRESETS, Options, preset
from gameplay.engine.plays import BLIND, PASS, Play
from gameplay.engine.roles import Role, exchange_pairs, rank_shift, roles_by_position
from gameplay.engine.ruleset import Rules
from gameplay.engine.scoring import ScoreSheet, Scoring, deal_points

__all__ = ["BLIND", "CCW", "CW", "PASS", "PRESETS", "Deal", "DealRecord", "Game", "Options",
           "OptionsError", "Play", "PresidentError", "Role", "RuleViolation", "Rules",
           "ScoreSheet", "Scoring", "Unreadable", "check", "check_text", "deal_cards",
           "deal_points", "exchange_pairs", "preset", "rank_shift", "roles_by_position"]
