"""A season's pages: its standings, ratings and games, and its exports (standings and results as
CSV, transcripts as JSON lines)."""

import csv
import json
import re
from hashlib import md5
from itertools import groupby

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject

from gameplay.engine.roles import role_names
from gameplay.engine.scoring import deal_points
from league import selectors
from league.models import Game, Season
from league.rules import options_of, scoring_of
from league.selectors import organises
from tournaments import selectors as tournament_selectors

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
        # A bot tournament's season: its games are the tournament's (services.by_hand), so
        # the page links the tournament and offers no club night and no entry.
        "tournament": getattr(season, "tournament", None),
    }
    if context["organiser"] or get_messages(request):
        return render(request, "league/season_detail.html", context)
    # The games listed change with the results (deal counts, status) and the newest game;
    # base.html shows nothing of the reader.
    shown = (season.pk, results.key, season.last_game_number, page, season.club.name,
             season.name, season.preset, season.scoring,
             context["tournament"] and context["tournament"].name)
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
    """One row per place; ``role`` is the engine's key (the same for every preset, for
    scripts) and ``role_name`` the role as the season's preset names it (for people);
    ``points`` is what the place scored in its deal under the season's scoring, ``game_winner``
    says whether the player won the game (empty while it is open)."""
    season = _season_or_404(season_id)
    scoring = scoring_of(season)
    names = {role.value: name for role, name in role_names(options_of(season)).items()}
    header = ["game", "deal", "dealer_seat", "position", "seat", "player", "role", "role_name",
              "points", "game_winner", "recorded_at"]
    places = selectors.season_results(season=season).iterator(chunk_size=2000)

    def rows():
        for _, deal in groupby(places, key=lambda row: row[:2]):
            deal = list(deal)
            points = deal_points(scoring, [row[5] for row in deal])
            for g, d, dealer, pos, seat, name, role, at, won, status in deal:
                yield [g, d, dealer, pos, seat, name, role, names[role], points[name],
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
        # Round, table and game at the table are stored from 0; said from 1, as games are.
        lines = (_json_line({"game": g, "round": r + 1, "table": t + 1, "number": n + 1,
                             "transcript": tr})
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
