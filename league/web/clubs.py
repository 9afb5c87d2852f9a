"""A club's pages: the list of clubs, and a club's page with its seasons, bot tournaments,
all-time table and recent games."""

from django.shortcuts import get_object_or_404, render

from league import selectors
from league.models import Club
from league.selectors import organises
from tournaments import selectors as tournament_selectors


def club_list(request):
    clubs = Club.objects.prefetch_related("seasons")
    return render(request, "league/club_list.html", {"clubs": clubs})


def club_detail(request, club_id):
    club = get_object_or_404(Club, pk=club_id)
    return render(request, "league/club_detail.html", {
        "club": club,
        "seasons": club.seasons.all(),
        "tournaments": tournament_selectors.club_tournaments(club=club),
        "table": selectors.club_all_time(club=club),
        "recent_games": selectors.recent_games(club=club),
        "order": selectors.ALL_TIME_ORDER,
        "organiser": organises(request.user, club),
    })
