"""The two baseline bots: ``random`` (a uniformly random legal decision) and ``greedy``
(always its lowest legal play: "go low")."""

import random

from gameplay.bots import cardset as C
from gameplay.bots.base import Bot, play_rank
from gameplay.engine.deal import CCW, CW
from gameplay.engine.plays import BLIND, PASS
from gameplay.engine.rules import exchange


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def play(self, obs, legal):
        return legal[self.rng.randrange(len(legal))]

    def name_cards(self, obs, count):
        wishes = C.mask_cards(obs.rules.deck.mask)
        self.rng.shuffle(wishes)
        return wishes

    def give_back(self, obs, count, allowed):
        return self.rng.sample(allowed, min(count, len(allowed)))

    def ask(self, obs, index):
        return self.rng.choice((exchange.HIGH, exchange.LOW))

    def lead_and_direction(self, obs, names_leader):
        leader = self.rng.choice([s for s in range(obs.players) if obs.held[s]] or [obs.seat])
        return (leader if names_leader else None), self.rng.choice((CW, CCW))


class GreedyBot(Bot):
    """Plays whenever it can, its lowest play: on a lead the whole lowest group, when
    following the fewest cards that do; wild cards and bombs last."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        pass

    def play(self, obs, legal):
        return greedy_move(obs.rules, obs.strengths(), legal, obs.leading)


def greedy_move(rules, strengths, legal, leading: bool):
    best, best_key = None, None
    for m in legal:
        if m is PASS or m is BLIND:
            continue
        key = (play_rank(rules, strengths, m), m.wilds, -m.count if leading else m.count)
        if best_key is None or key < best_key:
            best, best_key = m, key
    if best is not None:
        return best
    return BLIND if BLIND in legal else PASS
