"""The entry page as each of its views shows it: the game's next deal, its forms, the last deal,
the list of deals to correct and the totals, with what the view adds (a preview, a correction,
a refusal). The game's club's organisers get it (organiser_game), and so does a phone that
opened the game's table link, for entering deals and seat changes (table_game)."""

from functools import wraps
from urllib.parse import urlencode, urlsplit

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.text import capfirst

from gameplay.engine.roles import Role, role_names
from league import nights, selectors
from league.models import Game
from league.rules import options_of
from league.selectors import organises
from league.table_links import moved_on_from, refusal
from league.web import role_words, table_links
from league.web.came_from import came_from
from league.web.forms import DealEntryForm, SeatChangeForm
from league.web.refused import refuse


def wants_json(request) -> bool:
    """The page's script (the outbox) sends a confirmed deal with fetch and reads the answer as
    JSON."""
    return "application/json" in request.headers.get("Accept", "")


def _entry_view(view, links: bool):
    """``view(request, game)`` for the game's club's organisers, and, if ``links``, for a
    phone with the game's table link (``request.table_link``, None for organisers); anyone
    else is refused (in JSON when a script asks for it)."""
    @wraps(view)
    def checked(request, game_id):
        game = get_object_or_404(Game.objects.select_related("season__club"), pk=game_id)
        club = game.season.club
        tournament = getattr(game.season, "tournament", None)
        if tournament is not None:  # its games are played and stored by the tournament
            return refuse(request, f"Game {game.number} is a game of the bot tournament "
                                   f"{tournament.name}: the tournament plays and stores its "
                                   "deals, so none is entered, undone or corrected here.", 400,
                          back=(reverse("gameplay:tournament", args=[tournament.pk]),
                                f"The tournament {tournament.name}"))
        request.table_link = None
        if organises(request.user, club):
            return view(request, game)
        if not links and table_links.session_link(request, game)[0] is not None:
            # a table's phone asking for what only organisers do: its link is no help here
            message = (f"A table link enters deals and seat changes only: ask an organiser of "
                       f"{club}.")
            if request.method == "POST" and wants_json(request):
                return JsonResponse({"error": message}, status=403)
            return refuse(request, message, 403, back=table_links.totals_of(game))
        link, reason = table_links.session_link(request, game) if links else (None, None)
        status = 403
        moved_on = link is not None and link.game_id != game.pk and moved_on_from(link, game)
        if moved_on and request.method == "GET" and refusal(link) is None:
            messages.info(request, f"This table has moved on from game {game.number} to game "
                                   f"{link.game.number}: enter its deals here.")
            return redirect(reverse("league:game_enter", args=[link.game_id]))
        if moved_on and request.method == "POST":
            # A deal kept for the table's last game: refused (a 400 the outbox lists), not
            # held as if this phone may not enter deals, which it would send for ever.
            message = (f"This table plays game {link.game.number} now, not game "
                       f"{game.number}: this was not stored; if it was played in game "
                       f"{link.game.number}, enter it there.")
            if wants_json(request):
                return JsonResponse({"error": message}, status=400)
            return refuse(request, message, 400, back=(
                reverse("league:game_enter", args=[link.game_id]),
                f"Game {link.game.number}: enter its deals"), outbox=True)
        if link is not None and reason is None:
            if not (request.method == "POST" and table_links.throttled(request, link)):
                request.table_link = link
                return view(request, game)
            reason, status = "too many changes from this table link: wait a minute", 429
        if reason is not None:
            message = stopped_words(reason)
        elif request.user.is_authenticated:
            message = f"Only organisers of {club} enter its results."
        else:
            # A table's phone whose session lapsed is anonymous too: it scans its code again.
            message = (f"Scan the code on the table card again, or sign in as an organiser "
                       f"of {club}, to enter its results.")
        if request.method == "POST" and wants_json(request):
            return JsonResponse({"error": message}, status=status)
        # The deals this phone keeps stay in sight (held until it may enter them again).
        if link is not None and link.game_id != game.pk and refusal(link) is None:
            return refuse(request, message, status, back=(
                reverse("league:game_enter", args=[link.game_id]),
                f"Back to your table's game {link.game.number}"), outbox=True)
        if reason is not None:  # a table's stopped link: its players still want the totals
            return refuse(request, message, status, back=table_links.totals_of(game),
                          outbox=True)
        return refuse(request, message, status, outbox=True)
    return checked


def stopped_words(reason: str) -> str:
    """What a phone whose table link stopped (table_links.refusal) is told."""
    return f"{capfirst(reason)}. Ask the organiser."


def link_stopped(request, game):
    """The answer to a phone whose table link stopped (revoked, time called) after this
    request's page check, before its write (the service refused it: LinkRefused), as a
    request sent after would get it: a 403, so the outbox holds a deal until the phone may
    send it again, not a 400 that refuses it for good; None if the link still works."""
    link = getattr(request, "table_link", None)
    if link is None:
        return None
    link.refresh_from_db()
    game.refresh_from_db()
    reason = refusal(link, game)
    if reason is None:
        return None
    if wants_json(request):
        return JsonResponse({"error": stopped_words(reason)}, status=403)
    return refuse(request, stopped_words(reason), 403, back=table_links.totals_of(game),
                  outbox=True)


def cancelled_next_step(table_link) -> str:
    """What to do once an organiser cancelled a game: its page says it, and so does the
    refusal of a deal sent for it, which a phone's outbox shows in place of the page."""
    if table_link is not None:
        return "if its players sit at another table now, scan that table's code"
    return "its players are free for another table"


def organiser_game(view):
    """The view for the game's club's organisers only (_entry_view)."""
    return _entry_view(view, links=False)


def table_game(view):
    """The view for the game's club's organisers and its table link's phones (_entry_view)."""
    return _entry_view(view, links=True)


def acting(request) -> dict:
    """Who writes, as the services take it: the organiser, or the table link."""
    link = getattr(request, "table_link", None)
    return {"by": None, "table_link": link} if link else {"by": request.user}


def page_address(game, origin=None) -> str:
    """The entry page's address, keeping the page the organiser came from (``next``)."""
    address = reverse("league:game_enter", args=[game.pk])
    return f"{address}?{urlencode({'next': origin})}" if origin else address


def back_to_page(game, origin=None):
    """After a change: the entry page as it is now (post, redirect, get), still knowing the
    page the organiser came from."""
    return redirect(page_address(game, origin))


def origin_of(request):
    """The organiser's way back (came_from); none for a table's phone, which sees none of the
    organisers' pages."""
    return None if getattr(request, "table_link", None) else came_from(request)


def names_of(game) -> dict:
    """Each role in the words of the game's preset."""
    return role_names(options_of(game.season))


def seat_form(game, next_deal, data=None) -> SeatChangeForm:
    """Who may leave (the players at the table) and join (the club's others who are not at
    another open table: ``form.elsewhere``, nights.StillPlaying, says where those are) before
    the next deal."""
    candidates = list(selectors.club_players(club=game.season.club).exclude(seats__game=game))
    # one line per table, as the night's pages say it (never this game: none of them sits here)
    still = nights.still_playing(game.season, candidates)
    busy = {p.pk for table in still for p in table.players}
    form = SeatChangeForm(data, seated=[s.player for s in next_deal.seats],
                          candidates=[p for p in candidates if p.pk not in busy])
    form.elsewhere = still
    return form


BACK_TO = {"league:night_plan": "Back to the plan", "league:night": "Back to the club night"}


def back_words(origin) -> str:
    """The words of the link back to ``origin``: the page named where it is one of the club
    night's."""
    try:
        return BACK_TO.get(resolve(urlsplit(origin or "").path).view_name, "Go back")
    except Resolver404:
        return "Go back"


def ranked(ranking, names):
    """(player, Role) pairs as (player, the role's name)."""
    return [(player, names[role]) for player, role in ranking]


def entry_page(request, game, status=200, *, next_deal=None, **shown):
    """The entry page with what the view ``shown`` on it, answered with ``status``."""
    options = options_of(game.season)
    names = role_names(options)
    next_deal = next_deal or selectors.game_next_deal(game=game)
    last_deal = selectors.undoable_deal(game=game)
    undo = request.GET.get("undo")
    origin = origin_of(request)
    dealer = (selectors.game_next_dealer(game=game, number=next_deal.number)
              if game.status != Game.FINISHED else None)
    context = {
        "game": game, "next": next_deal, "names": names, "preview": None, "seat_preview": None,
        "order_form": DealEntryForm(seats=next_deal.seats, number=next_deal.number),
        "last_deal": last_deal,
        "last_places": [(p.player, names[Role(p.role)]) for p in last_deal.places.all()]
        if last_deal else [],
        # A game that has ended keeps its deals until an organiser reopens it.
        "locked": game.status == Game.FINISHED and game.reopened_at is None,
        "undo_asked": last_deal is not None and undo == str(last_deal.pk),
        "undo_gone": undo is not None and (last_deal is None or undo != str(last_deal.pk)),
        "ranking": ranked(next_deal.ranking, names),
        "dealer": dealer,
        # who deals after the deals kept on the phone offline (enter.js)
        "dealing": {"dealer": str(dealer.pk),
                    "after": role_words.dealers_after(next_deal.seats, options)}
        if dealer else None,
        "by_position": role_words.by_position(len(next_deal.seats), options),
        "scoreboard": selectors.game_scoreboard(game=game),
        "deals": list(selectors.game_deals(game=game).reverse()),
        "winners": [s.player for s in game.seats.filter(is_winner=True).select_related("player")],
        "service_worker": reverse("league:entry_service_worker"),
        "table_link": getattr(request, "table_link", None),
        "cancelled_next_step": cancelled_next_step(getattr(request, "table_link", None))
        if game.status == Game.CANCELLED else None,
        # the page that sent the organiser here (the night's plan, to enter who leaves)
        "origin": origin, "origin_words": back_words(origin),
        "again": page_address(game, origin),
        **shown,
    }
    if "seat_form" not in context:
        context["seat_form"] = seat_form(game, next_deal)
    return render(request, "league/game_enter.html", context, status=status)
