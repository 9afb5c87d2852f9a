"""The ladder's pages: everyone reads the table, a bot's page and a game's page; a bot's author
resumes it and starts challenge games from its page, and has a dashboard of their bots.

Thin: selectors read (the table from the entries' stored aggregates, never recomputed per
read), ``ladder.services`` writes, and a LadderError's message is shown as it is with a 400.
"""

import hashlib
from decimal import ROUND_HALF_UP, Decimal
from functools import wraps
from itertools import groupby

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import capfirst

from bot_games import selectors as bot_games
from gameplay.bots.base import FAULT_KINDS
from gameplay.runner.figures import rating_interval
from ladder import selectors, services
from ladder.errors import LadderError
from ladder.models import Entry
from ladder.web.forms import ChallengeForm, opponent_label
from league import replays
from league.errors import LeagueError
from league.models import PRESET_CHOICES

PRESETS = [p for p, _ in PRESET_CHOICES]
DEFAULT_PRESET = "classic"
ROWS_PER_PAGE = 100
LIVE_SECONDS = 10  # the table page asks for news this often
HISTORY_ROWS = 20  # the chart's text alternative: its latest points
DASHBOARD_FAULTS = 3  # latest faults per bot on the author's dashboard
FAULTS_PER_KIND = 5  # a bot's page lists this many of each kind's latest faults
GAME_FAULTS_OPEN = 10  # a game's page lists this many faults open, the rest folded


def _refuse(request, message: str, status: int = 403):
    return render(request, "ladder/refused.html", {"message": message}, status=status)


class _Missing(Exception):  # noqa: N818 (a page's 404, in words)
    """What a URL names is not there: answered with a 404 page saying what."""


def _in_words(*, post: bool = False):
    """A 404 page that says what is missing and, for a form's address (``post``) opened
    without its form, a 405 that says so, rather than Django's bare pages."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if post and request.method != "POST":
                response = _refuse(request, "This address takes a form sent from a bot's "
                                            "page; open the bot's page instead.", status=405)
                response["Allow"] = "POST"
                return response
            try:
                return view(request, *args, **kwargs)
            except _Missing as e:
                return _refuse(request, str(e), status=404)

        return wrapper

    return decorate


def _entry_or_404(entry_id) -> Entry:
    entry = selectors.entry_get(entry_id)
    if entry is None:
        raise _Missing(f"There is no bot {entry_id} on the ladder.")
    return entry


def _fixed(value, places: int, unit: str = "") -> str:
    """A number as the pages show it, rounded half up like the floatformat filter (which
    costs too much in a table of a hundred rows); "–" for none."""
    if value is None:
        return "–"
    return f"{Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)}{unit}"


def _row(entry: Entry) -> dict:
    """A bot's figures as the pages show them: rates in per cent, μ's 95% range as ± half,
    decision times in ms."""
    figures = selectors.figures(entry)
    low, high = figures["interval"]
    spread = (high - low) / 2
    rate = {k: None if figures[k] is None else 100 * figures[k]
            for k in ("first_out_rate", "last_rate")}
    return {"entry": entry, "owner": entry.author.get_username() if entry.author_id else "",
            "url": reverse("ladder:bot", args=[entry.pk]),
            "rating": _fixed(entry.ordinal, 2),
            "interval": f"{_fixed(entry.mu, 1)} ± {_fixed(spread, 1)}",
            "interval_2": f"{_fixed(entry.mu, 2)} ± {_fixed(spread, 2)}",
            "first_out": _fixed(rate["first_out_rate"], 0, "%"),
            "last": _fixed(rate["last_rate"], 0, "%"),
            "mean_position": _fixed(figures["mean_position"], 2),
            "points": _with_interval(figures["par"], "mean_points", "mean_points_ci"),
            "adjusted": _with_interval(figures["par"], "adjusted_mean", "adjusted_ci"),
            "median_ms": _milliseconds(entry.decision_median_ms),
            "p95_ms": _milliseconds(entry.decision_p95_ms)}


def _with_interval(par: dict, mean: str, interval: str) -> str:
    """A bot's points per deal with par (issue #31) and their 95% interval, or "no par"."""
    if not par["deals"]:
        return "no par"
    low, high = par[interval]
    return f"{_fixed(par[mean], 2)} [{_fixed(low, 2)}, {_fixed(high, 2)}]"


def _milliseconds(value) -> str:
    # A built-in bot decides in microseconds: "0.0" would read as no figure.
    return "<0.1" if value is not None and value < 0.05 else _fixed(value, 1)


# The table


def _news(html: str, *, done: bool, **about) -> JsonResponse:
    """A live page part's news: its fragment, and a version that changes when it does."""
    return JsonResponse({**about, "done": done, "html": html,
                         "version": hashlib.sha256(html.encode()).hexdigest()[:16]})


def _preset_asked(request) -> str:
    preset = request.GET.get("preset", DEFAULT_PRESET)
    if preset not in PRESETS:
        raise LadderError(f"There is no preset {preset[:40]!r}. The ladders are "
                          f"{', '.join(PRESETS)}.")
    return preset


def _order_asked(request) -> str:
    order = request.GET.get("order", "rating")
    if order not in selectors.ORDERS:
        raise LadderError(f"There is no order {order[:40]!r}. The table orders by "
                          f"{' or '.join(selectors.ORDERS)}.")
    return order


def _table_context(request, preset: str, order: str) -> dict:
    """The table's fragment (ladder/_table.html): the ranking's page (by ``order``), then the
    bots not yet rated."""
    page = Paginator(selectors.ladder_table(preset=preset, order=order),
                     ROWS_PER_PAGE).get_page(
        request.GET.get("page"))
    return {"preset": preset, "page": page, "order": order,
            "rows": [{"place": page.start_index() + i, **_row(e)} for i, e in enumerate(page)],
            "waiting": [_row(e) for e in selectors.not_yet_rated(preset=preset)]}


def table(request):
    try:
        preset, order = _preset_asked(request), _order_asked(request)
    except LadderError as e:
        return _refuse(request, e.message, status=400)
    return render(request, "ladder/table.html", {
        **_table_context(request, preset, order), "presets": PRESETS, "order": order,
        "with_authors": set(selectors.presets()),
        "live_url": f"{reverse('ladder:table_json')}?{request.GET.urlencode()}",
        "live_seconds": LIVE_SECONDS})


def table_json(request):
    """The table page's news (league/live.js)."""
    try:
        preset, order = _preset_asked(request), _order_asked(request)
    except LadderError as e:
        return JsonResponse({"error": e.message}, status=400)
    return _news(render_to_string("ladder/_table.html", _table_context(request, preset, order),
                                  request), done=False, preset=preset)


# A bot's page


def _is_author(user, entry: Entry) -> bool:
    bot = entry.outside_bot
    return bool(user.is_authenticated and not entry.reference and bot is not None
                and bot.owner_id == user.pk)


def _author_only(request, entry: Entry):
    """None for the bot's author; otherwise the 403 page saying who may."""
    if entry.reference:
        return _refuse(request, f"{entry.name} is a built-in reference bot: it has no author "
                                "to pause, resume, version or challenge with it.")
    if not request.user.is_authenticated:
        return _refuse(request, f"Sign in as the author of {entry.name} to pause or resume it, "
                                "start its new version or a challenge game with it.")
    removed = services.removed_bot_refusal(entry, request.user)
    if removed:
        return _refuse(request, f"{capfirst(removed)}.", status=409)
    if not _is_author(request.user, entry):
        return _refuse(request, f"Only the author of {entry.name} may pause or resume it, "
                                "start its new version or a challenge game with it.")
    return None


def _chart(points, versions: dict) -> dict:
    """The rating chart's data (ladder.js): a point after each rated game, and a mark at the
    first point of each new version, labelled with why it started."""
    intervals = [rating_interval(p.mu, p.sigma) for p in points]
    marks = [{"index": i, "version": p.version,
              "label": _version_label(p.version, versions.get(p.version))}
             for i, p in enumerate(points) if i and p.version != points[i - 1].version]
    return {"labels": [p.deals for p in points],
            "ordinal": [round(p.ordinal, 3) for p in points],
            "mu": [round(p.mu, 3) for p in points],
            "low": [round(low, 3) for low, _ in intervals],
            "high": [round(high, 3) for _, high in intervals],
            "versions": [p.version for p in points], "marks": marks}


def _version_label(number: int, version) -> str:
    return f"version {number}" + (f": {version.reason}" if version else "")


def _seat_of(game, entry: Entry):
    return next((s for s in game.seats.all() if s.entry_id == entry.pk), None)


def _bot_page(request, entry: Entry, *, status: int = 200, error: str = "", form=None):
    points = selectors.history(entry=entry)
    versions = selectors.versions(entry=entry)
    faults = list(selectors.faults(entry=entry))
    by_kind = {kind: list(group) for kind, group in groupby(
        sorted(faults, key=lambda f: (FAULT_KINDS.index(f.kind) if f.kind in FAULT_KINDS
                                      else len(FAULT_KINDS), -f.pk)), key=lambda f: f.kind)}
    kinds = sorted(set(entry.fault_kinds) | set(by_kind),
                   key=lambda k: FAULT_KINDS.index(k) if k in FAULT_KINDS else len(FAULT_KINDS))
    now = _bot_now(request, entry, versions)
    author = now["author"]
    opponents = []
    if author and entry.status in (Entry.ACTIVE, Entry.VALIDATING):  # a paused bot: no games
        form = form or ChallengeForm(opponents=selectors.challenge_opponents(entry=entry))
        opponents = [{"pk": str(pk), "label": opponent_label(*rest)}
                     for pk, *rest in selectors.challenge_choices(entry=entry)]
    return render(request, "ladder/bot.html", {
        **now, "error": error, "form": form, "live_seconds": LIVE_SECONDS,
        "opponents": opponents, "chosen": form.chosen() if form else set(),
        "chart": _chart(points, versions), "latest_points": points[::-1][:HISTORY_ROWS],
        "games": [(g, _seat_of(g, entry), [s for s in g.seats.all() if s.entry_id != entry.pk])
                  for g in selectors.recent_games(entry=entry)],
        "kinds": [(k, entry.fault_kinds.get(k, 0), len(by_kind.get(k, ()))) for k in kinds],
        "faults_by_kind": [(k, f[:FAULTS_PER_KIND], len(f) - FAULTS_PER_KIND)
                           for k, f in by_kind.items()],
        "faults_shown": selectors.RECENT_FAULTS,
        "challenges_left": selectors.challenges_left(user=request.user) if author else None,
        "challenge_seats": settings.LADDER_CHALLENGE_MAX_SEATS - 1,
    }, status=status)


def _bot_now(request, entry: Entry, versions: dict) -> dict:
    """What changes on a bot's page as its games land (ladder/_bot_now.html): its status,
    validation game, version, rating and figures."""
    return {"entry": entry, "row": _row(entry), "author": _is_author(request.user, entry),
            "version": versions.get(entry.version),
            "validation": selectors.validation_game(entry=entry),
            "validation_faults": selectors.validation_faults(entries=[entry]).get(entry.pk, 0),
            "resume_wait": services.resume_wait(entry),
            "pause_faults": settings.LADDER_PAUSE_FAULTS,
            "pause_share": f"{settings.LADDER_PAUSE_FAULT_SHARE:.0%}"}


@_in_words()
def bot(request, entry_id):
    return _bot_page(request, _entry_or_404(entry_id))


def bot_json(request, entry_id):
    """A bot page's news (league/live.js): its status and figures as the page's fragment."""
    entry = selectors.entry_get(entry_id)
    if entry is None:
        return JsonResponse({"error": f"There is no bot {entry_id} on the ladder."}, status=404)
    return _news(render_to_string(
        "ladder/_bot_now.html", _bot_now(request, entry, selectors.versions(entry=entry)),
        request), done=entry.status == Entry.RETIRED, entry=entry.pk)



def _by_author(request, entry_id, change, done: str):
    """A change only the bot's author makes (pause, resume, new version): 403 for anyone
    else, 400 with the refusal in words, else back to the bot's page saying ``done``."""
    entry = _entry_or_404(entry_id)
    refused = _author_only(request, entry)
    if refused:
        return refused
    try:
        change(entry=entry, by=request.user)
    except LadderError as e:  # shown as it is now: another tab may have changed it meanwhile
        return _bot_page(request, _entry_or_404(entry_id), status=400, error=e.message)
    messages.success(request, done.format(name=entry.name))
    return redirect("ladder:bot", entry.pk)


@_in_words(post=True)
def resume(request, entry_id):
    return _by_author(request, entry_id, services.entry_resume,
                      "{name} plays a validation game again; it is back on the ladder once "
                      "that game has no fault.")


@_in_words(post=True)
def pause(request, entry_id):
    return _by_author(request, entry_id, services.entry_pause,
                      "{name} is paused: it gets no new games. Resume it when you like.")


@_in_words(post=True)
def new_version(request, entry_id):
    return _by_author(request, entry_id, services.entry_new_version,
                      "{name} starts a new version: its figures start afresh, its rating goes "
                      "on less sure, and it plays a validation game first.")


@_in_words(post=True)
def challenge(request, entry_id):
    entry = _entry_or_404(entry_id)
    refused = _author_only(request, entry)
    if refused:
        return refused
    form = ChallengeForm(request.POST, opponents=selectors.challenge_opponents(entry=entry))
    if not form.is_valid():
        return _bot_page(request, entry, status=400, form=form,
                         error="The challenge was not started: " + " ".join(
                             form.errors.get("opponents", [])))
    try:
        game = services.challenge_create(by=request.user, entry=entry,
                                         opponents=form.cleaned_data["opponents"])
    except LadderError as e:
        return _bot_page(request, _entry_or_404(entry_id), status=400, form=form,
                         error=e.message)
    messages.success(request, f"Challenge game {game.pk} started: it plays when a worker is "
                              "free, and is not rated.")
    return redirect("ladder:game", game.pk)


# A game's page


def _game_or_404(game_id):
    game = selectors.game_get(game_id)
    if game is None:
        raise _Missing(f"There is no ladder game {game_id}.")
    return game


@_in_words()
def game(request, game_id):
    game = _game_or_404(game_id)
    seats = list(game.seats.all())
    deals = max((len(s.positions) for s in seats), default=0)
    orders = [[s for s in sorted(seats, key=lambda s: s.positions[d])]
              for d in range(deals) if all(len(s.positions) > d for s in seats)]
    steps, replay_error, logs, stderr = None, "", [], []
    log_seats = _log_seats(request.user, seats)
    if game.bot_game:
        try:
            steps = replays.transcript_steps(game.bot_game.transcript,
                                             names=[s.entry.name for s in seats])
        except LeagueError as e:
            replay_error = e.message
        else:
            logs = bot_games.replay_marked(steps, game_id=game.bot_game_id,
                                           log_seats=log_seats)
        names = {s.seat: s.entry.name for s in seats}
        stderr = [(names[seat], text) for seat, text in
                  bot_games.seats_stderr(game_id=game.bot_game_id, log_seats=log_seats)]
    faults = selectors.game_faults(game=game, seats=seats)
    seen = set()
    for fault in faults:  # an error page said again and again is shown once
        fault.body_again = (fault.seat, fault.body) in seen
        seen.add((fault.seat, fault.body))
    return render(request, "ladder/game.html", {
        "game": game, "seats": seats, "orders": orders, "stderr": stderr,
        "faults": faults[:GAME_FAULTS_OPEN], "more_faults": faults[GAME_FAULTS_OPEN:],
        "logs": logs,
        "log_seats": log_seats,
        "steps": steps, "replay_error": replay_error, "title": f"ladder game {game.pk}"})


def _log_seats(user, seats) -> set[int]:
    """The seats whose bots' logs ``user`` reads: their own bots' (staff: every seat's)."""
    return {s.seat for s in seats
            if user.is_staff or (user.is_authenticated and s.entry.author_id == user.pk)}


@_in_words()
def transcript(request, game_id):
    game = _game_or_404(game_id)
    if not game.bot_game:
        return _refuse(request, f"Ladder game {game.pk} is {game.status}: it has no transcript "
                                "yet.", status=404)
    response = JsonResponse(game.bot_game.transcript, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="ladder-game-{game.pk}.json"'
    return response


# The author's dashboard


@login_required
def mine(request):
    entries = list(selectors.author_entries(user=request.user)
                   .select_related("validation_game"))
    faults = selectors.latest_faults_by_entry(entries=entries, per_entry=DASHBOARD_FAULTS)
    validation = selectors.validation_faults(entries=entries)
    return render(request, "ladder/mine.html", {
        "rows": [{**_row(e), "faults": faults[e.pk], "validation_faults": validation.get(e.pk)}
                 for e in entries],
        "waiting": selectors.author_waiting(user=request.user),
        "tick": settings.LADDER_TICK_SECONDS,
        "register_url": reverse("accounts:bot_create"),
        "can_register": (selectors.author_bot_count(user=request.user)
                         < settings.OUTSIDE_BOT_MAX_PER_AUTHOR)})
