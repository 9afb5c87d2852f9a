"""The league's pages: public reads (clubs, seasons, games, players, replays, exports) and the
organisers' result entry. Views read through selectors, change through
services, and show a LeagueError's message as it is."""

import csv
import json
import re
from hashlib import md5
from itertools import groupby

from django.conf import settings
from django.contrib import messages
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.paginator import Paginator
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.text import capfirst
from django_ratelimit.decorators import ratelimit

from gameplay.engine.errors import RuleViolation
from gameplay.engine.roles import Role, exchange_pairs, role_names, roles_of
from gameplay.engine.scoring import deal_points
from gameplay.tournaments import selectors as tournament_selectors
from league import replays, selectors, services
from league.errors import Conflict, LeagueError
from league.models import Club, Deal, Game, Player, Season
from league.rules import options_of, scoring_of
from league.selectors import organises
from league.web import corrections, entry
from league.web.forms import (
    DealEntryForm,
    SeatChangeForm,
    TranscriptUploadForm,
    deal_record_once,
)


def club_list(request):
    clubs = Club.objects.prefetch_related("seasons")
    return render(request, "league/club_list.html", {"clubs": clubs})


GAMES_PER_PAGE = 50


def season_detail(request, season_id):
    """Standings, ratings and chart are a template fragment cached under what they show
    (selectors.SeasonResults.key). Everyone but the club's organisers (whose games list
    carries their links) and readers with messages waiting gets the whole page from the cache,
    keyed by all it shows: such a page reads the season row alone."""
    season = get_object_or_404(selectors.seasons_with_versions(), pk=season_id)
    page = _page_number(request.GET.get("page", ""), games=season.last_game_number or 0)
    results = selectors.SeasonResults(season)
    context = {
        "season": season,
        "results": results,
        "results_cache_seconds": selectors.STANDINGS_CACHE_SECONDS,
        "tie_breaks": selectors.tie_break_words(),
        "role_names": role_names(options_of(season)),
        "games": SimpleLazyObject(lambda: Paginator(
            selectors.season_games(season=season), GAMES_PER_PAGE).get_page(page)),
        "organiser": organises(request.user, season.club),
    }
    if context["organiser"] or get_messages(request):
        return render(request, "league/season_detail.html", context)
    # The games listed change with the results (deal counts, status) and the newest game;
    # base.html shows nothing of the reader.
    shown = (season.pk, results.key, season.last_game_number, page, season.club.name,
             season.name, season.preset, season.scoring)
    key = f"league:season-page:{md5(repr(shown).encode(), usedforsecurity=False).hexdigest()}"
    html = cache.get(key)
    if html is None:
        html = render_to_string("league/season_detail.html", context, request).encode()
        if not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):  # a form's token is the reader's
            cache.set(key, html, selectors.STANDINGS_CACHE_SECONDS)
    return HttpResponse(html)


def _page_number(text: str, *, games: int) -> int:
    """The games page asked for, as Paginator.get_page reads it (not a page number, or too long
    to be one: the first; past the end: the last), clamped here already so the cache holds one
    copy of each page. Only ASCII digits: "²" and "٣" are digits to str.isdigit, not to int."""
    last = max(1, -(-games // GAMES_PER_PAGE))
    if not re.fullmatch(r"[0-9]{1,9}", text):
        return 1
    return min(max(int(text), 1), last)


def game_detail(request, game_id):
    game = get_object_or_404(Game.objects.select_related("season__club"), pk=game_id)
    sheet = selectors.game_sheet(game=game)
    return render(request, "league/game_detail.html", {
        "game": game,
        "options": options_of(game.season),
        "sheet": sheet,
        "winners": [seat.player for seat in sheet.seats if seat.is_winner],
        "next": _next_deal(game),
        "organiser": organises(request.user, game.season.club),
        # A tournament game's deals replay from the game's one transcript.
        "tournament_game": tournament_selectors.tournament_game_of(game),
    })


def game_time_called(request, game_id):
    """Time called on an open game, for its club's organisers: GET shows who would win under
    the season's rule for an unfinished game (the engine's, on a copy), POST ends the game."""
    game = get_object_or_404(Game.objects.select_related("season__club"), pk=game_id)
    club = game.season.club
    if not organises(request.user, club):
        return _refuse(request, f"Only organisers of {club} may call time on its games.")
    if request.method == "POST":
        try:
            services.game_time_called(game=game, by=request.user)
        except LeagueError as e:
            return _refuse(request, e.message, status=400)
        messages.success(request, f"Time called: game {game.number} has ended.")
        return redirect("league:game_detail", game.pk)
    sheet = selectors.game_sheet(game=game)
    try:
        sheet.score.call_time()
    except RuleViolation as e:
        return _refuse(request, f"Time cannot be called on {game}: {e.message}.", status=400)
    return render(request, "league/game_time_called.html", {
        "game": game, "sheet": sheet,
        "winners": [s.player for s in sheet.seats if s.player_id in sheet.score.winners]})


def player_detail(request, player_id):
    player = get_object_or_404(Player, pk=player_id)
    seats = selectors.player_seats(player=player)
    for seat in seats:
        seat.mean_position = seat.position_sum / seat.deals if seat.deals else None
    return render(request, "league/player_detail.html", {
        "player": player,
        "rating": selectors.player_rating(player=player),
        "seats": seats,
        "positions": selectors.player_positions(player=player),
        "head_to_head": selectors.player_head_to_head(player=player),
        "rating_chart": selectors.rating_chart(player=player),
    })


def _next_deal(game):
    try:
        return selectors.game_next_deal(game=game)
    except LeagueError:
        return None


# Result entry for organisers


def _refuse(request, message, status=403):
    return render(request, "league/refused.html", {"message": message}, status=status)


def _wants_json(request):
    """The page's script sends a confirmed deal with fetch and reads the answer as JSON."""
    return "application/json" in request.headers.get("Accept", "")


def _form_errors(form):
    """A form's errors in one sentence, each field's under its label."""
    parts = [" ".join(form.non_field_errors())]
    parts += [f"{form.fields[name].label}: {' '.join(errors)}"
              for name, errors in form.errors.items() if name != "__all__"]
    return "; ".join(p for p in parts if p)


def _same_table(game, next_deal, user):
    """A new game of the season for the players at this finished game's table, in their seats,
    dealt by whoever would have dealt next. A second press finds that game (it is still
    empty) instead of creating another."""
    if game.status != Game.FINISHED:
        raise LeagueError(f"game {game.number} is still being played: end it first")
    players = [s.player for s in next_deal.seats]
    dealer = selectors.game_next_dealer(game=game, number=next_deal.number)
    dealer = players.index(dealer) if dealer in players else 0
    for later in (game.season.games.filter(number__gt=game.number, status=Game.OPEN,
                                           deal_set__isnull=True, dealer=dealer)
                  .order_by("number")):
        if [s.player for s in later.seats.order_by("number")] == players:
            return later
    return services.game_create(season=game.season, players=players, dealer=dealer, by=user)


def _named(ranking, names):
    return [(player, names[role]) for player, role in ranking]


def game_enter(request, game_id):
    """Enter the next deal (tap players in finishing order, preview, confirm), undo the last
    one (after a confirmation), correct or delete an earlier one (league.web.corrections), or
    let players leave or join between deals (preview, confirm).

    A confirm sent by the page's script (Accept: application/json; a deal kept on the phone
    while offline, sent later) is answered in JSON: the deal's number, or why it was refused."""
    game = get_object_or_404(Game.objects.select_related("season__club"), pk=game_id)
    club = game.season.club
    as_json = request.method == "POST" and _wants_json(request)
    if not organises(request.user, club):
        message = (f"Only organisers of {club} enter its results."
                   if request.user.is_authenticated
                   else f"Sign in as an organiser of {club} to enter its results.")
        if as_json:
            return JsonResponse({"error": message}, status=403)
        return _refuse(request, message)
    here = reverse("league:game_enter", args=[game.pk])
    action = request.POST.get("action") if request.method == "POST" else None
    options = options_of(game.season)
    names = role_names(options)
    next_deal = selectors.game_next_deal(game=game)
    seated = [s.player for s in next_deal.seats]
    context = {"game": game, "next": next_deal, "preview": None, "seat_preview": None,
               "names": names}
    status = 200

    order_form = DealEntryForm(request.POST if action in ("preview", "confirm") else None,
                               seats=next_deal.seats, number=next_deal.number)
    candidates = list(selectors.club_players(club=club).exclude(seats__game=game))
    seat_form = SeatChangeForm(request.POST if action in ("seat_preview", "seat_confirm")
                               else None, seated=seated, candidates=candidates)

    if action in corrections.ACTIONS:
        done = corrections.posted(request, game, action, names)
        if not isinstance(done, tuple):
            return done
        correction, status = done
        context.update(correction)
    elif request.method == "GET" and ("correct" in request.GET or "delete" in request.GET):
        correction, status = corrections.asked(request, game, names)
        context.update(correction)
    elif request.method == "GET" and "reopen" in request.GET:
        reopening, status = corrections.reopen_asked(game)
        context.update(reopening)

    try:
        if action in ("preview", "confirm"):
            if not order_form.is_valid():
                status = 400
                if as_json:
                    return JsonResponse({"error": _form_errors(order_form)}, status=400)
            elif action == "preview":
                order = services.finishing_order_check(
                    game=game, finishing_order=order_form.cleaned_data["order"],
                    number=order_form.cleaned_data["number"])
                seated_by_id = {p.pk: p for p in seated}
                ranking = list(roles_of([seated_by_id[p] for p in order]).items())
                context["preview"] = {
                    "places": [(i, p, names[role]) for i, (p, role) in enumerate(ranking, 1)],
                    "exchanges": exchange_pairs(ranking),
                    "exchange_in_preset": next_deal.exchange_in_preset,
                }
            else:
                entered = order_form.cleaned_data
                number, recorded = deal_record_once(
                    game=game, finishing_order=entered["order"], number=entered["number"],
                    source=Deal.OUTBOX if entered["kept_offline"] else Deal.PAGE,
                    by=request.user, token=entered["token"])
                if recorded:
                    message = f"Deal {number} recorded."
                    messages.success(request, message)
                else:
                    message = (f"Deal {number} was already recorded from this form; "
                               "it is stored once.")
                    messages.info(request, message)
                if as_json:
                    return JsonResponse({"number": number, "recorded": recorded,
                                         "message": message}, status=201 if recorded else 200)
                return redirect(here)
        elif action == "undo":
            try:
                number, undone = services.deal_undo(game=game, deal_id=request.POST.get("deal"),
                                                    by=request.user)
            except LeagueError as e:
                messages.error(request, capfirst(e.message) + ".")
            else:
                with_changes = f", and the seat change after it ({', '.join(undone)})" \
                    if undone else ""
                messages.success(request, f"Deal {number} undone{with_changes}.")
            return redirect(here)
        elif action in ("seat_preview", "seat_confirm"):
            context["seat_action"] = True
            if not seat_form.is_valid():
                status = 400
            else:
                leaving = seat_form.cleaned_data["leaving_players"]
                joining = seat_form.cleaned_data["joining_players"]
                if action == "seat_preview":
                    ranking = services.seat_change_preview(game=game, leaving=leaving,
                                                           joining=joining)
                    people = {p.pk: p for p in [*seated, *joining]}
                    after = [(people[pid], role) for pid, role in ranking]
                    context["seat_preview"] = {
                        "leaving": leaving, "joining": joining,
                        "ranking": _named(after, names),
                        "exchanges": selectors.exchanges_of(ranking, list(people.values())),
                        "words": entry.shift_words(next_deal.ranking, after, leaving=leaving,
                                             joining=joining, options=options),
                    }
                else:
                    services.seat_change_apply(game=game, leaving=leaving, joining=joining,
                                               by=request.user)
                    names_said = ([f"{p} leaves" for p in leaving]
                                  + [f"{p} joins" for p in joining])
                    messages.success(request, "; ".join(names_said) + ".")
                    return redirect(here)
        elif action == "new_game":
            new = _same_table(game, next_deal, request.user)
            messages.success(request, f"Game {new.number} started at the same table.")
            return redirect(reverse("league:game_enter", args=[new.pk]))
        elif action is not None and action not in corrections.ACTIONS:
            context["error"] = f"Unknown action {action!r}."
            status = 400
    except Conflict as e:  # the deal was entered on another phone meanwhile
        if as_json:
            return JsonResponse({"error": e.message, "conflict": True}, status=409)
        messages.error(request, capfirst(e.message) + ".")
        return redirect(here)  # the game as it is now
    except LeagueError as e:
        if as_json:
            return JsonResponse({"error": e.message}, status=400)
        context["seat_error" if context.get("seat_action") else "error"] = e.message
        status = 400
    if as_json:  # a script's post of anything but a confirm
        return JsonResponse({"error": context.get("error", "nothing was recorded")}, status=400)

    last_deal = selectors.undoable_deal(game=game)
    undo = request.GET.get("undo")
    context.update({
        "order_form": order_form, "seat_form": seat_form,
        "last_deal": last_deal,
        "last_places": [(p.player, names[Role(p.role)]) for p in last_deal.places.all()]
        if last_deal else [],
        # A game that has ended keeps its deals until an organiser reopens it.
        "locked": game.status == Game.FINISHED and game.reopened_at is None,
        "undo_asked": last_deal is not None and undo == str(last_deal.pk),
        "undo_gone": undo is not None and (last_deal is None or undo != str(last_deal.pk)),
        "ranking": _named(next_deal.ranking, names),
        "dealer": (selectors.game_next_dealer(game=game, number=next_deal.number)
                   if game.status != Game.FINISHED else None),
        "by_position": entry.by_position(len(next_deal.seats), options),
        "scoreboard": selectors.game_scoreboard(game=game),
        "deals": list(selectors.game_deals(game=game).reverse()),
        "winners": [s.player for s in game.seats.filter(is_winner=True).select_related("player")],
        "service_worker": reverse("league:entry_service_worker"),
    })
    return render(request, "league/game_enter.html", context, status=status)


def entry_service_worker(request):
    """The entry page's service worker (static/league/entry-sw.js), served from /league/games/
    so that its scope covers every game's entry page; the assets it keeps for offline use are
    named by their static URLs (hashed in production)."""
    assets = [static(name) for name in ENTRY_ASSETS]
    script = render_to_string("league/entry-sw.js", {"assets": json.dumps(assets)})
    return HttpResponse(script, content_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


ENTRY_ASSETS = ("league/league.css", "league/enter.js", "league/outbox.js",
                "league/favicon.svg")


# Export


class _Echo:
    def write(self, value):
        return value


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A text cell a spreadsheet would run as a formula, quoted with a leading ' so it shows
    as the text it is; everything else as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _csv_response(filename, header, rows):
    writer = csv.writer(_Echo())
    lines = (writer.writerow([csv_cell(v) for v in row]) for row in _chain([header], rows))
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _chain(*iterables):
    for iterable in iterables:
        yield from iterable


def _season_or_404(season_id):
    return get_object_or_404(Season.objects.select_related("club"), pk=season_id)


def export_standings(request, season_id):
    season = _season_or_404(season_id)
    ratings = {r.player_id: r for r in selectors.season_ratings(season=season)}
    header = ["rank", "player", "games", "wins", "points", "deals", "mean_position",
              *selectors.ROLE_COUNTS, "rating", "rating_mu", "rating_sigma", "rated_deals"]
    rows = ([i, r["name"], r["games"], r["wins"], r["points"], r["deals_played"],
             f"{r['mean_position']:.4f}", *(r[k] for k in selectors.ROLE_COUNTS),
             *_rating_columns(ratings.get(r["player_id"]))]
            for i, r in enumerate(selectors.season_standings(season=season), start=1))
    return _csv_response(f"season-{season.pk}-standings.csv", header, rows)


def _rating_columns(rating):
    """rating (μ − 3σ), μ, σ and deals rated; empty before the player's ratings are computed.
    Numbers, not text: a negative rating is not a formula for csv_cell to quote."""
    if rating is None:
        return ["", "", "", ""]
    return [round(rating.ordinal, 4), round(rating.mu, 4), round(rating.sigma, 4), rating.deals]


def export_results(request, season_id):
    """One row per place; ``points`` is what the place scored in its deal under the season's
    scoring, ``game_winner`` says whether the player won the game (empty while it is open)."""
    season = _season_or_404(season_id)
    scoring = scoring_of(season)
    header = ["game", "deal", "dealer_seat", "position", "seat", "player", "role", "points",
              "game_winner", "recorded_at"]
    places = selectors.season_results(season=season).iterator(chunk_size=2000)

    def rows():
        for _, deal in groupby(places, key=lambda row: row[:2]):
            deal = list(deal)
            points = deal_points(scoring, [row[5] for row in deal])
            for g, d, dealer, pos, seat, name, role, at, won, status in deal:
                yield [g, d, dealer, pos, seat, name, role, points[name],
                       ("yes" if won else "no") if status == Game.FINISHED else "",
                       at.isoformat()]

    return _csv_response(f"season-{season.pk}-results.csv", header, rows())


def export_transcripts(request, season_id):
    """JSON lines: one game's whole transcript a line for a tournament's season, one deal's
    transcript a line for a season whose deals were recorded with theirs; a season with none
    gets a 404 that says so, not an empty file."""
    season = _season_or_404(season_id)
    games = tournament_selectors.season_game_transcripts(season=season)
    if games.exists():
        # A game's transcript is up to ~0.5 MB (100 deals of 8 seats): few rows a fetch.
        lines = (_json_line({"game": g, "round": r, "table": t, "number": n, "transcript": tr})
                 for g, r, t, n, tr in games.iterator(chunk_size=20))
    elif selectors.season_transcripts(season=season).exists():
        lines = (_json_line({"game": g, "deal": d, "transcript": t}) for g, d, t in
                 selectors.season_transcripts(season=season).iterator(chunk_size=500))
    else:
        why = ("its tournament has stored no game yet" if hasattr(season, "tournament")
               else "its deals were recorded as finishing orders only")
        return HttpResponse(f"{season} has no transcripts: {why}.\n", status=404,
                            content_type="text/plain; charset=utf-8")
    response = StreamingHttpResponse(lines, content_type="application/jsonl; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="season-{season.pk}-transcripts.jsonl"'
    return response


def _json_line(record) -> str:
    return json.dumps(record, separators=(",", ":")) + "\n"


# Replay


def deal_replay(request, deal_id):
    deal = get_object_or_404(Deal.objects.select_related("game__season__club"), pk=deal_id)
    if deal.transcript is None:
        return _refuse(request, f"{deal} was recorded as a finishing order only: it has no "
                                "transcript to replay.", status=404)
    names = [s.player.name for s in sorted(
        (s for s in deal.game.seats.select_related("player") if s.plays_in(deal.number)),
        key=lambda s: s.number)]
    try:
        steps = replays.transcript_steps(deal.transcript, names=names)
    except LeagueError as e:
        return _refuse(request, e.message, status=422)
    return render(request, "league/replay.html", {
        "steps": steps, "title": str(deal),
        "back": reverse("league:game_detail", args=[deal.game_id])})


def _upload_rate(group, request):
    return settings.REPLAY_UPLOAD_RATE


# "user_or_ip": a signed-in reader's uploads are counted per user, anyone else's per client
# address (RATELIMIT_IP_META_KEY: config.protections.client_address).
@ratelimit(key="user_or_ip", rate=_upload_rate, method="POST", block=False)
def replay_upload(request):
    """Replay a pasted or uploaded transcript, bounded: its size (REPLAY_UPLOAD_MAX_BYTES),
    its steps (REPLAY_MAX_STEPS, counted before any is played) and the uploads per user, or
    per address for readers not signed in (REPLAY_UPLOAD_RATE)."""
    form = TranscriptUploadForm(request.POST or None, request.FILES or None)
    context = {"form": form, "steps": None}
    status = 200
    if request.method == "POST":
        status = _replay_posted(request, form, context)
    return render(request, "league/replay_upload.html", context, status=status)


def _replay_posted(request, form, context) -> int:
    """Fill the upload page's context from a posted transcript; answer its status."""
    if getattr(request, "limited", False):
        source = "account" if request.user.is_authenticated else "address"
        context["error"] = (f"Too many transcripts uploaded from your {source} (at most "
                            f"{settings.REPLAY_UPLOAD_RATE}, uploads per period): wait a while.")
        return 429
    if not form.is_valid():
        return 413 if form.has_error(NON_FIELD_ERRORS, "too_large") else 400
    try:
        data = json.loads(form.cleaned_data["raw"])
    except (ValueError, RecursionError) as e:  # RecursionError: absurdly nested JSON
        context["error"] = f"This transcript is not valid: not JSON: {e}"[:500]
        return 422
    try:
        context["steps"] = replays.transcript_steps(data)
    except LeagueError as e:
        context["error"] = e.message
        return 422
    context["title"] = "Uploaded transcript"
    return 200
