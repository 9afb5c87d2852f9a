"""Tiny games in transcript notation for the rules tests (STYLE.md "Tests").

A move is written ``"0 3C 3D"`` (seat 0 plays 3C and 3D), ``"1 pass"``, ``"2 blind"`` or
``"3 JK as K"``; an exchange ``"3>0 2S AH"`` or, for the presidents deck, ``"3>0 12 B high
low"``; a hand ``"3C 4D JK"``.  Hands may be partial (TRANSCRIPT.md allows it).
"""

from typing import Any

from gameplay.engine import checker
from gameplay.engine.cards import card_text, parse_face
from gameplay.engine.deal import CCW, CW, Deal
from gameplay.engine.options import from_ruleset
from gameplay.engine.plays import BLIND, PASS
from gameplay.engine.rules import leading
from gameplay.engine.ruleset import Rules
from gameplay.engine.transcript import FORMAT


def move(text: str) -> dict[str, Any]:
    seat, *rest = text.split()
    entry: dict[str, Any] = {"seat": int(seat)}
    if rest == ["pass"]:
        entry["pass"] = True
    elif rest == ["blind"]:
        entry["blind"] = True
    else:
        if "as" in rest:
            at = rest.index("as")
            entry["as"] = rest[at + 1]
            rest = rest[:at]
        entry["play"] = rest
    return entry


def exchange(text: str) -> dict[str, Any]:
    seats, *cards = text.split()
    giver, receiver = seats.split(">")
    entry: dict[str, Any] = {"from": int(giver), "to": int(receiver),
                             "cards": [c for c in cards if c not in ("high", "low")]}
    asked = [c for c in cards if c in ("high", "low")]
    if asked:
        entry["asked"] = asked
    return entry


def deal(hands: list[str], *moves: str, exchanges: tuple[str, ...] = (),
         leader: int | None = None, direction: str | None = None,
         blind: list[str] | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"hands": [h.split() for h in hands]}
    if blind is not None:
        entry["blind"] = [b.split() for b in blind]
    if exchanges:
        entry["exchanges"] = [exchange(e) for e in exchanges]
    if leader is not None:
        entry["leader"] = leader
    if direction is not None:
        entry["direction"] = direction
    entry["moves"] = [move(m) for m in moves]
    return entry


def game(ruleset: Any, *deals: dict[str, Any], dealer: int | None = None,
         scoring: dict | None = None) -> dict[str, Any]:
    """A transcript; by default the last seat deals, so seat 0 is left of the dealer."""
    players = len(deals[0]["hands"])
    data: dict[str, Any] = {"format": FORMAT, "ruleset": ruleset, "players": players,
                            "dealer": players - 1 if dealer is None else dealer,
                            "deals": list(deals)}
    if scoring is not None:
        data["scoring"] = scoring
    return data


def one_deal(ruleset: Any, hands: list[str], *moves: str, dealer: int | None = None,
             **deal_fields: Any) -> dict[str, Any]:
    return game(ruleset, deal(hands, *moves, **deal_fields), dealer=dealer)


def assert_valid(data: dict[str, Any]) -> dict[str, Any]:
    status, verdict = checker.check(data)
    assert status == checker.VALID, verdict
    return verdict


def assert_fault(data: dict[str, Any], deal: int, move: int | None,
                 status: int = checker.BROKEN) -> dict[str, Any]:
    got, verdict = checker.check(data)
    assert (got, verdict.get("deal"), verdict.get("move")) == (status, deal, move), verdict
    return verdict


def finishing_orders(data: dict[str, Any]) -> list[list[int]]:
    return [d["finishing_order"] for d in assert_valid(data)["deals"]]


def position(ruleset: Any, hands: list[str], *moves: str, dealer: int | None = None,
             leader: int | None = None, direction: str = "cw",
             blind: list[str] | None = None) -> Deal:
    """The first deal's state after ``moves`` (each checked), for asserting legal_moves()."""
    options = from_ruleset(ruleset)
    rules = Rules(options, len(hands))
    masks = [sum(1 << (rules.deck.parse(c) * 8) for c in h.split()) for h in hands]
    dealer = len(hands) - 1 if dealer is None else dealer
    fixed, opening = leading.fixed_leader(options, len(hands), dealer, masks, None)
    state = Deal(rules, masks, leader=fixed if leader is None else leader,
                 direction=CCW if direction == "ccw" else CW, opening=opening,
                 blind=None if blind is None else [
                     tuple(rules.deck.parse(c) for c in b.split()) for b in blind])
    for text in moves:
        entry = move(text)
        assert entry["seat"] == state.turn, f"{text}: seat {state.turn} to move"
        if entry.get("pass"):
            state.play(PASS)
        elif entry.get("blind"):
            state.play(BLIND)
        else:
            cards = [rules.deck.parse(c) for c in entry["play"]]
            declared = entry.get("as")
            face = None if declared is None else _face(rules, declared)
            state.play(rules.play_from_cards(cards, face))
    return state


def _face(rules: Rules, text: str) -> int:
    return parse_face(text, presidents=rules.presidents)


def legal(state: Deal) -> set:
    """legal_moves() as text: sorted card tuples, "pass" and "blind"."""
    out = set()
    for m in state.legal_moves():
        if m is PASS:
            out.add("pass")
        elif m is BLIND:
            out.add("blind")
        else:
            out.add(" ".join(card_text(c, presidents=state.rules.presidents) for c in m.cards))
    return out
