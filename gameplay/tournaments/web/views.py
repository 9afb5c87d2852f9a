"""The public progress page of a tournament, the JSON it refreshes from, and its organisers'
cancel and resume buttons; an outside bot's page of its faults."""

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from gameplay.tournaments import selectors, services
from gameplay.tournaments.errors import TournamentError
from gameplay.tournaments.models import OutsideBot, Tournament
from league.selectors import organises


def tournament_detail(request, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("club", "season"), pk=pk)
    return render(request, "gameplay/tournament.html", {
        "tournament": tournament,
        "progress": selectors.tournament_progress(tournament=tournament),
        "standings": selectors.tournament_standings(tournament=tournament),
        "entrants": selectors.with_fault_counts(tournament.entrants.select_related("player")),
        "organiser": organises(request.user, tournament.club),
    })


def outside_bot_detail(request, name):
    bot = get_object_or_404(OutsideBot, name=name)
    return render(request, "gameplay/outside_bot.html", {
        "bot": bot, **selectors.outside_bot_faults(bot=bot),
        "shown": selectors.OUTSIDE_FAULTS_SHOWN})


def tournament_progress(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    return JsonResponse({**selectors.tournament_progress(tournament=tournament).to_dict(),
                         "standings": selectors.tournament_standings(tournament=tournament)})


@require_POST
def tournament_cancel(request, pk):
    return _organiser_action(request, pk, services.tournament_cancel, "cancelled")


@require_POST
def tournament_resume(request, pk):
    return _organiser_action(request, pk, services.tournament_resume, "resumed")


def _organiser_action(request, pk, service, done: str):
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not organises(request.user, tournament.club):
        return render(request, "gameplay/refused.html", {
            "message": f"Only organisers of {tournament.club} may stop or resume its "
                       "tournaments."}, status=403)
    try:
        service(tournament=tournament, by=request.user)
    except TournamentError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, f"{tournament} {done}.")
    return redirect(tournament.get_absolute_url())
