"""Who plays the ladder's next game: the matchmaker, plain Python (no Django, DRF or Celery).

The rule the arenas learnt (Halite's matchmaker, Kaggle simulations), in this ladder's words:

- The **anchor** is the free bot owed a game most: new bots first, then the fewest games, then
  the longest idle (never played counts as idle longest), then chance.
- Its **opponents** are drawn at random among the ``window`` free bots nearest to the anchor's
  rating mu. The window is taken among free bots, which widens it when its nearest are busy;
  bots more than ``lead`` games ahead of the anchor are drawn only to fill the table, so the
  bots in a crowded part of the ratings are not drawn far more often than the others.
- Never a paused bot, never a bot already in ``games_at_once`` running games, never one bot
  twice at a table, never more than ``per_author`` bots of one author at a table (two bots of
  one author could play as a team: an HTTP author's server even sees both hands); the table
  has the largest allowed size that the free bots can fill.
- A ``reserve`` share of the bots not paused is left waiting. It matters only when the workers
  could seat nearly every bot at once: a table's bots end their game together and, with no
  other bot free, would sit down together again and again; waiting bots mix the tables.
- Built-in reference bots play like the others (they anchor and they count for fairness), but at
  most ``references_per_table`` of them sit at one table, so they never crowd out authors' bots.
- No author's bots are in more than the author's share of the games at once
  (``author_games``, from ``fair_shares``): the workers a game holds are shared among authors,
  not bots, so one author's many or slow bots cannot take the workers from the others.

Fair share: over a stretch of play with the same bots on the ladder, each bot not paused is owed
the same number of games, seats played / bots (docs/ladder.md; bench/ladder_fairness.py).
"""

import dataclasses
import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

WINDOW = 8  # opponents are drawn among this many free bots nearest in rating
PER_AUTHOR = 1  # an author's bots at one table


@dataclass(frozen=True)
class Bot:
    """One bot on one preset's ladder, as the matchmaker sees it.

    ``games`` is the count fairness is about: the games the bot started in a recent stretch,
    running ones included (docs/ladder.md), so that a bot that joins late is not owed a
    veteran's lifetime of games.
    ``last_played`` is any comparable time (a datetime, seconds), None if it never played.
    """

    id: Hashable
    mu: float
    games: int = 0
    last_played: Any = None
    new: bool = False  # on the ladder but no game yet (just validated, or a new version)
    paused: bool = False
    reference: bool = False  # a built-in bot: random, greedy, heuristic, montecarlo
    author: Hashable = None  # whose bot (its games count for the author's share); None: nobody's

    def __post_init__(self):
        # The limits count a reference apart from the authors' bots: one with an author would
        # be left out of its author's count (two of an author's at a table) or, anchoring,
        # shut out its author's other bots that the table's size counted on.
        if self.reference and self.author is not None:
            raise ValueError(f"bot {self.id!r}: a built-in reference bot has no author")


Table = tuple  # the bots' ids in seat order


@dataclass(frozen=True)
class Matchmaker:
    """One preset's matchmaking: its table sizes and the ladder's limits."""

    sizes: tuple[int, ...]
    window: int = WINDOW
    references_per_table: int | None = 1  # None: no limit
    games_at_once: int = 1  # running games one bot may be in
    per_author: int | None = PER_AUTHOR  # None: no limit
    lead: int = 1  # opponents ahead of the anchor by more games are drawn only to fill a table
    reserve: float = 0.1  # share of the bots not paused left waiting, so that tables mix
    # Most running games with an author's bots, by author (fair_shares); others: no limit.
    author_games: Mapping[Hashable, int] = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        if not self.sizes or any(size < 2 for size in self.sizes):
            raise ValueError(f"table sizes must be at least 2, not {self.sizes!r}")
        if self.games_at_once < 1:
            raise ValueError("games_at_once must be at least 1")
        if self.per_author is not None and self.per_author < 1:
            raise ValueError("per_author must be at least 1")
        if not 0 <= self.reserve < 1:
            raise ValueError("reserve is a share of the bots, from 0 up to 1")

    def next_game(self, bots: Iterable[Bot], busy: Mapping[Hashable, int],
                  rng: random.Random,
                  authors_busy: Mapping[Hashable, int] | None = None) -> Table | None:
        """The next table, or None if the free bots cannot fill any allowed size.

        ``busy`` counts each bot's running games (bots not in it are idle), ``authors_busy``
        the running games with each author's bots (a game counted once per author).
        """
        bots = list(bots)
        authors_busy = authors_busy or {}
        free = [bot for bot in bots if self._free(bot, busy, authors_busy)]
        waiting = int(self.reserve * sum(not bot.paused for bot in bots))
        size = self._size(free, waiting)
        if size is None:
            return None
        anchor = min(free, key=lambda bot: (not bot.new, bot.games, _idle_order(bot),
                                            rng.random()))
        opponents = self._opponents(anchor, free, size - 1, rng)
        seats = [anchor.id, *(bot.id for bot in opponents)]
        rng.shuffle(seats)
        return tuple(seats)

    def next_games(self, bots: Iterable[Bot], busy: Mapping[Hashable, int], slots: int,
                   now: Any, rng: random.Random,
                   authors_busy: Mapping[Hashable, int] | None = None) -> list[Table]:
        """Up to ``slots`` tables for free workers at once.

        Each table counts for the next: its bots are busy, have one more game and last played
        ``now``, and its authors have one more game running, so the next table goes to the
        bots owed a game most after it.
        """
        by_id = {bot.id: bot for bot in bots}
        busy = Counter(busy)
        authors_busy = Counter(authors_busy or {})
        tables = []
        while len(tables) < slots:
            table = self.next_game(by_id.values(), busy, rng, authors_busy)
            if table is None:
                break
            tables.append(table)
            authors_busy.update({by_id[bot_id].author for bot_id in table} - {None})
            for bot_id in table:
                busy[bot_id] += 1
                by_id[bot_id] = dataclasses.replace(by_id[bot_id], games=by_id[bot_id].games + 1,
                                                    last_played=now, new=False)
        return tables

    def _free(self, bot: Bot, busy: Mapping[Hashable, int],
              authors_busy: Mapping[Hashable, int]) -> bool:
        if bot.paused or busy.get(bot.id, 0) >= self.games_at_once:
            return False
        if authors_busy.get(bot.author, 0) >= self.author_games.get(bot.author, math.inf):
            return False
        return not bot.reference or self.references_per_table != 0

    def _references_allowed(self, count: int) -> int:
        if self.references_per_table is None:
            return count
        return min(count, self.references_per_table)

    def _size(self, free: list[Bot], waiting: int) -> int | None:
        """The largest allowed size these free bots can fill, ``waiting`` bots left out.

        Any free bot can anchor such a table: the seats it needs are the same for every anchor.
        """
        others = [bot for bot in free if not bot.reference]
        references = self._references_allowed(len(free) - len(others))
        seatable = min(len(others) - waiting, author_seats(others, self.per_author)) + references
        return max((size for size in self.sizes if size <= seatable), default=None)

    def _opponents(self, anchor: Bot, free: list[Bot], count: int,
                   rng: random.Random) -> list[Bot]:
        """``count`` bots at random among the ``window`` free bots nearest the anchor's mu,
        those ahead of it only to fill the table."""
        references_left = self._references_allowed(len(free)) - anchor.reference
        seated = Counter([anchor.author])
        def order(bot):
            # Bots ahead last, in random order: they only fill the table. Not the fewest games
            # first: a table that lasts (a slow author's bot anchors it) would draw again the
            # same bots it held back.
            ahead = self._ahead(bot, anchor)
            return (ahead, 0 if ahead else abs(bot.mu - anchor.mu), rng.random())

        nearest = sorted((bot for bot in free if bot.id != anchor.id), key=order)
        pool = []
        for bot in nearest:
            if self._ahead(bot, anchor) and len(pool) >= count:
                break
            if bot.reference:
                if references_left == 0:
                    continue
                references_left -= 1
            elif bot.author is not None and self.per_author is not None:
                if seated[bot.author] == self.per_author:
                    continue
                seated[bot.author] += 1
            pool.append(bot)
            if len(pool) == max(self.window, count):
                break
        return rng.sample(pool, count)

    def _ahead(self, bot: Bot, anchor: Bot) -> bool:
        return bot.games > anchor.games + self.lead


def fair_shares(wants: Mapping[Hashable, int], slots: int) -> dict[Hashable, int]:
    """Each author's share of ``slots`` games at once, max-min fair: ``wants`` is the most
    games each author's bots could be in at once (its bots not paused); authors wanting less
    than an equal share get what they want, the others share the rest equally. Every author
    gets at least one game, so nobody's bots wait for ever."""
    shares = {}
    left = slots
    ordered = sorted(wants.items(), key=lambda item: item[1])
    for i, (author, want) in enumerate(ordered):
        shares[author] = max(1, min(want, math.ceil(left / (len(ordered) - i))))
        left -= shares[author]
    return shares


def author_seats(bots: Iterable[Bot], per_author: int | None = PER_AUTHOR) -> int:
    """How many of these bots one table may seat, at most ``per_author`` of an author's (bots
    of nobody's each count)."""
    bots = list(bots)
    if per_author is None:
        return len(bots)
    authors = Counter(bot.author for bot in bots if bot.author is not None)
    return (sum(bot.author is None for bot in bots)
            + sum(min(count, per_author) for count in authors.values()))


def _idle_order(bot: Bot) -> tuple:
    """Sorts the longest idle first; a bot that never played before any that did."""
    return (bot.last_played is not None, bot.last_played)
