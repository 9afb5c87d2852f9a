"""Correcting an earlier deal on the entry page: the deal's finishing order in the same form as
the next deal's, previewed with its roles and the totals it leads to, then confirmed; or the
deal deleted after a confirmation. The services judge and write (deal_edit_preview, deal_edit,
deal_delete); a double post of one form acts once (forms.deal_edit_once, deal_delete_once).
A game that has ended is reopened first, after a preview saying whose result changes
(services.game_reopen_preview, game_reopen)."""

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.text import capfirst

from gameplay.engine.roles import Role, exchange_pairs, roles_of
from league import selectors, services
from league.errors import LeagueError
from league.rules import options_of
from league.web.entry import names as entry_names
from league.web.forms import (
    GONE,
    FinishingOrderForm,
    TokenForm,
    deal_delete_once,
    deal_edit_once,
)

ACTIONS = ("correct_preview", "correct_confirm", "deal_delete", "reopen")


def asked(request, game, names) -> tuple[dict, int]:
    """The entry page's context for a correction asked by a link (``?correct=<deal id>``, or
    ``?delete=<deal id>`` for the question asked without script), and its status."""
    deal_id = request.GET.get("correct") or request.GET.get("delete")
    deal = selectors.deal_of_game(game=game, deal_id=deal_id)
    if deal is None:
        return {"correct_gone": GONE}, 404
    seats = selectors.deal_seats(game=game, number=deal.number)
    form = FinishingOrderForm(seats=seats, initial={
        f"place_{place.position}": place.player_id for place in deal.places.all()})
    return {"correct": _correcting(deal, seats, form, names),
            "delete_asked": "delete" in request.GET}, 200


def posted(request, game, action, names):
    """A correction's or deletion's post: a redirect once done, else (context, status) for
    the entry page showing the form again with the service's refusal or the preview."""
    here = reverse("league:game_enter", args=[game.pk])
    deal_id = request.POST.get("deal")
    if action == "reopen":
        return _reopen(request, game, here)
    if action == "deal_delete":
        return _delete(request, game, deal_id, names, here)
    deal = selectors.deal_of_game(game=game, deal_id=deal_id)
    if deal is None:
        return {"correct_gone": GONE}, 400
    seats = selectors.deal_seats(game=game, number=deal.number)
    form = FinishingOrderForm(request.POST, seats=seats)
    correct = _correcting(deal, seats, form, names)
    context = {"correct": correct}
    if not form.is_valid():
        return context, 400
    order = form.cleaned_data["order"]
    try:
        if action == "correct_preview":
            after = services.deal_edit_preview(deal=deal, finishing_order=order,
                                               transcript=deal.transcript)
            correct["preview"] = _preview(game, deal, seats, order, after, names)
            return context, 200
        # The deal's transcript goes with its order: a correction must agree with the play
        # it records (the service judges), and the page never drops it.
        number, edited = deal_edit_once(deal=deal, finishing_order=order,
                                        transcript=deal.transcript, by=request.user,
                                        token=form.cleaned_data["token"])
    except LeagueError as e:
        correct["error"] = e.message
        return context, 400
    if edited:
        messages.success(request, f"Deal {number} corrected.")
    else:
        messages.info(request, f"Deal {number} was already corrected from this form; "
                               "it is changed once.")
    return redirect(here)


def _delete(request, game, deal_id, names, here):
    form = TokenForm(request.POST)
    try:
        if not form.is_valid():
            raise LeagueError("this form has no token: open the deal again")
        number, undone, deleted = deal_delete_once(game=game, deal_id=deal_id, by=request.user,
                                                   token=form.cleaned_data["token"])
    except LeagueError as e:
        deal = selectors.deal_of_game(game=game, deal_id=deal_id)
        if deal is None:
            return {"correct_gone": e.message}, 400
        seats = selectors.deal_seats(game=game, number=deal.number)
        correct = _correcting(deal, seats, FinishingOrderForm(seats=seats, initial={
            f"place_{p.position}": p.player_id for p in deal.places.all()}), names)
        correct["error"] = e.message
        return {"correct": correct}, 400
    if deleted:
        with_changes = f", and the seat change after it ({', '.join(undone)})" if undone else ""
        messages.success(request, f"Deal {number} deleted{with_changes}; the deals after it "
                                  "moved up one number.")
    else:
        messages.info(request, f"Deal {number} was already deleted from this form.")
    return redirect(here)


def reopen_asked(game) -> tuple[dict, int]:
    """The entry page's context for reopening a game that has ended (``?reopen``): whose
    result changes, in words, before the organiser confirms."""
    try:
        preview = services.game_reopen_preview(game=game)
    except LeagueError as e:
        return {"error": e.message}, 400
    before, after = preview.winners_before, preview.winners_after
    if preview.time_called:
        words = (f"Time was called on game {game.number}. Reopened, it goes on: "
                 f"{_people(before)} no longer {'wins' if len(before) == 1 else 'win'}, and "
                 "nobody has won until the game ends again. Its deals can then be undone or "
                 "corrected and new deals entered.")
    else:
        words = (f"Game {game.number} ended when its deals decided it. Reopened, its deals can "
                 "be undone or corrected; the winner changes only if a correction changes "
                 "the totals.")
    return {"reopen": {"words": words, "before": _people(before), "after": _people(after)}}, 200


def _people(players) -> str:
    return entry_names(players) if players else "nobody yet"


def _reopen(request, game, here):
    try:
        services.game_reopen(game=game, by=request.user)
    except LeagueError as e:
        messages.error(request, capfirst(e.message) + ".")
    else:
        messages.success(request, f"Game {game.number} reopened: its deals can be undone or "
                                  "corrected.")
    return redirect(here)


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
