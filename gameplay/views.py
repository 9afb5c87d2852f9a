"""The public progress page of a tournament and the JSON it refreshes from."""

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render

from gameplay import selectors
from gameplay.models import Tournament


def tournament_detail(request, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("club", "season"), pk=pk)
    return render(request, "gameplay/tournament.html", {
        "tournament": tournament,
        "progress": selectors.tournament_progress(tournament=tournament),
        "standings": selectors.tournament_standings(tournament=tournament),
        "entrants": tournament.entrants.select_related("player"),
    })


def tournament_progress(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    return JsonResponse(selectors.tournament_progress(tournament=tournament).to_dict())
