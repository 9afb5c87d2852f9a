"""A transcript as a list of steps for the replay page: after each exchange and move, every
hand, the pile, whose turn it is and which special rules fired.

The transcript is first checked by the engine's checker; the steps then come from playing the
same moves through the engine's own ``Game``/``Deal`` (no rule is re-implemented here).
"""

from django.conf import settings

from gameplay.engine import cards as C
from gameplay.engine.checker import replay
from gameplay.engine.deal import CCW, MODE_NAMES
from gameplay.engine.errors import PresidentError
from gameplay.engine.game import Game
from gameplay.engine.plays import BLIND, PASS
from gameplay.engine.rules import leading
from gameplay.engine.ruleset import Rules
from gameplay.engine.transcript import parse
from league.errors import LeagueError


def transcript_steps(data, *, names: list[str] | None = None) -> dict:
    """{"players": [...], "steps": [...]} for a transcript (parsed JSON); LeagueError when the
    engine refuses it, or when it has more steps than settings.REPLAY_MAX_STEPS, counted
    before any is played."""
    try:
        transcript = parse(data)
        count = sum(2 + len(entry.exchanges) + len(entry.moves) for entry in transcript.deals)
        if count > settings.REPLAY_MAX_STEPS:
            raise LeagueError(f"this transcript is too long to replay here: {count:,} steps "
                              f"in {len(transcript.deals)} deals, over the "
                              f"{settings.REPLAY_MAX_STEPS:,} shown at most")
        checked = replay(transcript)
    except PresidentError as e:
        where = "".join(f" ({k} {getattr(e, k)})" for k in ("deal", "move")
                        if getattr(e, k, None) is not None)
        raise LeagueError(f"this transcript cannot be replayed{where}: {e.message}") from e
    players = transcript.players
    if names is None or len(names) != players:
        names = [f"seat {s}" for s in range(players)]
    rules = Rules(transcript.options, players)
    game = Game(rules, dealer=transcript.dealer, scoring=transcript.scoring)
    steps = []

    def cards(mask):
        return rules.cards_text(C.mask_cards(mask))

    passed: set[int] = set()  # seats that passed on the pile as it stands

    def snapshot(index, deal, hands, text, events, seat=None, action="deal"):
        steps.append({
            "deal": index + 1, "text": text, "events": events, "seat": seat, "action": action,
            "hands": [cards(h) for h in (deal.hands if deal else hands)],
            "pile": rules.cards_text(deal.last.cards) if deal and deal.last else [],
            "turn": deal.turn if deal and not deal.over else None,
            "out": [names[s] for s in deal.finishing_order] if deal else [],
            "out_seats": list(deal.finishing_order) if deal else [],
            "passed": sorted(passed),
        })

    for index, (entry, record) in enumerate(zip(transcript.deals, checked.records, strict=True)):
        hands = [C.cards_mask(h) for h in entry.hands]
        passed.clear()
        snapshot(index, None, hands, f"cards dealt, {names[game.dealer]} dealt", [])
        for e in entry.exchanges:
            mask = C.cards_mask(e.cards)
            hands[e.giver] -= mask
            hands[e.receiver] += mask
            snapshot(index, None, hands, f"{names[e.giver]} gives {names[e.receiver]} "
                                         f"{' '.join(rules.cards_text(e.cards))}", ["exchange"],
                     seat=e.giver, action="exchange")
        _, opening = leading.fixed_leader(rules.options, players, game.dealer, hands,
                                          game.previous_order)
        deal = game.begin(hands, leader=record.leader, direction=record.direction,
                          blind=entry.blind, opening=opening)
        snapshot(index, deal, hands, f"{names[deal.turn]} leads"
                 + (" (counter-clockwise)" if deal.direction == CCW else ""), [],
                 seat=deal.turn, action="lead")
        for seat, move in record.moves:
            before = (deal.reversed, deal.mode, deal.direction, len(deal.finishing_order))
            deal.play(move)
            if move is PASS:
                text, action = f"{names[seat]} passes", "pass"
                passed.add(seat)
            elif move is BLIND:
                text, action = f"{names[seat]} turns a blind card", "blind"
            else:
                text, action = f"{names[seat]} plays {' '.join(rules.cards_text(move.cards))}", \
                    "play"
            if deal.last is None:
                passed.clear()
            snapshot(index, deal, hands, text, _events(before, deal, names), seat=seat,
                     action=action)
        if record.finished:
            game.end(record)
    return {"players": names, "presidents": rules.presidents, "steps": steps}


def _events(before, deal, names) -> list[str]:
    reversed_, mode, direction, out = before
    events = []
    if deal.reversed != reversed_:
        events.append("revolution: ranks reversed" if deal.reversed else "revolution undone")
    if deal.mode != mode and MODE_NAMES.get(deal.mode):
        events.append(f"{MODE_NAMES[deal.mode]} in force")
    if deal.direction != direction:
        events.append("direction reversed")
    if deal.last is None and not deal.over:
        events.append("trick ends: pile cleared")
    for seat in deal.finishing_order[out:]:
        events.append(f"{names[seat]} is out ({len(deal.finishing_order)})")
    if deal.over:
        events.append("deal over")
    return events
