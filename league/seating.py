"""Seating for a club night: split the people present into tables, round after round.

Plain Python, no Django: the league's services bridge it to the database in one place. People
are any sortable, hashable values (player ids). How it works and why is in docs/seating.md:

1. Table sizes: the fewest tables whose sizes, as equal as they can be, lie in the organiser's
   preferred range (or, failing that, as close to it as the allowed range lets them).
2. Who sits at which table: for every round, a greedy start (each person in turn to the table
   where their meetings cost least), then simulated annealing over the whole night that moves
   one person between tables or swaps two, keeping the cheapest night seen. Deterministic for
   a seed: the search's steps are capped at MAX_STEPS, and the cooling follows the steps, so
   the plan never depends on the clock (a time budget is only a safety net, SAFETY_NET).
3. Seat order, round by round: the Hungarian method gives each table the seat order in which
   people least often sat in the same seat before. First dealers: at each table the one who has
   dealt first least often, then first deals handed on along chains of tables until no one has
   dealt first two times more than someone who could take one over.
4. The cheapest of that plan and of RANDOM_TRIES random seatings (``random_night`` from the
   seed and the next ones, their first dealers chosen as in 3), so the plan never costs more
   than those random seatings; the plan itself wins a tie.

A meeting is two people at one table in one round. Its cost is REPEAT when the pair has met
before (earlier tonight or earlier in the season), plus EARLIER_MEETING for each earlier
meeting, plus BACK_TO_BACK when they also met in the round just before.
"""

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from league.errors import LeagueError

REPEAT = 10
EARLIER_MEETING = 1
BACK_TO_BACK = 15
STEPS = 500  # annealing steps per person and round
# At most this many annealing steps in all: about 2 s on an idle machine when set (7 to 8 µs a
# step; about 3 µs since _anneal's hot loop was inlined, so under 1 s now), half the 500,000
# that the caps of league/nights.py would take (docs/seating.md "Time").
MAX_STEPS = 250_000
HOT, COLD = 8.0, 4.0  # annealing temperatures, in units of cost (a repeat costs 11 or more)
RANDOM_TRIES = 3  # random seatings the plan is compared with (step 4 below)
CLOCK_EVERY = 256  # annealing steps between two looks at the clock (about 2 ms of steps)
# The search stops at SAFETY_NET times the time budget only: the steps' cap fits the budget on
# a machine up to SAFETY_NET times slower than expected, and there the plan is the seed's alone.
SAFETY_NET = 5

Person = Hashable


class SeatingError(LeagueError):
    """The people present cannot be seated as asked (too few, or no table sizes fit)."""


@dataclass(frozen=True)
class TableSizes:
    """Players per table: the allowed range (from the preset) and the organiser's preference."""

    smallest: int
    largest: int
    preferred: tuple[int, int] | None = None  # defaults to the allowed range

    def __post_init__(self):
        if not 1 <= self.smallest <= self.largest:
            raise SeatingError(f"Table sizes {self.smallest} to {self.largest} are not a range "
                               "of at least one player.")
        low, high = self.preferred or (self.smallest, self.largest)
        if not self.smallest <= low <= high <= self.largest:
            raise SeatingError(f"The preferred table size {low} to {high} is not within the "
                               f"allowed {self.smallest} to {self.largest} players.")

    def split(self, people: int) -> list[int]:
        """Sizes of the tables for this many people, as equal as possible, smallest first."""
        if people == 0:
            raise SeatingError("No one is present to seat.")
        low, high = self.preferred or (self.smallest, self.largest)
        fits = []
        for count in range(1, people + 1):
            sizes = [people // count + (i >= count - people % count) for i in range(count)]
            if self.smallest <= sizes[0] and sizes[-1] <= self.largest:
                outside = sum(max(low - size, size - high, 0) for size in sizes)
                fits.append((outside, count, sizes))
        if not fits:
            raise SeatingError(f"{people} {'person' if people == 1 else 'people'} cannot be "
                               f"split into tables of "
                               f"{self.smallest} to {self.largest} players.")
        return min(fits)[2]


@dataclass(frozen=True)
class Table:
    seats: tuple[Person, ...]  # in seat order: seat 1 first
    dealer: Person  # the first dealer, one of the seated people


@dataclass(frozen=True)
class Round:
    number: int  # the round's index in the season; consecutive rounds differ by one
    tables: tuple[Table, ...]

    def seated(self) -> list[Person]:
        return [person for table in self.tables for person in table.seats]


@dataclass(frozen=True)
class History:
    """What the season so far says: who met whom in which rounds, who sat where, who dealt first.

    ``met`` maps a pair (a frozenset of two people) to the round numbers they met in;
    ``seats`` maps a person to how often they sat in each seat (seat 1 is index 0);
    ``dealers`` maps a person to how often they were first dealer.
    """

    met: Mapping[frozenset, Sequence[int]] = field(default_factory=dict)
    seats: Mapping[Person, Sequence[int]] = field(default_factory=dict)
    dealers: Mapping[Person, int] = field(default_factory=dict)

    @classmethod
    def from_rounds(cls, rounds: Iterable[Round]) -> "History":
        return cls().extended(rounds)

    def extended(self, rounds: Iterable[Round]) -> "History":
        """This history with more rounds played (e.g. tonight's first round, before the next)."""
        met = {pair: list(numbers) for pair, numbers in self.met.items()}
        seats = {person: list(counts) for person, counts in self.seats.items()}
        dealers = Counter(self.dealers)
        for played in rounds:
            for table in played.tables:
                for a, b in combinations(table.seats, 2):
                    met.setdefault(frozenset((a, b)), []).append(played.number)
                for seat, person in enumerate(table.seats):
                    counts = seats.setdefault(person, [])
                    counts.extend([0] * (seat + 1 - len(counts)))
                    counts[seat] += 1
                dealers[table.dealer] += 1
        return History(met=met, seats=seats, dealers=dict(dealers))

    def last_round(self) -> int:
        return max((max(numbers) for numbers in self.met.values() if numbers), default=-1)


@dataclass(frozen=True)
class Score:
    """How good a night's plan is; lower is better everywhere."""

    repeats: int  # meetings of a pair who had met before, tonight or in the season
    back_to_back: int  # meetings of a pair who met in the round just before
    meeting_cost: int  # the weighted cost of the meetings (module docstring)
    seat_cost: int  # per person and round: earlier times in the same seat
    dealer_cost: int  # per first dealer: earlier times they dealt first
    seat_spread: int  # for one person, most minus fewest times in a seat that every table has
    dealer_spread: int  # most minus fewest first deals among tonight's people

    @property
    def cost(self) -> int:
        return self.meeting_cost + self.seat_cost + self.dealer_cost


def plan_night(present: Sequence[Collection[Person]], sizes: TableSizes,
               history: History | None = None, *, first_round: int | None = None,
               seed: int = 0, budget: float | None = None,
               clock: Callable[[], float] = time.monotonic) -> list[Round]:
    """Plan the rounds of a night, ``present[i]`` being the people present in round i.

    Rounds are numbered from ``first_round`` (default: right after the history's last round).
    To plan round by round, plan one round, then plan the next with ``history.extended``.
    The search takes at most MAX_STEPS steps, so the same inputs and seed give the same plan
    on any machine. ``budget``: seconds of ``clock`` the plan is meant to take; the search
    stops early only once SAFETY_NET times the budget is spent, with the cheapest night found
    so far (seats and first dealers still follow): a safety net for a machine far slower than
    expected, never reached at the expected pace.
    """
    deadline = None if budget is None else clock() + SAFETY_NET * budget
    history = history or History()
    rng = random.Random(seed)
    first = history.last_round() + 1 if first_round is None else first_round
    people, rounds = _index(present, sizes)
    meetings = _Meetings(people, history, first)
    night = [_greedy(meetings, number, persons, table_sizes, rng)
             for number, (persons, table_sizes) in enumerate(rounds)]
    _anneal(meetings, night, rng, deadline, clock)
    plan = [[[people[i] for i in table] for table in tables] for tables in night]
    planned = _seat(plan, history, first, rng)
    # Seats are chosen round by round, so a lucky random seating can cost less: keep it then.
    tries = [_with_first_dealers(random_night(present, sizes, history, first_round=first,
                                               seed=seed + k), history, rng)
             for k in range(RANDOM_TRIES)]
    return min([planned, *tries], key=lambda tried: score(tried, history).cost)


def _with_first_dealers(night: list[Round], history: History, rng) -> list[Round]:
    """The night with the same seats and its first dealers chosen as the planner's are."""
    tables = [[table.seats for table in played.tables] for played in night]
    dealers = iter(_first_dealers(tables, Counter(history.dealers), rng))
    return [Round(number=played.number,
                  tables=tuple(Table(seats=table.seats, dealer=next(dealers))
                               for table in played.tables)) for played in night]


def random_night(present: Sequence[Collection[Person]], sizes: TableSizes,
                 history: History | None = None, *, first_round: int | None = None,
                 seed: int = 0) -> list[Round]:
    """A random plan with the same table sizes: the baseline the planner must beat."""
    history = history or History()
    rng = random.Random(seed)
    first = history.last_round() + 1 if first_round is None else first_round
    people, rounds = _index(present, sizes)
    planned = []
    for number, (persons, table_sizes) in enumerate(rounds, start=first):
        persons = [people[i] for i in persons]
        rng.shuffle(persons)
        tables, start = [], 0
        for size in table_sizes:
            seats = tuple(persons[start:start + size])
            tables.append(Table(seats=seats, dealer=rng.choice(seats)))
            start += size
        planned.append(Round(number=number, tables=tuple(tables)))
    return planned


def swap(plan: Sequence[Round], number: int, a: Person, b: Person) -> list[Round]:
    """The plan with ``a`` and ``b`` exchanging seats in round ``number``; whoever takes the
    first dealer's seat deals first."""
    rounds = {played.number: played for played in plan}
    if number not in rounds:
        raise SeatingError(f"There is no round {number} in this plan.")
    seated = rounds[number].seated()
    for person in (a, b):
        if person not in seated:
            raise SeatingError(f"{person} is not seated in round {number}.")
    exchange = {a: b, b: a}

    def moved(table):
        return Table(seats=tuple(exchange.get(p, p) for p in table.seats),
                     dealer=exchange.get(table.dealer, table.dealer))

    return [Round(number=played.number, tables=tuple(moved(t) for t in played.tables))
            if played.number == number else played for played in plan]


def score(plan: Sequence[Round], history: History | None = None) -> Score:
    """The plan's cost against the season so far (history holds only earlier rounds)."""
    history = history or History()
    met = {pair: sorted(numbers) for pair, numbers in history.met.items()}
    seats = {person: Counter(dict(enumerate(counts))) for person, counts in history.seats.items()}
    dealers = Counter(history.dealers)
    repeats = back_to_back = meeting_cost = seat_cost = dealer_cost = 0
    tonight = set()
    for played in sorted(plan, key=lambda r: r.number):
        for table in played.tables:
            for a, b in combinations(table.seats, 2):
                before = met.setdefault(frozenset((a, b)), [])
                repeats += bool(before)
                back_to_back += played.number - 1 in before
                meeting_cost += _meeting_cost(len(before), played.number - 1 in before)
                before.append(played.number)
            for seat, person in enumerate(table.seats):
                counts = seats.setdefault(person, Counter())
                seat_cost += counts[seat]
                counts[seat] += 1
                tonight.add(person)
            dealer_cost += dealers[table.dealer]
            dealers[table.dealer] += 1
    every_table = range(min((len(t.seats) for r in plan for t in r.tables), default=0))
    seat_spread = max((max(seats[p][s] for s in every_table) -
                       min(seats[p][s] for s in every_table) for p in tonight), default=0)
    dealt = [dealers[p] for p in tonight]
    return Score(repeats=repeats, back_to_back=back_to_back, meeting_cost=meeting_cost,
                 seat_cost=seat_cost, dealer_cost=dealer_cost, seat_spread=seat_spread,
                 dealer_spread=max(dealt, default=0) - min(dealt, default=0))


@dataclass(frozen=True)
class Repeat:
    """A meeting of a pair who had met before: where (round number, table index from 0) and
    the rounds they met in before (the season's and the plan's)."""

    pair: tuple[Person, Person]  # in sorted order
    round: int
    table: int
    earlier: tuple[int, ...]

    @property
    def back_to_back(self) -> bool:
        return self.round - 1 in self.earlier


def repeats(plan: Sequence[Round], history: History | None = None) -> list[Repeat]:
    """The plan's repeats (``score(...).repeats`` counts them), round by round, table by
    table: which pairs meet again and where."""
    history = history or History()
    met = {pair: list(numbers) for pair, numbers in history.met.items()}
    found = []
    for played in sorted(plan, key=lambda r: r.number):
        for index, table in enumerate(played.tables):
            for a, b in combinations(sorted(table.seats), 2):
                before = met.setdefault(frozenset((a, b)), [])
                if before:
                    found.append(Repeat(pair=(a, b), round=played.number, table=index,
                                        earlier=tuple(sorted(before))))
                before.append(played.number)
    return found


def repeats_lower_bound(present: Sequence[Collection[Person]], sizes: TableSizes,
                        history: History | None = None, *,
                        first_round: int | None = None) -> int:
    """No plan of these rounds has fewer repeats than this (docs/seating.md derives it).

    The largest of: the night's meetings less the pairs that have never met (each such pair
    meets once for free); per person, the fewest opponents they can have less the people they
    have never met, halved; and, between consecutive rounds, the pairs that must sit together
    again because a table takes more people than there were tables the round before.
    """
    history = history or History()
    first = history.last_round() + 1 if first_round is None else first_round
    people = sorted(set().union(*present))
    fresh = Counter()
    for a, b in combinations(people, 2):
        if not history.met.get(frozenset((a, b))):
            fresh[a] += 1
            fresh[b] += 1
    meetings = together = 0
    fewest_opponents = Counter()
    before = _tables_in(history, first - 1)
    tables_before, people_before = len(before), set().union(*before)
    for persons in map(set, present):
        table_sizes = sizes.split(len(persons))
        meetings += sum(size * (size - 1) // 2 for size in table_sizes)
        for person in persons:
            fewest_opponents[person] += table_sizes[0] - 1
        together += _forced_together(table_sizes, tables_before, len(persons & people_before))
        tables_before, people_before = len(table_sizes), persons
    by_pairs = meetings - sum(fresh.values()) // 2
    by_person = -(-sum(max(0, fewest_opponents[p] - fresh[p]) for p in people) // 2)
    return max(by_pairs, by_person, together, 0)


def _tables_in(history, number):
    """The tables of a round of the history, as sets of people (only tables of two or more:
    the history knows tables by the pairs who met at them)."""
    tables = {}
    for pair, numbers in history.met.items():
        if number in numbers:
            a, b = tuple(pair)
            table = tables.get(a, {a}) | tables.get(b, {b})
            for person in table:
                tables[person] = table
    return list({frozenset(table) for table in tables.values()})


def _forced_together(table_sizes, tables_before, staying):
    """The fewest pairs who sat at one table last round and sit at one table again, with
    ``staying`` people present in both rounds: a table's k-th person from last round adds
    (k - 1) // tables_before such pairs at best; they go where that costs least."""
    filled = [0] * len(table_sizes)
    together = 0
    for _ in range(staying):
        t = min((t for t in range(len(table_sizes)) if filled[t] < table_sizes[t]),
                key=lambda t: filled[t] // tables_before)
        together += filled[t] // tables_before
        filled[t] += 1
    return together


# The planner works on people numbered 0..n-1 in sorted order, so that a seed alone decides.

def _index(present, sizes):
    if not present:
        raise SeatingError("A night needs at least one round.")
    people = sorted(set().union(*present))
    number = {person: i for i, person in enumerate(people)}
    rounds = []
    for i, persons in enumerate(present, start=1):
        try:
            table_sizes = sizes.split(len(set(persons)))
        except SeatingError as error:
            raise SeatingError(f"Round {i}: {error.message}") from None
        rounds.append((sorted(number[p] for p in set(persons)), table_sizes))
    return people, rounds


def _meeting_cost(earlier: int, back_to_back: bool) -> int:
    """A meeting's cost after the pair's ``earlier`` meetings (the module docstring)."""
    if not earlier:
        return 0
    return REPEAT + EARLIER_MEETING * earlier + BACK_TO_BACK * back_to_back


class _Meetings:
    """Who meets whom tonight, with the season before: what a change of tables costs."""

    def __init__(self, people, history, first):
        index = {person: i for i, person in enumerate(people)}
        n = len(people)
        self.before = [[0] * n for _ in range(n)]  # meetings earlier in the season
        # Bit r + 1: they meet in tonight's round r; bit 0: they met in the round just before.
        self.rounds = [[0] * n for _ in range(n)]
        for pair, numbers in history.met.items():
            a, b = tuple(pair)
            if a in index and b in index:
                i, j = index[a], index[b]
                self.before[i][j] = self.before[j][i] = len(numbers)
                self.rounds[i][j] = self.rounds[j][i] = int(first - 1 in numbers)
        self.met = [row[:] for row in self.before]  # the season's meetings and tonight's
        self.start = [row[:] for row in self.rounds]

    def clear(self):
        self.met = [row[:] for row in self.before]
        self.rounds = [row[:] for row in self.start]

    def change(self, person, table, number, meet, absent=None):
        """The cost change if ``person`` starts (``meet``) or stops meeting the others at
        ``table`` in round ``number``, but for ``absent`` (who is leaving as they come).

        A pair's cost depends only on how often they meet and which of their meetings are in
        consecutive rounds, so each pair's change is one meeting more or less, and one
        back-to-back repeat more or less for each neighbouring round they meet in."""
        met, rounds = self.met[person], self.rounds[person]
        change = 0
        for other in table:
            if other != person and other != absent:
                earlier = met[other] - (not meet)
                neighbours = ((rounds[other] >> number) & 1) + ((rounds[other] >> (number + 2)) & 1)
                change += _meeting_cost(earlier, False) + BACK_TO_BACK * neighbours
        return change if meet else -change

    def set(self, i, j, number, meet):
        step = 1 if meet else -1
        self.met[i][j] += step
        self.met[j][i] += step
        self.rounds[i][j] ^= 1 << (number + 1)
        self.rounds[j][i] ^= 1 << (number + 1)

    def seat(self, night):
        self.clear()
        for number, tables in enumerate(night):
            for table in tables:
                for i, j in combinations(table, 2):
                    self.set(i, j, number, True)

    def total(self):
        cost = 0
        for i, row in enumerate(self.met):
            for j in range(i + 1, len(row)):
                for earlier in range(self.before[i][j], row[j]):
                    cost += _meeting_cost(earlier, False)
                rounds = self.rounds[i][j]
                cost += BACK_TO_BACK * (rounds & (rounds >> 1)).bit_count()
        return cost


def _greedy(meetings, number, persons, sizes, rng):
    """Each person, in a random order, to the table with room where they cost least."""
    persons = list(persons)
    rng.shuffle(persons)
    tables = [[] for _ in sizes]
    for person in persons:
        room = [t for t in range(len(sizes)) if len(tables[t]) < sizes[t]]
        best = min(room, key=lambda t: (meetings.change(person, tables[t], number, True),
                                        len(tables[t])))
        for other in tables[best]:
            meetings.set(person, other, number, True)
        tables[best].append(person)
    return tables


def _anneal(meetings, night, rng, deadline=None, clock=time.monotonic):
    """Simulated annealing over moves and swaps of people between tables, round by round.

    Moving one person to a table with one person fewer keeps the round's table sizes. Takes
    STEPS per person and round, cooling from HOT to COLD over them; at most MAX_STEPS, the
    last ones of that schedule. Ends with ``night`` and ``meetings`` at the cheapest plan
    seen, early only if ``clock`` reads ``deadline`` (the safety net); returns its cost.
    """
    cost = best = meetings.total()
    kept = [[table[:] for table in tables] for tables in night]
    rounds = [number for number, tables in enumerate(night) if len(tables) > 1]
    seated = sum(len(table) for tables in night for table in tables)
    steps = min(STEPS * seated, MAX_STEPS) if rounds else 0
    # A capped search takes the cooling's last MAX_STEPS steps, from the greedy start: the
    # steps before them are the hottest, which only wander above it.
    skipped = STEPS * seated - steps
    # The hot loop, up to MAX_STEPS steps: ``_Meetings.change`` inlined for ``a`` leaving
    # ``there`` and joining ``here`` (and ``b`` the other way), the same integer sum, with the
    # rows, the costs and rng's methods in local names (5.3 µs a step before, 3.0 after, idle).
    # A pair's part: ``cost_of[k]``, a meeting's cost after k earlier ones (a leaving pair's
    # meeting had ``met - 1``), plus the back-to-back repeats it makes with the rounds just
    # before and after (bits ``number`` and ``number + 2`` of ``rounds``: ``0b101`` shifted).
    met, together = meetings.met, meetings.rounds
    most = max(map(max, meetings.before), default=0) + len(night)
    cost_of = [_meeting_cost(earlier, False) for earlier in range(most + 1)]
    back_to_back = (0, BACK_TO_BACK, 0, 0, BACK_TO_BACK, 2 * BACK_TO_BACK)  # by those bits
    choice, sample, chance, exp = rng.choice, rng.sample, rng.random, math.exp
    for step in range(steps):
        if deadline is not None and step % CLOCK_EVERY == 0 and clock() >= deadline:
            break
        temperature = HOT * (COLD / HOT) ** ((skipped + step) / (skipped + steps))
        number = choice(rounds)
        tables = night[number]
        there, here = sample(tables, 2)
        a = choice(there)
        b = None if len(there) == len(here) + 1 and chance() < 0.5 else choice(here)
        a_met, a_rounds = met[a], together[a]
        change = 0
        if b is None:
            for x in there:
                if x != a:
                    change -= cost_of[a_met[x] - 1] + back_to_back[(a_rounds[x] >> number) & 5]
            for y in here:
                change += cost_of[a_met[y]] + back_to_back[(a_rounds[y] >> number) & 5]
        else:
            b_met, b_rounds = met[b], together[b]
            for x in there:
                if x != a:
                    change += (cost_of[b_met[x]] + back_to_back[(b_rounds[x] >> number) & 5]
                               - cost_of[a_met[x] - 1] - back_to_back[(a_rounds[x] >> number) & 5])
            for y in here:
                if y != b:
                    change += (cost_of[a_met[y]] + back_to_back[(a_rounds[y] >> number) & 5]
                               - cost_of[b_met[y] - 1] - back_to_back[(b_rounds[y] >> number) & 5])
        if change <= 0 or chance() < exp(-change / temperature):
            _move(meetings, number, a, b, there, here)
            cost += change
            if cost < best:
                best, kept = cost, [[table[:] for table in tables] for tables in night]
                if best == 0:
                    break
    night[:] = kept
    meetings.seat(night)
    return best


def _move(meetings, number, a, b, there, here):
    for x in there:
        if x != a:
            meetings.set(a, x, number, False)
            if b is not None:
                meetings.set(b, x, number, True)
    for y in here:
        if y != b:
            meetings.set(a, y, number, True)
            if b is not None:
                meetings.set(b, y, number, False)
    if b is None:
        there.remove(a)
        here.append(a)
    else:
        there[there.index(a)] = b
        here[here.index(b)] = a


def _seat(night, history, first, rng):
    """Seat order and first dealer for each table (see the module docstring)."""
    seats = {person: Counter(dict(enumerate(counts))) for person, counts in history.seats.items()}
    dealers = _first_dealers(night, Counter(history.dealers), rng)
    planned = []
    for number, tables in enumerate(night, start=first):
        seated = []
        for table in tables:
            counts = [seats.setdefault(person, Counter()) for person in table]
            order = _hungarian([[count[seat] for seat in range(len(table))] for count in counts])
            in_seats = [None] * len(table)
            for person, seat in zip(table, order, strict=True):
                in_seats[seat] = person
                seats[person][seat] += 1
            seated.append(Table(seats=tuple(in_seats), dealer=dealers.pop(0)))
        planned.append(Round(number=number, tables=tuple(seated)))
    return planned


def _first_dealers(night, dealt, rng):
    """The first dealer of every table of the night, in order, spread as evenly as the tables
    let them be: round by round, the one at each table who has dealt first least often; then,
    while someone has dealt first at least two more times than a person they can pass a first
    deal to (directly at one of their tables, or along a chain of such hand-overs), pass it."""
    tables = [table for tables in night for table in tables]
    dealers = []
    for table in tables:
        fewest = min(dealt[person] for person in table)
        dealers.append(rng.choice([person for person in table if dealt[person] == fewest]))
        dealt[dealers[-1]] += 1
    passed = True
    while passed:
        passed = False
        for giver in sorted(set(dealers), key=lambda person: -dealt[person]):
            chain = _hand_over(giver, tables, dealers, dealt)
            if chain:
                for t, person in chain:
                    dealers[t] = person
                dealt[giver] -= 1
                dealt[chain[-1][1]] += 1
                passed = True
                break
    return dealers


def _hand_over(giver, tables, dealers, dealt):
    """A chain (table, new dealer) ... passing one of ``giver``'s first deals on to someone
    who has dealt first at least two times fewer, found breadth first; None if there is none."""
    came_from = {giver: None}
    queue = [giver]
    for person in queue:
        for t, table in enumerate(tables):
            if dealers[t] != person:
                continue
            for other in table:
                if other in came_from:
                    continue
                came_from[other] = (t, person)
                if dealt[other] <= dealt[giver] - 2:
                    chain = []
                    while came_from[other]:
                        t, previous = came_from[other]
                        chain.append((t, other))
                        other = previous
                    return chain[::-1]
                queue.append(other)
    return None


def _hungarian(cost):
    """The assignment of rows to columns of a square matrix with the least total cost
    (Kuhn-Munkres with potentials, O(n^3)); returns each row's column."""
    n = len(cost)
    u, v = [0] * (n + 1), [0] * (n + 1)
    row_of, way = [0] * (n + 1), [0] * (n + 1)  # column j's row (1-based; 0 is free)
    for row in range(1, n + 1):
        row_of[0], column = row, 0
        least, used = [float("inf")] * (n + 1), [False] * (n + 1)
        while row_of[column]:
            used[column] = True
            here, delta, nearest = row_of[column], float("inf"), 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = cost[here - 1][j - 1] - u[here] - v[j]
                    if reduced < least[j]:
                        least[j], way[j] = reduced, column
                    if least[j] < delta:
                        delta, nearest = least[j], j
            for j in range(n + 1):
                if used[j]:
                    u[row_of[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            column = nearest
        while column:
            previous = way[column]
            row_of[column] = row_of[previous]
            column = previous
    columns = [0] * n
    for j in range(1, n + 1):
        columns[row_of[j] - 1] = j - 1
    return columns
