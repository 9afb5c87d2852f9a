"""A game's pages: its score sheet, time called by an organiser, and a deal's replay (a recorded
deal's, or an uploaded transcript's). Entering its deals is league.web.entry."""

import json

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django_ratelimit.decorators import ratelimit

from gameplay.engine.errors import RuleViolation
from league import replays, selectors, services
from league.errors import LeagueError
from league.models import Deal, Game
from league.rules import options_of
from league.selectors import organises
from league.web.came_from import came_from
from league.web.forms import TranscriptUploadForm
from league.web.refused import refuse
from tournaments import selectors as tournament_selectors


def game_detail(request, game_id):
    game = get_object_or_404(Game.objects.select_related("season__club"), pk=game_id)
    sheet = selectors.game_sheet(game=game)
    return render(request, "league/game_detail.html", {
        "game": game,
        "options": options_of(game.season),
        "sheet": sheet,
        "winners": [seat.player for seat in sheet.seats if seat.is_winner],
        "next": _next_deal(game),
        # a bot tournament's games are its own to play (services.by_hand)
        "organiser": (organises(request.user, game.season.club)
                      and not hasattr(game.season, "tournament")),
        # A tournament game's deals replay from the game's one transcript.
        "tournament_game": tournament_selectors.tournament_game_of(game),
    })


def game_time_called(request, game_id):
    """Time called on an open game, for its club's organisers: GET shows who would win under
    the season's rule for an unfinished game (the engine's, on a copy), POST ends the game."""
    game = get_object_or_404(Game.objects.select_related("season__club"), pk=game_id)
    club = game.season.club
    if not organises(request.user, club):
        return refuse(request, f"Only organisers of {club} may call time on its games.")
    origin = came_from(request)
    back = origin or reverse("league:game_detail", args=[game.pk])
    if request.method == "POST":
        try:
            services.game_time_called(game=game, by=request.user)
        except LeagueError as e:
            return refuse(request, e.message, status=400, back=(back, "Go back"))
        messages.success(request, f"Time called: game {game.number} has ended.")
        return redirect(back)
    sheet = selectors.game_sheet(game=game)
    try:
        sheet.score.call_time()
    except RuleViolation as e:
        return refuse(request, f"Time cannot be called on {game}: {e.message}.", status=400,
                      back=(back, "Go back"))
    return render(request, "league/game_time_called.html", {
        "game": game, "sheet": sheet, "origin": origin, "back": back,
        "winners": [s.player for s in sheet.seats if s.player_id in sheet.score.winners]})



def _next_deal(game):
    try:
        return selectors.game_next_deal(game=game)
    except LeagueError:
        return None



# Replay


def deal_replay(request, deal_id):
    deal = get_object_or_404(Deal.objects.select_related("game__season__club"), pk=deal_id)
    if deal.transcript is None:
        return refuse(request, f"{deal} was recorded as a finishing order only: it has no "
                                "transcript to replay.", status=404)
    names = [s.player.name for s in sorted(
        (s for s in deal.game.seats.select_related("player") if s.plays_in(deal.number)),
        key=lambda s: s.number)]
    try:
        steps = replays.transcript_steps(deal.transcript, names=names)
    except LeagueError as e:
        return refuse(request, e.message, status=422)
    return render(request, "league/replay.html", {
        "steps": steps, "title": str(deal),
        "heading": format_html("<bdi>{}</bdi> – <bdi>{}</bdi> – game {} – deal {}",
                               deal.game.season.club, deal.game.season.name, deal.game.number,
                               deal.number),
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
    except json.JSONDecodeError as e:
        context["error"] = (f"This is not a transcript: it is not JSON (line {e.lineno}, "
                            f"column {e.colno}: {e.msg[:100].lower()}).")
        return 422
    except (ValueError, RecursionError):  # RecursionError: absurdly nested JSON
        context["error"] = "This is not a transcript: it is not JSON."
        return 422
    try:
        context["steps"] = replays.transcript_steps(data)
    except LeagueError as e:
        context["error"] = capfirst(e.message)
        return 422
    context["title"] = "Uploaded transcript"
    return 200
