"""A transcript as a list of steps for the replay page: after each exchange and move, every
hand, the pile, whose turn it is and which special rules fired.

The steps are told by the engine's checker as it replays the transcript (checker.Watcher), so
the transcript is parsed once and played once, and no rule is re-implemented here.
"""

from django.conf import settings

from gameplay.engine import cards as C
from gameplay.engine.checker import Watcher, replay
from gameplay.engine.deal import CCW, MODE_NAMES
from gameplay.engine.errors import PresidentError
from gameplay.engine.plays import BLIND, PASS
from gameplay.engine.ruleset import Rules
from gameplay.engine.transcript import parse
from league.errors import LeagueError


def transcript_steps(data, *, names: list[str] | None = None, deal: int | None = None) -> dict:
    """{"players": [...], "steps": [...]} for a transcript (parsed JSON); LeagueError when the
    engine refuses it, or when it has more steps than settings.REPLAY_MAX_STEPS, counted
    before any is played. Parsed once and played once: the checker's replay tells the steps.

    With ``deal`` (from 1), the steps of that deal of a game's transcript only. A later deal
    does not stand alone (its exchanges, leader and dealer follow from the deals before it),
    so the game is played up to it and the deals before it are played without steps; only the
    shown deal's steps count against REPLAY_MAX_STEPS."""
    try:
        transcript = parse(data if deal is None else _up_to(data, deal))
        shown = transcript.deals if deal is None else transcript.deals[deal - 1:]
        count = sum(2 + len(entry.exchanges) + len(entry.moves) for entry in shown)
        if count > settings.REPLAY_MAX_STEPS:
            raise LeagueError(f"this transcript is too long to replay here: {count:,} steps "
                              f"in {len(shown)} deal{'s' if len(shown) != 1 else ''}, over the "
                              f"{settings.REPLAY_MAX_STEPS:,} shown at most")
        players = transcript.players
        if names is None or len(names) != players:
            names = [f"seat {s}" for s in range(players)]
        rules = Rules(transcript.options, players)
        steps = _Steps(rules, names, first=0 if deal is None else deal - 1)
        replay(transcript, watch=steps)
    except LeagueError:
        raise  # said whole already (not "cannot be replayed: this transcript is too long")
    except PresidentError as e:
        where = "".join(f" ({k} {getattr(e, k)})" for k in ("deal", "move")
                        if getattr(e, k, None) is not None)
        raise LeagueError(f"this transcript cannot be replayed{where}: {e.message}") from e
    return {"players": names, "presidents": rules.presidents, "steps": steps.steps}


def _up_to(data, deal: int):
    """A game's transcript cut after its deal ``deal`` (from 1): the checker replays a game
    from its first deal, and the deals after it are not needed."""
    if isinstance(data, dict) and isinstance(data.get("deals"), list):
        return {**data, "deals": data["deals"][:deal]}
    return data


# Cards as players say them, from the transcript's notation (TRANSCRIPT.md) as cards.js draws
# them: "5♥" shown and "the 5 of hearts" said; a group by its rank, "two 10s" ("two tens").
SUITS = {"C": ("♣", "clubs"), "S": ("♠", "spades"), "D": ("♦", "diamonds"), "H": ("♥", "hearts")}
FACE_NAMES = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
FACES_SAID = {"2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes",
              "7": "sevens", "8": "eights", "9": "nines", "10": "tens", "1": "ones",
              "11": "elevens", "12": "twelves"}
# The cards that are not a rank of their own: RULES.md, presidents-deck, and jokers.
SPECIALS = {"JK": "joker", "B": "Bomb", "BR": "Bomb Reverse", "DG": "Doppelgänger"}
COUNTS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve"]


def cards_shown(cards: list[str], *, presidents: bool) -> str:
    """Cards for the eye, with the suit symbols the pile draws: "5♥", "two 10s and a joker"."""
    return _cards_words(cards, presidents, said=False)


def cards_said(cards: list[str], *, presidents: bool) -> str:
    """The same cards in words for a screen reader: "the 5 of hearts", "two tens"."""
    return _cards_words(cards, presidents, said=True)


def _cards_words(cards, presidents, said):
    groups: dict[str, list[str]] = {}  # by rank, or by special card, in the order played
    for card in cards:
        rank = card if presidents or card in SPECIALS else card[:-1]
        groups.setdefault(rank, []).append(card)
    parts = []
    for rank, group in groups.items():
        if rank in SPECIALS:
            name = SPECIALS[rank]
            parts.append(f"{_article(name)} {name}" if len(group) == 1
                         else f"{_count(len(group))} {name}s")
        elif len(group) > 1:
            plural = (FACES_SAID[rank] if said and rank in FACES_SAID
                      else f"{FACE_NAMES[rank]}s" if rank in FACE_NAMES else f"{rank}s")
            parts.append(f"{_count(len(group))} {plural}")
        elif presidents:
            parts.append(f"{_article(rank)} {rank}")
        else:
            suit = SUITS[group[0][-1]]
            parts.append(f"the {FACE_NAMES.get(rank, rank)} of {suit[1]}" if said
                         else rank + suit[0])
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _article(word: str) -> str:
    return "an" if word in ("8", "11") or word[0] in "AEIOU" else "a"


def _count(n: int) -> str:
    return COUNTS[n] if n < len(COUNTS) else str(n)


class _Steps(Watcher):
    """Every hand, the pile, whose turn it is and which special rules fired, after each step
    of the checker's replay."""

    def __init__(self, rules: Rules, names: list[str], first: int = 0):
        self.rules, self.names = rules, names
        self.first = first  # the first deal shown (0 first): earlier ones are played unseen
        self.steps: list[dict] = []
        self.index = -1  # the deal being played, 0 first
        self.passed: set[int] = set()  # seats that passed on the pile as it stands
        self.before = None  # (reversed, mode, direction, players out) before the last move

    def _cards(self, mask) -> list[str]:
        return self.rules.cards_text(C.mask_cards(mask))

    def _text(self, words: str, cards) -> tuple[str, str]:
        """A step's text shown and said: ``words`` followed by ``cards``."""
        tokens = self.rules.cards_text(cards)
        presidents = self.rules.presidents
        return (words + cards_shown(tokens, presidents=presidents),
                words + cards_said(tokens, presidents=presidents))

    @property
    def unseen(self) -> bool:
        return self.index < self.first

    def _snapshot(self, deal, hands, text, events, seat=None, action="deal"):
        if isinstance(text, str):
            text = (text, text)
        self.steps.append({
            "deal": self.index + 1, "text": text[0], "said": text[1], "events": events,
            "seat": seat,
            "action": action,
            "hands": [self._cards(h) for h in (deal.hands if deal else hands)],
            "pile": self.rules.cards_text(deal.last.cards) if deal and deal.last else [],
            "turn": deal.turn if deal and not deal.over else None,
            "out": [self.names[s] for s in deal.finishing_order] if deal else [],
            "out_seats": list(deal.finishing_order) if deal else [],
            "passed": sorted(self.passed),
        })
        if deal:
            self.before = (deal.reversed, deal.mode, deal.direction, len(deal.finishing_order))

    def dealt(self, game, hands):
        self.index += 1
        self.passed.clear()
        if self.unseen:
            return
        self._snapshot(None, hands, f"cards dealt, {self.names[game.dealer]} dealt", [])

    def exchanged(self, game, entry, hands):
        if self.unseen:
            return
        names = self.names
        text = self._text(f"{names[entry.giver]} gives {names[entry.receiver]} ", entry.cards)
        self._snapshot(None, hands, text, ["exchange"], seat=entry.giver, action="exchange")

    def led(self, deal):
        if self.unseen:
            return
        self._snapshot(deal, None, f"{self.names[deal.turn]} leads"
                       + (" (counter-clockwise)" if deal.direction == CCW else ""), [],
                       seat=deal.turn, action="lead")

    def played(self, seat, move, deal):
        if self.unseen:
            return
        name = self.names[seat]
        if move is PASS:
            text, action = f"{name} passes", "pass"
            self.passed.add(seat)
        elif move is BLIND:
            text, action = f"{name} turns a blind card", "blind"
        else:
            text, action = self._text(f"{name} plays ", move.cards), "play"
        if deal.last is None:
            self.passed.clear()
        self._snapshot(deal, None, text, _events(self.before, deal, self.names), seat=seat,
                       action=action)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{end}"


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
    for place, seat in enumerate(deal.finishing_order[out:], start=out + 1):
        events.append(f"{names[seat]} goes out {ordinal(place)}")
    if deal.over:
        events.append("deal over")
    return events
