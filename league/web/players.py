"""A player's pages: finding a player by name, and a player's page (rating, seasons, places,
head-to-head)."""

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from league import par, selectors
from league.models import Player
from league.web.seasons import GAMES_PER_PAGE

MAX_QUERY = Player._meta.get_field("name").max_length  # no longer search can match a name


def player_detail(request, player_id):
    """One page of the player's games at a time (a regular of ten seasons has thousands):
    past the last page, the last; a page that is no number, the first."""
    player = get_object_or_404(Player, pk=player_id)
    seats = Paginator(selectors.player_seats(player=player), GAMES_PER_PAGE).get_page(
        request.GET.get("page"))
    for seat in seats:
        seat.mean_position = seat.position_sum / seat.deals if seat.deals else None
    return render(request, "league/player_detail.html", {
        "player": player,
        "rating": selectors.player_rating(player=player),
        "seats": seats,
        "positions": selectors.player_positions(player=player),
        "head_to_head": selectors.player_head_to_head(player=player),
        "rating_chart": selectors.rating_chart(player=player),
        # a deleted deal's rating history stays until this recompute (league.models.RatingHistory)
        "ratings_updating": selectors.ratings_updating(),
        "pars": par.player_pars(player),
    })



def player_search(request):
    query = " ".join(request.GET.get("q", "").split())
    context = {"query": query, "players": None, "limit": selectors.SEARCH_RESULTS}
    status = 200
    if len(query) > MAX_QUERY:
        context["error"] = (f"A player's name is at most {MAX_QUERY} characters; this search "
                            f"has {len(query)}.")
        status = 400
    elif "\x00" in query:  # PostgreSQL refuses it in a query's text
        context.update(query="", error="A player's name has no NUL character (\\x00) in it.")
        status = 400
    elif query:
        players = selectors.player_search(query=query)
        context["players"] = players[:selectors.SEARCH_RESULTS]
        context["more"] = len(players) > selectors.SEARCH_RESULTS
    return render(request, "league/player_search.html", context, status=status)
