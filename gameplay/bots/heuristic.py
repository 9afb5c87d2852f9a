"""``heuristic``: plays the way the seeds' strategy advice describes.

Keep 2s, jokers, wild cards and bombs (the *controls*) to take tricks; get rid of low cards
first, whole groups at a time; pass rather than break a group, but split a high pair when it
takes a trick of singles; count the controls gone, so a play nobody can beat any more is known
safe; spend controls when the hand is nearly out or an opponent is about to go out; use a
quadruple's revolution when the hand is weak, and take consec, eight below, 69 and KKK plays
when they cost only low cards.
"""

from dataclasses import dataclass

from gameplay.bots import cardset as C
from gameplay.bots.base import Bot, card_value, play_rank
from gameplay.engine.plays import BLIND, BOMB, GROUP, LONE_DOPPELGANGER, MIX, PASS
from gameplay.engine.rules import exchange


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, seed: int = 0):
        pass

    # --- plays ------------------------------------------------------------------------------
    def play(self, obs, legal):
        return heuristic_move(obs.rules, obs, legal)

    # --- exchange ---------------------------------------------------------------------------
    def give_back(self, obs, count, allowed):
        """Give the lowest cards that stand alone (singles), keeping groups together."""
        counts = C.face_counts(obs.hand, obs.rules.natural_faces)

        def cost(card):
            alone = counts.get(C.face_of(card), 0) <= 1
            return (card_value(obs, card) + (0 if alone else 3), card)

        return sorted(allowed, key=cost)[:count]

    def ask(self, obs, index):
        # seed 004: "low" gets a Bomb when the Turd holds one (Bombs are lowest in the ask
        # order) and most Turds do; the second card is asked high
        if obs.rules.options.bombs and index == 0:
            return exchange.LOW
        return exchange.HIGH


@dataclass(frozen=True)
class Style:
    """The thresholds of ``heuristic_move``.  ``heuristic`` plays ``PLAIN``, the seeds' advice
    as written; ``montecarlo`` models its own later moves with a style tuned against it
    (``bench/style.py``)."""

    pass_jump: int = 6  # following early, pass rather than jump this many ranks …
    pass_total: int = 8  # … while holding more cards than this …
    pass_near_top: int = 3  # … with a play this close to the top rank
    danger: int = 2  # an opponent holding this few cards is about to go out
    endgame_margin: int = 1  # spend controls once the other groups are at most controls + this
    split_total: int = 6  # split a high pair for a trick of singles holding this few cards
    split_near_top: int = 3  # … a pair this close to the top rank
    safe_groups: int = 2  # with this few groups left, lead a sure winner first
    controls_below_top: int = 0  # ranks below the top (or the jokers) that count as controls
    lead_big: int = 0  # lead the largest group first if it has this many cards or more (0: off)


PLAIN = Style()


def control_at(rules, style: Style = PLAIN) -> int:
    """The lowest strength that counts as a control: the top rank (below the jokers where they
    are natural), less ``style.controls_below_top``."""
    top = len(rules.order) - 1
    jokers_on_top = rules.options.jokers and not rules.options.jokers_wild
    return top - (1 if jokers_on_top else 0) - style.controls_below_top


def heuristic_move(rules, obs, legal, style: Style = PLAIN):
    plays = [m for m in legal if m is not PASS and m is not BLIND]
    if not plays:
        return BLIND if BLIND in legal else PASS
    hand = obs.hand
    total = obs.held[obs.seat]
    blind_left = obs.blind_held[obs.seat]
    for p in plays:  # going out wins everything
        if p.count == total and not blind_left and p.kind != LONE_DOPPELGANGER:
            return p
    st = obs.strengths()
    top = len(rules.order) - 1
    controls_from = control_at(rules, style)
    # in one pass (a playout's hot spot): how many of each rank, the controls, the other groups
    counts = C.face_counts(hand, rules.natural_faces)
    controls = rules.wilds_in(hand)
    groups = 0
    for f, n in counts.items():
        if st[f] >= controls_from:
            controls += n
        else:
            groups += 1

    def is_control(p) -> bool:
        if p.kind == BOMB:
            return True
        if p.kind == MIX:
            return any(card_value(obs, c) >= controls_from for c in p.cards)
        return p.wilds > 0 or (p.kind == GROUP and st[p.face] >= controls_from)

    def splits(p) -> bool:
        if p.kind != GROUP:
            return False
        return p.count - p.wilds < counts.get(p.face, 0)

    if rules.options.bombs:
        controls += C.face_count(hand, C.BOMB_FACE)
    others = [obs.held[s] + obs.blind_held[s] for s in obs.active if s != obs.seat]
    danger = bool(others) and min(others) <= style.danger
    endgame = groups <= controls + style.endgame_margin

    def unbeatable(p, unseen: int) -> bool:
        """No ``unseen`` cards could beat this group (counting wild cards as any rank)."""
        if p.kind != GROUP:
            return p.kind == BOMB
        wild_unseen = rules.wilds_in(unseen)
        for f in rules.natural_faces:
            if st[f] > st[p.face]:
                if C.face_count(unseen, f) + wild_unseen >= p.count:
                    return False
        if rules.options.bombs and C.face_count(unseen, C.BOMB_FACE):
            return False
        return True

    def low_key(p):
        return (play_rank(rules, st, p), p.wilds, -p.count if obs.leading else p.count)

    if obs.leading:
        # revolution: a quadruple turns a weak hand strong
        if rules.options.revolution:
            for p in plays:
                if p.count == 4 and p.wilds == 0 and p.kind == GROUP:
                    mine = C.mask_cards(hand)
                    now = sum(card_value(rules, c, obs.reversed) for c in mine)
                    after = sum(card_value(rules, c, not obs.reversed) for c in mine)
                    if after > now:
                        return p
        whole = [p for p in plays if p.kind == GROUP and not splits(p) and p.wilds == 0]
        if groups <= style.safe_groups:
            unseen = obs.unseen()  # only here: a playout's view sums every hand for it
            safe = [p for p in whole if unbeatable(p, unseen)]
            if safe:  # take the lead back with a sure winner, then lead out the rest
                return min(safe, key=low_key)
        cheap = [p for p in whole if not is_control(p)]
        if cheap:
            big = style.lead_big and [p for p in cheap if p.count >= style.lead_big]
            if big:
                return min(big, key=lambda p: (-p.count, low_key(p)))
            return min(cheap, key=low_key)
        return min(plays, key=lambda p: (p.kind == BOMB, is_control(p), low_key(p)))

    # following
    special = obs.mode != 0
    cheap = [p for p in plays if not is_control(p) and not splits(p)]
    if cheap:
        best = min(cheap, key=low_key)
        jump = play_rank(rules, st, best) - (st[obs.last.face] if obs.last.face >= 0 else 0)
        # don't spend a high card on a low trick early in the deal
        if (not special and jump >= style.pass_jump and total > style.pass_total and not danger
                and play_rank(rules, st, best) >= top - style.pass_near_top):
            return PASS
        return best
    # split a high pair on a trick of singles when it takes the lead
    high_splits = [p for p in plays if splits(p) and not is_control(p)
                   and p.count == 1 and st[p.face] >= top - style.split_near_top]
    if high_splits and (danger or total <= style.split_total):
        return min(high_splits, key=low_key)
    if danger or endgame:
        usable = [p for p in plays if p.kind != BOMB] or plays
        return min(usable, key=low_key)
    return PASS
