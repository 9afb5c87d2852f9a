"""The season of a club night's pages (league.web.nights, night_actions and the table cards):
each view is given the season in place of its id. A bot tournament's season has no club nights
(the tournament plays and stores its games, league.services.by_hand), so its night addresses,
typed by hand, are refused at once in words with a link to the tournament."""

from functools import wraps

from django.http import JsonResponse
from django.shortcuts import get_object_or_404

from league.models import Season
from league.web.refused import refuse


def club_night(json=False):
    """``view(request, season, ...)`` for a club's season; a tournament's season is refused
    (404: it has no club night to show, now or later), as ``{"error": …}`` if ``json``."""
    def decorator(view):
        @wraps(view)
        def checked(request, season_id, **kwargs):
            season = get_object_or_404(Season.objects.select_related("club", "tournament"),
                                       pk=season_id)
            tournament = getattr(season, "tournament", None)
            if tournament is None:
                return view(request, season, **kwargs)
            message = ("A bot tournament's season has no club nights: the games of this season "
                       f"are played and stored by the bot tournament {tournament.name}.")
            if json:
                return JsonResponse({"error": message,
                                     "tournament": tournament.get_absolute_url()}, status=404)
            return refuse(request, message, 404, back=(tournament.get_absolute_url(),
                                                       f"The tournament {tournament.name}"))
        return checked
    return decorator
