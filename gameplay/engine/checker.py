"""The transcript checker (TRANSCRIPT.md "The checker").

``check(data)`` answers one transcript's verdict as the JSON object the CLI prints, with the
exit status it implies; it never raises for bad input.
"""

import json
from typing import Any

from gameplay.engine import cards as C
from gameplay.engine.deal import CCW, CW, Deal
from gameplay.engine.errors import PresidentError, RuleViolation, Unreadable
from gameplay.engine.game import DealRecord, Game
from gameplay.engine.plays import BLIND, PASS
from gameplay.engine.rules import exchange, leading
from gameplay.engine.ruleset import Rules
from gameplay.engine.transcript import DealEntry, ExchangeEntry, Transcript, parse

VALID, BROKEN, UNREADABLE = 0, 1, 2


def check(data: Any) -> tuple[int, dict[str, Any]]:
    """(exit status, verdict) for parsed JSON ``data``."""
    try:
        transcript = parse(data)
        game = replay(transcript)
    except PresidentError as e:
        status = UNREADABLE if isinstance(e, Unreadable) else BROKEN
        return status, {"valid": False, "deal": e.deal, "move": e.move, "error": e.message}
    return VALID, verdict(game)


def check_text(text: str | bytes) -> tuple[int, dict[str, Any]]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:  # RecursionError: absurdly nested JSON
        return UNREADABLE, {"valid": False, "deal": None, "move": None,
                            "error": f"not JSON: {e}"}
    return check(data)


def verdict(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {"valid": True, "deals": [
        {"finishing_order": r.finishing_order, "finished": r.finished, "partial": r.partial}
        for r in game.records]}
    if game.sheet is not None:
        sheet = game.sheet
        out["scores"] = {"totals": [sheet.totals.get(s, 0) for s in range(game.rules.players)],
                         "finished": sheet.finished, "winners": sorted(sheet.winners)}
    return out


class Watcher:
    """Told each step of a replay as it is played (a replay page shows them); does nothing."""

    def dealt(self, game: Game, hands: list[int]) -> None:
        """The hands as dealt, before the exchange."""

    def exchanged(self, game: Game, entry: ExchangeEntry, hands: list[int]) -> None:
        """One exchange done: ``hands`` after it."""

    def led(self, deal: Deal) -> None:
        """Play begins: ``deal.turn`` leads."""

    def played(self, seat: int, move, deal: Deal) -> None:
        """``seat`` played ``move`` (a play, PASS or BLIND): ``deal`` after it."""


def replay(t: Transcript, watch: Watcher | None = None) -> Game:
    """Play a parsed transcript through the rules; raise the first fault found. ``watch`` is
    told each step as it is played."""
    rules = Rules(t.options, t.players)
    game = Game(rules, dealer=t.dealer, scoring=t.scoring)
    watch = watch or Watcher()
    for index, entry in enumerate(t.deals):
        try:
            if game.over:
                raise RuleViolation("a deal after the game's scoring has ended it")
            record = _replay_deal(game, entry, last=index == len(t.deals) - 1, watch=watch)
        except PresidentError as e:
            e.deal = index
            raise
        if record.finished:
            game.end(record)
        else:
            game.records.append(record)
    return game


def _replay_deal(game: Game, entry: DealEntry, *, last: bool, watch: Watcher) -> DealRecord:
    rules = game.rules
    hands = [C.cards_mask(h) for h in entry.hands]
    partial = game.check_hands(hands, entry.blind)
    record = DealRecord(hands=entry.hands, blind=entry.blind, exchanges=entry.exchanges,
                        partial=partial)
    watch.dealt(game, hands)
    _exchange(game, hands, entry, watch)
    if min(C.mask_count(h) for h in hands) == 0 and not entry.blind:
        raise RuleViolation("every seat must hold at least one card when play starts")
    leader, opening = leading.fixed_leader(rules.options, rules.players, game.dealer, hands,
                                           game.previous_order)
    if leader is None:
        if entry.leader is None:
            raise Unreadable("this deal needs a leader: a player names it")
        leader = entry.leader
    elif entry.leader is not None and entry.leader != leader:
        raise RuleViolation(f"seat {leader} leads this deal, not seat {entry.leader}")
    direction = entry.direction or CW
    if direction == CCW and leading.direction_chooser(rules.options, rules.players, game.dealer,
                                                      game.previous_order) is None:
        raise RuleViolation("play goes clockwise in this preset")
    record.leader, record.direction = leader, direction
    deal = game.begin(hands, leader=leader, direction=direction, blind=entry.blind,
                      opening=opening)
    watch.led(deal)
    for m, move_entry in enumerate(entry.moves):
        try:
            move = _move(rules, deal, move_entry)
            deal.play(move)
        except PresidentError as e:
            e.move = m
            raise
        record.moves.append((move_entry.seat, move))
        watch.played(move_entry.seat, move, deal)
    record.finishing_order = list(deal.finishing_order)
    record.finished = deal.over
    if not deal.over and not last:
        raise RuleViolation("an earlier deal stopped before it ended")
    return record


def _move(rules: Rules, deal, entry):
    if deal.over:
        raise RuleViolation("the deal is over: no more moves")
    if entry.seat != deal.turn:
        raise RuleViolation(f"not seat {entry.seat}'s turn (seat {deal.turn} to move)")
    if entry.kind == "pass":
        return PASS
    if entry.kind == "blind":
        return BLIND
    return rules.play_from_cards(entry.cards, entry.declared)


def _exchange(game: Game, hands: list[int], entry: DealEntry, watch: Watcher) -> None:
    rules = game.rules
    steps = game.exchange_plan()
    given = entry.exchanges
    received: dict[int, list[int]] = {}
    for i, step in enumerate(steps):
        if i >= len(given):
            raise RuleViolation(f"missing exchange {step.giver}->{step.receiver} "
                                f"({step.count} card(s))")
        e = given[i]
        if (e.giver, e.receiver) != (step.giver, step.receiver):
            raise RuleViolation(f"exchange {i} must be {step.giver}->{step.receiver}, "
                                f"not {e.giver}->{e.receiver}")
        if rules.options.exchange == "ask" and not step.gives_back and e.asked is None:
            raise Unreadable(f'exchange {step.giver}->{step.receiver} is missing "asked"')
        fault = exchange.fault(rules, step, hands[step.giver], e.cards, e.asked,
                               received.get(step.giver, []))
        if fault:
            raise RuleViolation(fault)
        mask = C.cards_mask(e.cards)
        hands[step.giver] -= mask
        hands[step.receiver] += mask
        received[step.receiver] = e.cards
        watch.exchanged(game, e, hands)
    if len(given) > len(steps):
        raise RuleViolation(f"{len(given) - len(steps)} exchange(s) too many for this deal")
