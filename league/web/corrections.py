"""Correcting an earlier deal on the entry page: the deal's finishing order in the same form as
the next deal's, previewed with its roles and the totals it leads to, then confirmed; or the
deal deleted after a confirmation. The services judge and write (deal_edit_preview, deal_edit,
deal_delete); a double post of one form acts once (services.deal_edit_once, deal_delete_once).
A game that has ended is reopened first, after a preview saying whose result changes
(services.game_reopen_preview, game_reopen)."""

from django.contrib import messages
from django.utils.html import format_html
from django.utils.text import capfirst
from django.views.decorators.http import require_POST

from gameplay.engine.roles import Role, exchange_pairs, roles_of
from league import selectors, services
from league.errors import LeagueError
from league.rules import options_of
from league.web.entry_page import back_to_page, entry_page, names_of, organiser_game
from league.web.forms import FinishingOrderForm, TokenForm
from league.web.role_words import names as said_names


def asked(request, game) -> tuple[dict, int]:
    """The entry page's context for a correction asked by a link (``?correct=<deal id>``, or
    ``?delete=<deal id>`` for the question asked without script), and its status."""
    deal_id = request.GET.get("correct") or request.GET.get("delete")
    deal = selectors.deal_of_game(game=game, deal_id=deal_id)
    if deal is None:
        return {"correct_gone": services.DEAL_GONE}, 404
    return {"correct": _as_recorded(game, deal), "delete_asked": "delete" in request.GET}, 200


def _correction(request, game, then):
    """A posted correction checked: ``then(deal, seats, form, shown)``'s answer, or the
    page again with the form and what is wrong (``shown``: the page's correction section)."""
    deal = selectors.deal_of_game(game=game, deal_id=request.POST.get("deal"))
    if deal is None:
        return entry_page(request, game, 400, correct_gone=services.DEAL_GONE)
    seats = selectors.deal_seats(game=game, number=deal.number)
    form = FinishingOrderForm(request.POST, seats=seats)
    shown = _correcting(deal, seats, form, names_of(game))
    if not form.is_valid():
        return entry_page(request, game, 400, correct=shown)
    try:
        return then(deal, seats, form, shown)
    except LeagueError as e:
        shown["error"] = e.message
        return entry_page(request, game, 400, correct=shown)


@require_POST
@organiser_game
def correct_preview(request, game):
    """The corrected deal's roles and the totals it leads to, to confirm."""
    def preview(deal, seats, form, shown):
        order = form.cleaned_data["order"]
        after = services.deal_edit_preview(deal=deal, finishing_order=order,
                                           transcript=deal.transcript)
        shown["preview"] = _preview(game, deal, seats, order, after, names_of(game))
        return entry_page(request, game, correct=shown)
    return _correction(request, game, preview)


@require_POST
@organiser_game
def correct(request, game):
    """Correct an earlier deal's finishing order, once per form token."""
    def edit(deal, seats, form, shown):
        # The deal's transcript goes with its order: a correction must agree with the play
        # it records (the service judges), and the page never drops it.
        number, edited = services.deal_edit_once(
            deal=deal, finishing_order=form.cleaned_data["order"], transcript=deal.transcript,
            by=request.user, token=form.cleaned_data["token"])
        if edited:
            messages.success(request, f"Deal {number} corrected.")
        else:
            messages.info(request, f"Deal {number} was already corrected from this form; "
                                   "it is changed once.")
        return back_to_page(game)
    return _correction(request, game, edit)


@require_POST
@organiser_game
def deal_delete(request, game):
    """Delete an earlier deal, once per form token; the deals after it move up one number."""
    deal_id = request.POST.get("deal")
    form = TokenForm(request.POST)
    try:
        if not form.is_valid():
            raise LeagueError("this form has no token: open the deal again")
        number, undone, deleted = services.deal_delete_once(
            game=game, deal_id=deal_id, by=request.user, token=form.cleaned_data["token"])
    except LeagueError as e:
        deal = selectors.deal_of_game(game=game, deal_id=deal_id)
        if deal is None:
            return entry_page(request, game, 400, correct_gone=e.message)
        shown = _as_recorded(game, deal)
        shown["error"] = e.message
        return entry_page(request, game, 400, correct=shown)
    if deleted:
        with_changes = f", and the seat change after it ({', '.join(undone)})" if undone else ""
        messages.success(request, f"Deal {number} deleted{with_changes}; the deals after it "
                                  "moved up one number.")
    else:
        messages.info(request, f"Deal {number} was already deleted from this form.")
    return back_to_page(game)


def reopen_asked(game) -> tuple[dict, int]:
    """The entry page's context for reopening a game that has ended (``?reopen``): whose
    result changes, in words, before the organiser confirms."""
    try:
        preview = services.game_reopen_preview(game=game)
    except LeagueError as e:
        return {"error": e.message}, 400
    before, after = preview.winners_before, preview.winners_after
    if preview.time_called:
        words = format_html(
            "Time was called on game {}. Reopened, it goes on: {} no longer {}, and nobody has "
            "won until the game ends again. Its deals can then be undone or corrected and new "
            "deals entered.", game.number, _people(before), "wins" if len(before) == 1 else "win")
    else:
        words = (f"Game {game.number} ended when its deals decided it. Reopened, its deals can "
                 "be undone or corrected; the winner changes only if a correction changes "
                 "the totals.")
    return {"reopen": {"words": words, "before": _people(before), "after": _people(after)}}, 200


def _people(players) -> str:
    return said_names(players) if players else "nobody yet"


@require_POST
@organiser_game
def game_reopen(request, game):
    """Reopen a game that has ended, so that its deals can be undone or corrected."""
    try:
        services.game_reopen(game=game, by=request.user)
    except LeagueError as e:
        messages.error(request, capfirst(e.message) + ".")
    else:
        messages.success(request, f"Game {game.number} reopened: its deals can be undone or "
                                  "corrected.")
    return back_to_page(game)


def _as_recorded(game, deal) -> dict:
    """The correction section for a deal, its form filled with the order recorded."""
    seats = selectors.deal_seats(game=game, number=deal.number)
    form = FinishingOrderForm(seats=seats, initial={
        f"place_{place.position}": place.player_id for place in deal.places.all()})
    return _correcting(deal, seats, form, names_of(game))


def _correcting(deal, seats, form, names) -> dict:
    return {
        "deal": deal, "seats": seats, "form": form, "preview": None, "error": None,
        "places": [(p.player, names[Role(p.role)]) for p in deal.places.all()],
        "delete_form": TokenForm(),
    }


def _preview(game, deal, seats, order, after, names) -> dict:
    """The corrected deal's places with their roles, each player's total now and after, the
    game's end after, and the exchange before the next deal if the corrected deal is the
    last one."""
    people = {s.player_id: s.player for s in seats}
    ranking = list(roles_of([people[p] for p in order]).items())
    now = {s.player_id: s.points for s in selectors.game_scoreboard(game=game)}
    everyone = {s.player_id: s.player for s in after.seats}
    last = game.deal_set.order_by("-number").values_list("pk", flat=True).first() == deal.pk
    exchanges = None
    if last and not after.finished and options_of(game.season).has_exchange:
        exchanges = [(everyone[g], everyone[r], n) for g, r, n in
                     exchange_pairs(after.next_ranking)]
    return {
        "places": [(i, p, names[role]) for i, (p, role) in enumerate(ranking, 1)],
        "totals": [(s.player, now[s.player_id], s.points) for s in after.seats],
        "finished": after.finished,
        "was_finished": game.status == game.FINISHED,
        "winners": [s.player for s in after.seats if s.is_winner],
        "exchanges": exchanges,
        "next_number": deal.number + 1,
        "unchanged": order == [p.player_id for p in deal.places.all()],
    }
