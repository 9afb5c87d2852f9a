"""What an organiser ends or takes back on the club night's page, each previewed (GET) before
it is done (POST): cancel a game confirmed by mistake, cancel a whole round, and the end of
the night (time called on every open table). league.nights and league.services do the work;
a game that was played is refused in words (409)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import prefetch_related_objects
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from league import nights, rounds, services
from league.api.permissions import organises
from league.errors import Conflict, LeagueError
from league.models import Game
from league.web.came_from import came_from
from league.web.night_season import club_night
from league.web.nights import _not_organiser, _refuse


def _organised(request, season):
    """The refusal the season's club's non-organisers get (as the night page), or None."""
    if not organises(request.user, season.club):
        return _not_organiser(request, season)
    return None


def _refused(request, season, error):
    return _refuse(request, f"Nothing was changed: {error.message.rstrip('.')}.",
                   status=409 if isinstance(error, Conflict) else 400,
                   back=reverse("league:night", args=[season.pk]))


@club_night()
@login_required
def night_cancel_game(request, season, game_id):
    """Cancel one of tonight's games before any deal: GET asks, POST cancels."""
    refused = _organised(request, season)
    if refused:
        return refused
    game = get_object_or_404(Game, pk=game_id, season=season)
    origin = came_from(request)  # the plan waiting for this table's people, say
    if request.method == "POST":
        try:
            services.game_cancel(game=game, by=request.user)
        except LeagueError as e:
            return _refused(request, season, e)
        messages.success(request, f"Game {game.number} cancelled.")
        return redirect(origin or reverse("league:night", args=[season.pk]))
    return render(request, "league/night/cancel.html", {
        "season": season, "what": f"game {game.number}", "games": [game], "origin": origin,
        "action": reverse("league:night_cancel_game", args=[season.pk, game.pk])})


@club_night()
@login_required
def night_cancel_round(request, season, number):
    """Cancel round ``number`` of tonight, all its games, before any deal: GET asks, POST
    cancels."""
    refused = _organised(request, season)
    if refused:
        return refused
    tonight = rounds.night_of()
    if request.method == "POST":
        try:
            games = nights.round_cancel(season=season, night=tonight, number=number,
                                        by=request.user)
        except LeagueError as e:
            return _refused(request, season, e)
        messages.success(request, f"Round {number} cancelled: game{'s' if len(games) > 1 else ''} "
                                  f"{', '.join(str(g.number) for g in games)}.")
        return redirect("league:night", season.pk)
    played = rounds.night_rounds(season, tonight)
    if not 1 <= number <= len(played):
        return _refused(request, season, LeagueError(f"there is no round {number} tonight"))
    games = [g for g, _ in played[number - 1]]
    prefetch_related_objects(games, "seats__player")
    return render(request, "league/night/cancel.html", {
        "season": season, "what": f"round {number}", "games": games,
        "action": reverse("league:night_cancel_round", args=[season.pk, number])})


def _tables(n: int) -> str:
    return f"{n} table{'s' if n != 1 else ''}"


def _ended_words(ended) -> str:
    called = sum(not t.cancelled for t in ended)
    cancelled = len(ended) - called
    parts = [f"time called on {_tables(called)}"] if called else []
    if cancelled:
        parts.append(f"{_tables(cancelled)} with no deal {'was' if cancelled == 1 else 'were'} "
                     "cancelled")
    return f"The night has ended: {'; '.join(parts)}."


@club_night()
@login_required
def night_end(request, season):
    """The end of the night: GET shows every open table's winners if time is called now,
    POST calls time on them all (league.nights.night_end)."""
    refused = _organised(request, season)
    if refused:
        return refused
    tonight = rounds.night_of()
    try:
        if request.method == "POST":
            ended = nights.night_end(season=season, night=tonight, by=request.user)
            messages.success(request, _ended_words(ended))
            return redirect(reverse("league:tonight", args=[season.pk]))
        preview = nights.night_end_preview(season=season, night=tonight)
    except LeagueError as e:
        return _refused(request, season, e)
    return render(request, "league/night/end.html", {
        "season": season, "tables": preview,
        "back": reverse("league:night", args=[season.pk])})
