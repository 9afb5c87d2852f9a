"""The club night as pages: who is here, the plan (swap two people, confirm a round), tonight's
tables with their entry pages, and tonight's standings for a screen in the room.

Organisers of the season's club plan and confirm (league.nights does the work); the standings
are public, as every number on them already is on the season and game pages, and a screen in
the room should not need an organiser's session that could change results.
"""

import dataclasses
import datetime
import hashlib
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from league import nights, rounds, selectors, services
from league.api.permissions import organises
from league.errors import Conflict, LeagueError
from league.names import look_alike
from league.web import table_links
from league.web.night_season import club_night

POLL_SECONDS = 5  # how often the standings page asks for news
SWAPS_MAX = 50


def _refuse(request, message, status=403, back=None):
    return render(request, "league/night/refused.html", {"message": message, "back": back},
                  status=status)


def _not_organiser(request, season):
    return _refuse(request, f"Only organisers of {season.club} run its club nights; "
                            f"you are signed in as {request.user.get_username()}, who is not one.")


def _ints(values, what):
    """Whole numbers of 0 or more (at most 9 digits) from a form's texts, or a LeagueError
    naming the first that is not."""
    numbers = []
    for value in values:
        value = value.strip()
        if not _digits(value):
            raise LeagueError(f"{what} must be whole numbers of 0 or more; {value[:20]!r} is "
                              "not one")
        numbers.append(int(value))
    return numbers


def _digits(value):
    return value.isascii() and value.isdigit() and len(value) <= 9


def _one_int(data, name, what, default, low, high):
    value = data.get(name, "").strip()
    if value == "":
        return default
    if not _digits(value):
        raise LeagueError(f"{what} must be a whole number from {low} to {high}; "
                          f"{value[:20]!r} is not one")
    number = int(value)
    if not low <= number <= high:
        raise LeagueError(f"{what} must be {low} to {high}, not {number}")
    return number


class Asked:
    """What the organiser asked for: who is present, how many rounds, the preferred table size,
    the plan's seed and its swaps; read from a query string or a form, checked here."""

    def __init__(self, season, data):
        self.season = season
        self.sizes = nights.table_sizes(season)
        self.present = nights.club_players(season, _ints(data.getlist("present"),
                                                         "players present"))
        self.rounds = _one_int(data, "rounds", "The number of rounds", 1, 1, nights.ROUNDS_MAX)
        low, high = self.sizes.smallest, self.sizes.largest
        default = nights.preferred_default(self.sizes)
        self.low = _one_int(data, "low", "The smallest table preferred", default[0], low, high)
        self.high = _one_int(data, "high", "The largest table preferred", default[1], low, high)
        if self.low > self.high:
            raise LeagueError(f"the smallest table preferred ({self.low}) is larger than the "
                              f"largest ({self.high})")
        self.seed = _one_int(data, "seed", "The plan's seed", 0, 0, 2**31 - 1)
        # The round of tonight the plan is for (the night page says it): a link kept after
        # that round was confirmed cannot confirm it again.
        self.round = _one_int(data, "round", "The round", None, 1, 10_000)
        self.swaps = []
        self.swap_refused = ""
        by_id = {p.pk: p for p in self.present}
        swaps = [text.split("-") for text in data.getlist("swap")[:SWAPS_MAX] if text]
        if data.get("swap_a"):  # the swap form's one more
            swaps.append([data.get("swap_round", "0"), data["swap_a"], data.get("swap_b", "")])
        for parts in swaps:
            parts = _ints(parts, "A swap's round and players")
            if len(parts) != 3 or parts[1] not in by_id or parts[2] not in by_id:
                raise LeagueError("a swap names a round and two people present")
            if parts[1] != parts[2]:
                self.swaps.append((parts[0], by_id[parts[1]], by_id[parts[2]]))
            else:  # said at the swap form, the plan shown as it was
                self.swap_refused = (f"{by_id[parts[1]]} was chosen twice: choose two different "
                                     f"people to swap.")

    def query(self, **changes):
        """The query string that asks for this again, with ``changes``."""
        fields = {"present": [p.pk for p in self.present], "rounds": self.rounds,
                  "low": self.low, "high": self.high, "seed": self.seed,
                  "round": self.round or [],
                  "swap": [f"{i}-{a.pk}-{b.pk}" for i, a, b in self.swaps]}
        fields.update(changes)
        return urlencode(fields, doseq=True)


def _size_choices(season):
    sizes = nights.table_sizes(season)
    return list(range(sizes.smallest, sizes.largest + 1))


@club_night()
@login_required
def night(request, season):
    """Tonight's tables so far, and who is here for the next round (tick, or add a new player
    by name). Posting the form plans the next round(s) (a redirect to the plan page) or adds
    the player (the form again, everyone ticked as they were and the newcomer too)."""
    if not organises(request.user, season.club):
        return _not_organiser(request, season)
    tonight = rounds.night_of()
    sizes = _size_choices(season)
    default = nights.preferred_default(nights.table_sizes(season))
    data = request.POST if request.method == "POST" else request.GET
    ticks = nights.night_ticks(season, tonight)
    if request.method == "POST" or "present" in data:
        ticked = {i for i in _ints_or_none(data.getlist("present")) if i is not None}
    else:
        ticked = set(ticks.present)
    shown = {"rounds": _int_or(data.get("rounds"), 1),
             "low": _int_or(data.get("low"), default[0]),
             "high": _int_or(data.get("high"), default[1])}
    context = {"season": season, "sizes": sizes, "new_name": "", **shown}
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "add_player":
                context["new_name"] = request.POST.get("name", "")[:200]
                player = services.player_create(name=request.POST.get("name", ""),
                                                clubs=[season.club], by=request.user)
                messages.success(request, f"{player} added to {season.club} and ticked.")
                query = urlencode({"present": sorted(ticked | {player.pk}), **shown}, doseq=True)
                return redirect(reverse("league:night", args=[season.pk]) + "?" + query)
            if action != "plan":
                raise LeagueError("choose to add a player or to plan the tables")
            asked = Asked(season, request.POST)
            # Too few or too many people for the tables: said here, the ticks kept.
            nights.table_sizes(season, (asked.low, asked.high)).split(len(asked.present))
            round_next = len(rounds.night_rounds(season, tonight)) + 1
            return redirect(reverse("league:night_plan", args=[season.pk]) + "?"
                            + asked.query(round=round_next))
        except LeagueError as e:
            context["error"] = e.message
            context["name_refused"] = action == "add_player"
            if action == "add_player":
                context["error"] += _name_taken(season, request.POST.get("name", ""), ticked)
            status = 400
    board = nights.night_board(season, tonight)
    players = list(selectors.club_players(club=season.club))
    still_playing = nights.still_playing(season, players)
    where = {p.pk: s.where for s in still_playing for p in s.players}
    context.update({"board": board, "players": [(p, where.get(p.pk)) for p in players],
                    "still_playing": still_playing,
                    "ticked": ticked, "round_next": len(board.rounds) + 1,
                    "called_off": ticks.called_off, "playing_on": ticks.playing_on,
                    "ended": nights.night_ended(season, tonight),
                    "table_cards": table_links.table_cards(request, board),
                    "tables_unlinked": table_links.tables_unlinked(board),
                    "revoke_asked": request.GET.get("revoke"),
                    "cancellable": [i for i, tables in enumerate(board.rounds, 1)
                                    if not any(t.deals for t in tables)]})
    return render(request, "league/night/night.html", context, status=status)


def _name_taken(season, name, ticked):
    """What to do when the club has a player of the name typed: ticked here (likely who
    came, missed in the list), or a newcomer of that name told apart. Adds the player's id to
    ``ticked``; '' when no club player has the name."""
    taken = [p for p in selectors.club_players(club=season.club) if look_alike(name, p.name)]
    if not taken:
        return ""
    ticked.add(taken[0].pk)
    return (f": ticked above, if {taken[0]} is who came; someone new of that name needs a name "
            f"that tells them apart (say '{taken[0]} B.')")


def _ints_or_none(values):
    return [int(v) if v.isascii() and v.isdigit() and len(v) < 10 else None for v in values]


def _int_or(text, default):
    (number,) = _ints_or_none([text or ""])
    return default if number is None else number


@club_night()
@login_required
def night_plan(request, season):
    """The plan for the players asked for: tables in seat order with first dealers, the plan's
    repeat counts, swap two people, confirm the first round. Writes nothing."""
    if not organises(request.user, season.club):
        return _not_organiser(request, season)
    back = reverse("league:night", args=[season.pk])
    try:
        asked = Asked(season, request.GET)
        back += "?" + asked.query(swap=[], seed=[])
        plan = nights.night_plan(season=season, present=asked.present, rounds=asked.rounds,
                                 preferred=(asked.low, asked.high), seed=asked.seed,
                                 swaps=asked.swaps)
    except LeagueError as e:
        return _refuse(request, f"No plan: {e.message.rstrip('.')}.", status=400, back=back)
    tonight = rounds.night_rounds(season, rounds.night_of())
    round_next = asked.round or len(tonight) + 1
    confirmed = tonight[round_next - 1] if round_next <= len(tonight) else None
    # Where its first round's tables will show once confirmed: latecomers while a round plays
    # are more tables of it (league.rounds), and the page says so.
    first, table_first = rounds.new_tables_at(season, rounds.night_of(), asked.present)
    if confirmed:
        first, table_first = round_next, 1
    more_tables = first <= len(tonight) and not confirmed
    still_playing = nights.still_playing(season, asked.present)
    repeats = plan.repeats
    if more_tables:  # the plan counts its rounds from the next round: said where they will be
        planned = len(tonight) + 1  # the plan's first round, as night_plan numbers it
        repeats = [dataclasses.replace(
            r, round=r.round - 1, table=r.table + (table_first - 1) * (r.round == planned),
            earlier=[n - (n >= planned) for n in r.earlier]) for r in repeats]
    return render(request, "league/night/plan.html", {
        "season": season, "asked": asked, "plan": plan, "back": back,
        "round_next": round_next, "confirmed": confirmed,
        "more_tables": more_tables,
        "playing": rounds.tables_named(rounds.in_play(tonight[-1])) if tonight else "",
        "round_playing": len(tonight),
        "repeats": repeats,
        "still_playing": still_playing,
        "still_seated": sum(len(s.players) for s in still_playing),
        "rounds": [(first + i, planned, table_first if i == 0 else 1)
                   for i, planned in enumerate(plan.rounds)],
        "confirm": [(",".join(str(p.pk) for p in t.seats), t.dealer.pk)
                    for t in plan.rounds[0].tables],
        "swaps": [f"{i}-{a.pk}-{b.pk}" for i, a, b in asked.swaps],
        "token": uuid.uuid4().hex,
        "again": asked.query(seed=asked.seed + 1, swap=[]),
        "plain": asked.query(swap=[]),
        "people": sorted(asked.present, key=lambda p: p.name),
        "sizes_words": _sizes_words([len(t.seats) for t in plan.rounds[0].tables],
                                    asked.low, asked.high),
    }, status=400 if asked.swap_refused else 200)


def _sizes_words(sizes, low, high) -> str:
    """The tables the plan made of the people present: "13 people at 3 tables: 4, 4 and 5
    players"; with the sizes preferred when a table could not keep to them ("2 people at 1
    table of 2, outside the 4 to 5 preferred: as close as 2 people allow")."""
    people = sum(sizes)
    if len(sizes) == 1:
        words = f"{people} people at 1 table of {people}"
    else:
        listed = ", ".join(map(str, sizes[:-1])) + f" and {sizes[-1]}"
        words = f"{people} people at {len(sizes)} tables: {listed} players"
    if all(low <= size <= high for size in sizes):
        return words
    preferred = f"{low}" if low == high else f"{low} to {high}"
    return f"{words}, outside the {preferred} preferred: as close as {people} people allow"


def _posted_tables(request, season):
    """The round's tables as posted: ``table`` (player ids in seat order, comma separated)
    and ``dealer`` (the first dealer's player id) once per table, as (players, dealer's
    seat)."""
    tables = request.POST.getlist("table")
    dealers = _ints(request.POST.getlist("dealer"), "First dealers")
    if not tables or len(tables) != len(dealers):
        raise LeagueError("each table needs its players and its first dealer")
    if len(tables) > nights.PEOPLE_MAX:
        raise LeagueError(f"at most {nights.PEOPLE_MAX} tables at once")
    seated = [nights.club_players(season, _ints(t.split(","), "Players")) for t in tables]
    nights.club_players(season, [p.pk for players in seated for p in players])  # one table
    confirmed = []
    for players, dealer in zip(seated, dealers, strict=True):
        ids = [p.pk for p in players]
        if dealer not in ids:
            raise LeagueError("a table's first dealer must sit at that table")
        confirmed.append((players, ids.index(dealer)))
    return confirmed


@club_night()
@login_required
@require_POST
def night_confirm(request, season):
    """Create the round's games as posted (_posted_tables) for the round of tonight the plan
    was for (``round``). A second post of the same form (its token) creates nothing more; a
    round already confirmed is refused; while the round before is in play, the organiser is
    asked first (``while_in_play`` when they say yes)."""
    if not organises(request.user, season.club):
        return _not_organiser(request, season)
    back = reverse("league:night", args=[season.pk])
    try:
        round_number = _one_int(request.POST, "round", "The round", None, 1, 10_000)
        tables = _posted_tables(request, season)
        games, created = nights.night_confirm_once(
            season=season, tables=tables, by=request.user,
            token=request.POST.get("token", "")[:64], round_number=round_number,
            while_in_play=request.POST.get("while_in_play") == "1")
    except nights.RoundInPlay as e:
        joined, table_first = rounds.new_tables_at(season, rounds.night_of(),
                                                   [p for players, _ in tables for p in players])
        return render(request, "league/night/confirm_in_play.html", {
            "season": season, "message": e.message, "round": joined,
            "more_tables": table_first > 1,  # beside the tables of a round already there
            "new_tables": range(table_first, table_first + len(tables)),
            "fields": [(k, v) for k in request.POST if k != "csrfmiddlewaretoken"
                       for v in request.POST.getlist(k)], "back": back}, status=409)
    except Conflict as e:
        return _refuse(request, f"Nothing was created: {e.message}.", status=409, back=back)
    except LeagueError as e:
        return _refuse(request, f"Nothing was created: {e.message.rstrip('.')}.", status=400,
                       back=back)
    numbers = ", ".join(str(n) for n in games)
    if created:
        messages.success(request, f"{_confirmed_words(season, games)}. Each table enters its "
                                  "deals on a phone.")
    else:
        messages.info(request, f"This round was already confirmed (games {numbers}): "
                               "nothing more was created.")
    planned = min(max(_int_or(request.POST.get("rounds"), 1), 1), nights.ROUNDS_MAX)
    query = {"rounds": max(1, planned - 1), "low": request.POST.get("low", ""),
             "high": request.POST.get("high", "")}
    return redirect(back + "?" + urlencode({k: v for k, v in query.items() if v}))


def _confirmed_words(season, numbers):
    """What a confirm created, as tonight's tables show it: "Round 2 confirmed: table 1
    (game 5), table 2 (game 6)", or "1 more table of round 1 confirmed: table 3 (game 7)"."""
    for index, tables in enumerate(rounds.night_rounds(season, rounds.night_of()), 1):
        created = [(game, table) for game, table in tables if game.number in numbers]
        if created:
            what = (f"Round {index}" if len(created) == len(tables) else
                    f"{len(created)} more table{'s' if len(created) > 1 else ''} of round {index}")
            return f"{what} confirmed: {rounds.tables_named(created)}"
    return f"Confirmed: game{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"


# Tonight's standings: public, read-only


def _night_asked(request):
    """The night asked for (?night=YYYY-MM-DD), tonight by default."""
    text = request.GET.get("night", "")
    if not text:
        return rounds.night_of()
    try:
        night = datetime.date.fromisoformat(text)
    except ValueError:
        raise LeagueError(f"a night is a date written YYYY-MM-DD, not {text[:20]!r}") from None
    if not datetime.MINYEAR < night.year < datetime.MAXYEAR:  # its hours must fit the calendar
        raise LeagueError(f"no club night can be shown for {night.isoformat()}: a night is a "
                          f"date from {datetime.MINYEAR + 1:04}-01-01 to "
                          f"{datetime.MAXYEAR - 1}-12-31")
    return night


def _board_context(season, night):
    board = nights.night_board(season, night)
    return {"season": season, "board": board,
            "today": night == rounds.night_of(),
            "points_hint": "fewest points lead" if board.fewer_points_first
            else "most points lead"}


def _asked_board(request, season):
    """The night asked for and its board's context; LeagueError for a bad night."""
    night = _night_asked(request)
    return night, _board_context(season, night)


@club_night()
def tonight(request, season):
    try:
        night, context = _asked_board(request, season)
    except LeagueError as e:
        return _refuse(request, e.message, status=400)
    query = f"?night={night.isoformat()}"
    context.update({"poll_url": reverse("league:tonight_json", args=[season.pk]) + query,
                    "poll_seconds": POLL_SECONDS,
                    "organiser": organises(request.user, season.club)})
    return render(request, "league/night/tonight.html", context)


@club_night()
def recap(request, season):
    """Each player's night against role par: how lucky their roles were, how they played."""
    try:
        _, context = _asked_board(request, season)
    except LeagueError as e:
        return _refuse(request, e.message, status=400)
    context["players"] = sorted((t for t in context["board"].totals if t.par),
                                key=lambda t: -t.par.better)
    return render(request, "league/night/recap.html", context)


@club_night(json=True)
def tonight_json(request, season):
    """The standings page's news: the board as data and as the page's HTML fragment."""
    try:
        night = _night_asked(request)
    except LeagueError as e:
        return JsonResponse({"error": e.message}, status=400)
    context = _board_context(season, night)
    board = context["board"]
    html = render_to_string("league/night/_board.html", context, request)
    return JsonResponse({
        "night": night.isoformat(),
        "done": board.done,
        "version": hashlib.sha256(html.encode()).hexdigest()[:16],
        "tables": [{"game": t.game.number, "round": r, "state": t.state, "deals": t.deals,
                    "players": [{"name": s.player.name, "points": s.points,
                                 "leading": s.player_id in t.leaders} for s in t.seats]}
                   for r, tables in enumerate(board.rounds, 1) for t in tables],
        "totals": [{"name": t.player.name, "games": t.games, "wins": t.wins,
                    "points": t.points, "deals": t.deals,
                    "over_par": round(t.par.over, 2) if t.par else None}
                   for t in board.totals],
        "html": html,
    })
