"""Reading and writing `president-transcript/1` (TRANSCRIPT.md).

``parse`` turns JSON data into plain values with cards as codes and raises Unreadable (with the
deal and move where known) for anything that cannot be understood; rule checking is the
checker's.  ``dump`` writes a played game back out.
"""

from dataclasses import dataclass, field
from typing import Any

from gameplay.engine import cards as C
from gameplay.engine.deal import CCW, CW
from gameplay.engine.errors import Unreadable
from gameplay.engine.options import Options, from_ruleset, to_ruleset
from gameplay.engine.plays import BLIND, PASS
from gameplay.engine.scoring import Scoring

FORMAT = "president-transcript/1"
DIRECTIONS = {"cw": CW, "ccw": CCW}
DIRECTION_TEXT = {CW: "cw", CCW: "ccw"}


@dataclass
class MoveEntry:
    seat: int
    kind: str  # "play", "pass" or "blind"
    cards: list[int] = field(default_factory=list)
    declared: int | None = None


@dataclass
class ExchangeEntry:
    giver: int
    receiver: int
    cards: list[int]
    asked: list[str] | None = None


@dataclass
class DealEntry:
    hands: list[list[int]]
    moves: list[MoveEntry]
    exchanges: list[ExchangeEntry] = field(default_factory=list)
    blind: list[list[int]] | None = None
    leader: int | None = None
    direction: int | None = None


@dataclass
class Transcript:
    options: Options
    players: int
    dealer: int
    scoring: Scoring | None
    deals: list[DealEntry]


def parse(data: Any, *, moves: bool = True) -> Transcript:
    """The transcript ``data`` read and checked for form; ``moves=False`` leaves every deal's
    moves unread (an empty list), for a reader that needs only the hands (par)."""
    if not isinstance(data, dict):
        raise Unreadable("a transcript is a JSON object")
    if data.get("format") != FORMAT:
        raise Unreadable(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    for name in ("ruleset", "players", "deals"):
        if name not in data:
            raise Unreadable(f"missing field {name!r}")
    options = from_ruleset(data["ruleset"])
    players = data["players"]
    options.validate(players)
    dealer = _seat(data.get("dealer", 0), players, "dealer")
    scoring = Scoring.from_dict(data["scoring"]) if data.get("scoring") is not None else None
    if not isinstance(data["deals"], list):
        raise Unreadable("deals must be a list")
    presidents = options.presidents_deck
    deals = [_parse_deal(d, i, players, presidents, moves) for i, d in enumerate(data["deals"])]
    return Transcript(options, players, dealer, scoring, deals)


def _parse_deal(d: Any, index: int, players: int, presidents: bool,
                read_moves: bool = True) -> DealEntry:
    def fail(message: str, move: int | None = None) -> Unreadable:
        return Unreadable(message, deal=index, move=move)

    if not isinstance(d, dict):
        raise fail("a deal is a JSON object")
    for name in ("hands", "moves"):
        if name not in d:
            raise fail(f"deal {index}: missing field {name!r}")
    try:
        hands = _card_lists(d["hands"], players, presidents, "hands")
        blind = _card_lists(d["blind"], players, presidents, "blind") if "blind" in d else None
        exchanges = [_parse_exchange(e, players, presidents) for e in _list(d.get("exchanges", []),
                                                                              "exchanges")]
        leader = _seat(d["leader"], players, "leader") if d.get("leader") is not None else None
        direction = None
        if d.get("direction") is not None:
            if not isinstance(d["direction"], str) or d["direction"] not in DIRECTIONS:
                raise Unreadable(f"direction must be 'cw' or 'ccw', not {d['direction']!r}")
            direction = DIRECTIONS[d["direction"]]
    except Unreadable as e:
        raise fail(f"deal {index}: {e.message}") from None
    moves = []
    for m, entry in enumerate(_list(d["moves"], "moves") if read_moves else ()):
        try:
            moves.append(_parse_move(entry, players, presidents))
        except Unreadable as e:
            raise fail(f"deal {index} move {m}: {e.message}", m) from None
    return DealEntry(hands, moves, exchanges, blind, leader, direction)


def _parse_exchange(e: Any, players: int, presidents: bool) -> ExchangeEntry:
    if not isinstance(e, dict):
        raise Unreadable("an exchange is a JSON object")
    for name in ("from", "to", "cards"):
        if name not in e:
            raise Unreadable(f"exchange is missing {name!r}")
    cards = _cards(e["cards"], presidents)
    asked = e.get("asked")
    if asked is not None:
        if not isinstance(asked, list) or any(a not in ("high", "low") for a in asked):
            raise Unreadable('exchange "asked" must be a list of "high" or "low"')
    return ExchangeEntry(_seat(e["from"], players, "from"), _seat(e["to"], players, "to"),
                         cards, asked)


def _parse_move(entry: Any, players: int, presidents: bool) -> MoveEntry:
    if not isinstance(entry, dict) or "seat" not in entry:
        raise Unreadable("a move is an object with a seat")
    seat = _seat(entry["seat"], players, "seat")
    kinds = [k for k in ("play", "pass", "blind") if k in entry]
    if len(kinds) != 1:
        raise Unreadable('a move has exactly one of "play", "pass" or "blind"')
    kind = kinds[0]
    if kind in ("pass", "blind"):
        if entry[kind] is not True:
            raise Unreadable(f'"{kind}" must be true')
        return MoveEntry(seat, kind)
    declared = None
    if entry.get("as") is not None:
        declared = C.parse_face(entry["as"], presidents=presidents)
    return MoveEntry(seat, "play", _cards(entry["play"], presidents), declared)


def _seat(value: Any, players: int, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise Unreadable(f"{name} must be a seat from 0 to {players - 1}, not {value!r}")
    return value


def _list(value: Any, name: str) -> list:
    if not isinstance(value, list):
        raise Unreadable(f"{name} must be a list")
    return value


def _cards(value: Any, presidents: bool) -> list[int]:
    return [C.parse_card(t, presidents=presidents) for t in _list(value, "cards")]


def _card_lists(value: Any, players: int, presidents: bool, name: str) -> list[list[int]]:
    lists = _list(value, name)
    if len(lists) != players:
        raise Unreadable(f"{name} must have one list per seat ({players}), not {len(lists)}")
    return [_cards(cards, presidents) for cards in lists]


def dump(options: Options, players: int, dealer: int, scoring: Scoring | None,
         records: list, rules) -> dict[str, Any]:
    """The transcript of a played game (``records`` are the game's DealRecords)."""
    text = rules.cards_text
    out: dict[str, Any] = {"format": FORMAT, "ruleset": to_ruleset(options), "players": players,
                           "dealer": dealer}
    if scoring is not None:
        out["scoring"] = scoring.to_dict()
    deals = []
    for r in records:
        deal: dict[str, Any] = {"hands": [text(h) for h in r.hands]}
        if r.blind is not None:
            deal["blind"] = [text(p) for p in r.blind]
        if r.exchanges:
            deal["exchanges"] = [
                {"from": e.giver, "to": e.receiver, "cards": text(e.cards)}
                | ({"asked": e.asked} if e.asked is not None else {}) for e in r.exchanges]
        deal["leader"] = r.leader
        deal["direction"] = DIRECTION_TEXT[r.direction]
        deal["moves"] = [_dump_move(seat, move, rules) for seat, move in r.moves]
        deals.append(deal)
    out["deals"] = deals
    return out


def _dump_move(seat: int, move, rules) -> dict[str, Any]:
    if move is PASS:
        return {"seat": seat, "pass": True}
    if move is BLIND:
        return {"seat": seat, "blind": True}
    entry: dict[str, Any] = {"seat": seat, "play": rules.cards_text(move.cards)}
    if move.declared:
        entry["as"] = rules.face_text(move.face)
    return entry
