"""Public read-only pages: clubs and their seasons, a season's standings and ratings."""

from django.shortcuts import get_object_or_404, render

from league import selectors
from league.models import Club, Season


def club_list(request):
    clubs = Club.objects.prefetch_related("seasons")
    return render(request, "league/club_list.html", {"clubs": clubs})


def season_detail(request, season_id):
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
    return render(request, "league/season_detail.html", {
        "season": season,
        "standings": selectors.season_standings(season=season),
        "ratings": selectors.season_ratings(season=season),
        "ratings_updating": selectors.ratings_updating(season=season),
        "games": selectors.season_games(season=season),
    })
