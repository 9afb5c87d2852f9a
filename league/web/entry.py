"""Result entry for a club's organisers, one view per thing done: the entry page (GET), a deal's
finishing order previewed and then recorded, the last deal undone, players leaving or joining
(previewed, then applied), a new game at the same table, and the service worker that keeps the
page for use offline. Corrections, deletions and reopening are in league.web.corrections.

A deal recorded by the page's script (Accept: application/json; a deal kept on the phone while
offline, sent later by the outbox) is answered in JSON: its number, or why it was refused."""

import json

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst
from django.views.decorators.http import require_POST, require_safe

from gameplay.engine.roles import exchange_pairs, roles_of
from league import selectors, services
from league.errors import Conflict, LeagueError
from league.models import Deal, Game, Place
from league.rules import options_of
from league.table_links import LinkRefused
from league.web import corrections, role_words
from league.web.entry_page import (
    acting,
    back_to_page,
    cancelled_next_step,
    entry_page,
    link_stopped,
    names_of,
    organiser_game,
    origin_of,
    ranked,
    seat_form,
    table_game,
    wants_json,
)
from league.web.forms import DealEntryForm


@require_safe
@table_game
def game_enter(request, game):
    """The entry page; asked by its links, with a correction (``?correct=<deal id>``, or
    ``?delete=<deal id>`` for the question asked without script) or a reopening (``?reopen``)
    open on it, for organisers (a table link enters deals only)."""
    shown, status = {}, 200
    organiser = request.table_link is None
    if organiser and ("correct" in request.GET or "delete" in request.GET):
        shown, status = corrections.asked(request, game)
    elif organiser and "reopen" in request.GET:
        shown, status = corrections.reopen_asked(game)
    return entry_page(request, game, status, **shown)


def _form_errors(form):
    """A form's errors in one sentence, each field's under its label."""
    parts = [" ".join(form.non_field_errors())]
    parts += [f"{form[name].label}: {' '.join(errors)}"
              for name, errors in form.errors.items() if name != "__all__"]
    return "; ".join(p for p in parts if p)


def _deal_form(request, game):
    next_deal = selectors.game_next_deal(game=game)
    return next_deal, DealEntryForm(request.POST, seats=next_deal.seats, number=next_deal.number)


PLACES_MAX = 64  # more places than any table has


def _order_posted(request, form) -> list[int]:
    """The finishing order as the phone listed it: the form's places, then those past the
    table's seats now, which a page loaded before someone left (on another phone) still had;
    so the service names who is no longer at the table, not one listed as missing."""
    order = list(form.cleaned_data["order"])
    for position in range(len(form.place_fields()) + 1, PLACES_MAX + 1):
        value = request.POST.get(f"place_{position}")
        if value is None:
            break
        if value.isascii() and value.isdigit() and len(value) <= 18:  # within ID_MAX
            order.append(int(value))
    return order


def _entered_meanwhile(request, game, conflict):
    """The deal was entered on another phone meanwhile: the game as it is now, saying so."""
    messages.error(request, capfirst(conflict.message) + ".")
    return back_to_page(game, origin_of(request))


@require_POST
@table_game
def deal_preview(request, game):
    """The next deal's finishing order with its roles and the next exchange, to confirm."""
    next_deal, form = _deal_form(request, game)
    if not form.is_valid():
        return entry_page(request, game, 400, next_deal=next_deal, order_form=form)
    entered = form.cleaned_data
    try:
        order = services.finishing_order_check(game=game,
                                               finishing_order=_order_posted(request, form),
                                               number=entered["number"])
    except Conflict as e:
        return _entered_meanwhile(request, game, e)
    except LeagueError as e:
        return entry_page(request, game, 400, next_deal=next_deal, order_form=form,
                          error=e.message)
    names = names_of(game)
    seated = {s.player.pk: s.player for s in next_deal.seats}
    ranking = list(roles_of([seated[p] for p in order]).items())
    return entry_page(request, game, next_deal=next_deal, order_form=form, preview={
        "places": [(i, p, names[role]) for i, (p, role) in enumerate(ranking, 1)],
        "exchanges": exchange_pairs(ranking),
        "exchange_in_preset": next_deal.exchange_in_preset,
    })


@require_POST
@table_game
def deal_record(request, game):
    """Record the next deal, once per form token; from the page's script, answered in JSON:
    201 recorded, 200 already recorded from this form (said as recorded), 409 that deal number
    recorded meanwhile (on another phone), 400 refused, each with the words to show."""
    as_json = wants_json(request)
    next_deal, form = _deal_form(request, game)
    if not form.is_valid():
        if as_json:
            return JsonResponse({"error": _form_errors(form)}, status=400)
        return entry_page(request, game, 400, next_deal=next_deal, order_form=form)
    entered = form.cleaned_data
    try:
        number, recorded = services.deal_record_once(
            game=game, finishing_order=_order_posted(request, form), number=entered["number"],
            source=Deal.OUTBOX if entered["kept_offline"] else Deal.PAGE,
            token=entered["token"], **acting(request))
    except Conflict as e:
        game.refresh_from_db(fields=["status"])  # cancelled meanwhile?
        if as_json and game.status != Game.CANCELLED:
            return JsonResponse({"error": e.message, "conflict": True,
                                 "stored": _stored_order(game, entered["number"])}, status=409)
        if as_json:  # no deal of any number goes in: refused, not another phone's deal
            next_step = cancelled_next_step(request.table_link)
            return JsonResponse({"error": f"{e.message}; {next_step}"}, status=400)
        return _entered_meanwhile(request, game, e)
    except LeagueError as e:
        stopped = isinstance(e, LinkRefused) and link_stopped(request, game)
        if stopped:
            return stopped
        if as_json:
            return JsonResponse({"error": e.message}, status=400)
        return entry_page(request, game, 400, next_deal=next_deal, order_form=form,
                          error=e.message)
    # Sent again (a double tap, or the outbox after the answer was lost), the deal is stored
    # once and said once: the first answer may have left its words waiting for the next page.
    message = f"Deal {number} recorded."
    shown = messages.get_messages(request)
    waiting = [str(m) for m in shown]
    shown.used = False  # looked at, still to be shown
    if recorded or message not in waiting:
        messages.success(request, message)
    if as_json:
        return JsonResponse({"number": number, "recorded": recorded, "message": message},
                            status=201 if recorded else 200)
    return back_to_page(game, origin_of(request))


def _stored_order(game, number) -> str | None:
    """The finishing order of the game's deal ``number`` as the outbox words one ("Ann, Ben,
    Cai"), for a phone to tell its refused copy of that deal from another deal; None if the
    game has no such deal."""
    names = list(Place.objects.filter(deal__game=game, deal__number=number)
                 .order_by("position").values_list("player__name", flat=True))
    return ", ".join(names) or None


@require_POST
@table_game
def deal_undo(request, game):
    """Undo the last deal (``deal``: the one the organiser saw as the last)."""
    try:
        number, undone = services.deal_undo(game=game, deal_id=request.POST.get("deal"),
                                            **acting(request))
    except LeagueError as e:
        messages.error(request, capfirst(e.message) + ".")
    else:
        with_changes = f", and the seat change after it ({', '.join(undone)})" if undone else ""
        messages.success(request, f"Deal {number} undone{with_changes}.")
    return back_to_page(game, origin_of(request))


def _seat_change(request, game, then):
    """A posted leave/join checked: ``then(next_deal, form, leaving, joining)``'s answer, or
    the page again with what is wrong."""
    next_deal = selectors.game_next_deal(game=game)
    form = seat_form(game, next_deal, request.POST)
    if not form.is_valid():
        meanwhile = _changed_meanwhile(game, next_deal, form)
        if meanwhile:  # the table as it is now, and what changed it
            return entry_page(request, game, 400, next_deal=next_deal,
                              seat_error=f"{capfirst(meanwhile)}: nothing was changed.")
        return entry_page(request, game, 400, next_deal=next_deal, seat_form=form)
    try:
        return then(next_deal, form, form.cleaned_data["leaving_players"],
                    form.cleaned_data["joining_players"])
    except LeagueError as e:
        stopped = isinstance(e, LinkRefused) and link_stopped(request, game)
        if stopped:  # as a deal is answered (deal_record)
            return stopped
        return entry_page(request, game, 400, next_deal=next_deal, seat_form=form,
                          seat_error=e.message)


def _changed_meanwhile(game, next_deal, form) -> str:
    """What made a posted leave or join no longer fit the table, as a page loaded before
    another phone entered a change offered it: who already left or joined, who sits at
    another table now ('' if none of that)."""
    seats = {s.player_id: s for s in game.seats.select_related("player")}
    here = {s.player_id for s in next_deal.seats}
    elsewhere = {p.pk: table for table in form.elsewhere for p in table.players}
    said = []
    for pk in _ids(form.data.getlist("leaving")):
        seat = seats.get(pk)
        if seat is not None and pk not in here and seat.left_before is not None:
            said.append(f"{seat.player} already left before deal {seat.left_before}")
    for pk in _ids(form.data.getlist("joining")):
        seat = seats.get(pk)
        if seat is not None and pk in here:
            said.append(f"{seat.player} already joined before deal {seat.joined_before}")
        elif pk in elsewhere:
            table = elsewhere[pk]
            player = next(p for p in table.players if p.pk == pk)
            said.append(f"{player} cannot join: they sit at {table.where} now")
    return "; ".join(said)


def _ids(values) -> list[int]:
    return [int(v) for v in values if v.isascii() and v.isdigit() and len(v) <= 18]


@require_POST
@table_game
def seat_change_preview(request, game):
    """The roles after players leave or join before the next deal, said in words, to confirm."""
    def preview(next_deal, form, leaving, joining):
        ranking = services.seat_change_preview(game=game, leaving=leaving, joining=joining)
        people = {p.pk: p for p in [*(s.player for s in next_deal.seats), *joining]}
        after = [(people[pid], role) for pid, role in ranking]
        return entry_page(request, game, next_deal=next_deal, seat_form=form, seat_preview={
            "leaving": leaving, "joining": joining,
            "ranking": ranked(after, names_of(game)),
            "exchanges": selectors.exchanges_of(ranking, list(people.values())),
            "words": role_words.shift_words(next_deal.ranking, after, leaving=leaving,
                                            joining=joining, options=options_of(game.season)),
        })
    return _seat_change(request, game, preview)


@require_POST
@table_game
def seat_change(request, game):
    """Players leave or join before the next deal."""
    def apply(next_deal, form, leaving, joining):
        services.seat_change_apply(game=game, leaving=leaving, joining=joining,
                                   **acting(request))
        said = format_html_join("; ", "{} {}", [(role_words.bdi(p), "leaves") for p in leaving]
                                + [(role_words.bdi(p), "joins") for p in joining])
        messages.success(request, format_html("{}.", said))
        origin = origin_of(request)  # the night's plan waiting for who left, say
        return redirect(origin) if origin else back_to_page(game)
    return _seat_change(request, game, apply)


@require_POST
@organiser_game
def same_table(request, game):
    """A new game for the players at this finished game's table (services.game_same_table)."""
    try:
        new = services.game_same_table(game=game, by=request.user)
    except LeagueError as e:
        return entry_page(request, game, 400, error=e.message)
    messages.success(request, f"Game {new.number} started at the same table.")
    return redirect(reverse("league:game_enter", args=[new.pk]))


def entry_service_worker(request):
    """The entry page's service worker (static/league/entry-sw.js), served from /league/games/
    so that its scope covers every game's entry page; the assets it keeps for offline use are
    named by their static URLs (hashed in production)."""
    assets = [static(name) for name in ENTRY_ASSETS]
    script = render_to_string("league/entry-sw.js", {"assets": json.dumps(assets)})
    return HttpResponse(script, content_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


ENTRY_ASSETS = ("league/league.css", "league/enter.js", "league/outbox.js",
                "league/first_error.js", "league/favicon.svg")
