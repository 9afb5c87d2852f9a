"""Table links as pages (league.table_links): opening a link, the links of tonight's tables
with their QR codes on the night page, the printable sheet of table cards, revoking one (asked
first) and making a table whose link was revoked a new one.

Opening a link (``/league/t/<token>/``) keeps the link's id in the phone's session and sends it
to its game's entry page; from then on that session enters that game's deals, seat changes and
undoes its own last deal (league.web.entry_page.table_game), and is an anonymous visitor
everywhere else (every other page, and the API, which does not read the session's link). The
token leaves the address bar at once (a redirect), and the site's Referrer-Policy
(same-origin, Django's default) keeps it from other sites.
"""

from dataclasses import dataclass

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.core import get_usage, is_ratelimited

from league import nights, rounds, table_links
from league.errors import Conflict, LeagueError
from league.models import Game, Player, TableLink
from league.selectors import organises
from league.web.night_season import club_night
from league.web.refused import refuse

SESSION_KEY = "table_links"  # the ids of the links this phone opened, newest last
LINKS_KEPT = 10  # a phone keeps the links it opened last


def _open_rate(group, request):
    return settings.TABLE_LINK_OPEN_RATE


def _write_rate(group, request):
    return settings.TABLE_LINK_RATE


def guesses(request, increment: bool = False) -> bool:
    """Whether this address opened TABLE_LINK_OPEN_RATE's count of tokens that are no link
    (counting one more if ``increment``). Real links are not counted: a club night's phones
    share its Wi-Fi's one address."""
    usage = get_usage(request, group="table-link-open", key="ip", rate=_open_rate,
                      increment=increment)
    return usage is not None and usage["count"] >= usage["limit"]


def totals_of(game):
    """The way on from a table link that stopped: the game's page, as (address, words)."""
    return reverse("league:game_detail", args=[game.pk]), f"Game {game.number}: the totals"


@never_cache
@require_safe
def table_link_open(request, token):
    """Open a table link: its game's entry page, for this phone's session."""
    if guesses(request):
        return refuse(request, "Too many unknown table links opened from your address: wait "
                               "a minute and scan the code again.", status=429)
    link = table_links.link_of_token(token)
    if link is None:
        guesses(request, increment=True)
        return refuse(request, "This table link does not exist: scan the code on the table "
                               "card again, or ask the organiser for the table's link.", 404)
    reason = table_links.refusal(link)
    if reason is not None:
        return refuse(request, f"{capfirst(reason)}. Ask the organiser.", 410,
                      back=totals_of(link.game), outbox=True)
    kept = [pk for pk in request.session.get(SESSION_KEY, []) if pk != link.pk]
    request.session[SESSION_KEY] = [*kept[-(LINKS_KEPT - 1):], link.pk]
    return redirect(reverse("league:game_enter", args=[link.game_id]))


def session_link(request, game: Game) -> tuple[TableLink | None, str | None]:
    """The table link this phone opened that bears on ``game``, and why it may not act on
    ``game`` (or None): its link for ``game``; else one that moved on from ``game`` with its
    table ("New game, same table"); else the newest it opened ("for another game")."""
    ids = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    if not ids:
        return None, None
    links = list(TableLink.objects.filter(pk__in=ids).select_related("game").order_by("-pk"))
    link = (next((link for link in links if link.game_id == game.pk), None)
            or next((link for link in links if table_links.moved_on_from(link, game)), None)
            or next(iter(links), None))
    if link is None:
        return None, None
    return link, table_links.refusal(link, game)


def throttled(request, link: TableLink) -> bool:
    """A write through ``link`` over TABLE_LINK_RATE (counted per link)."""
    return is_ratelimited(request, group="table-link-write", key=lambda g, r: str(link.pk),
                          rate=_write_rate, method="POST", increment=True)


@dataclass
class TableCard:
    round: int
    table: int
    game: Game
    seats: list[Player]  # who sits there now, in seat order
    dealer: Player | None  # the first dealer; None once they left the table
    link: TableLink
    url: str

    @property
    def qr(self) -> str:
        """The link's QR code as inline SVG, sized by the page's CSS."""
        code = segno.make(self.url, error="m")
        return mark_safe(code.svg_inline(scale=1, border=2, omitsize=True, svgclass="qr",
                                         title=f"QR code of table {self.table}'s link"))


def table_cards(request, board: nights.NightBoard) -> list[TableCard]:
    """The night's tables still playing whose link still works, round by round, as cards."""
    games = [t.game for tables in board.rounds for t in tables]
    links = {link.game_id: link for link in table_links.live_links(games)}
    cards = []
    for round_number, tables in enumerate(board.rounds, 1):
        for state in tables:
            link = links.get(state.game.pk)
            if link is None or state.game.status == Game.FINISHED:  # nothing more to enter
                continue
            # who sits there now: the card of a table someone left or joined is the table
            seats = sorted((s for s in state.seats if s.left_before is None),
                           key=lambda s: s.number)
            dealer = next((s.player for s in seats if s.number == state.game.dealer), None)
            cards.append(TableCard(
                round=round_number, table=state.table, game=state.game,
                seats=[s.player for s in seats], dealer=dealer, link=link,
                url=request.build_absolute_uri(reverse("league:table_link_open",
                                                       args=[link.token]))))
    return cards


@dataclass
class TableUnlinked:
    round: int
    table: int
    game: Game


def tables_unlinked(board: nights.NightBoard) -> list[TableUnlinked]:
    """The night's tables still playing with no working link (it was revoked): an organiser
    may make each a new one."""
    games = [t.game for tables in board.rounds for t in tables if t.game.status == Game.OPEN]
    linked = {link.game_id for link in table_links.live_links(games)}
    return [TableUnlinked(round=round_number, table=state.table, game=state.game)
            for round_number, tables in enumerate(board.rounds, 1) for state in tables
            if state.game.status == Game.OPEN and state.game.pk not in linked]


@club_night()
@login_required
@require_safe
def table_cards_sheet(request, season):
    """Tonight's table cards to print: table, seats in order, first dealer, the link's QR."""
    if not organises(request.user, season.club):
        return refuse(request, f"Only organisers of {season.club} print its table cards.")
    board = nights.night_board(season, rounds.night_of())
    return render(request, "league/night/table_cards.html",
                  {"season": season, "cards": table_cards(request, board)})


@login_required
@require_POST
def table_link_revoke(request, link_id):
    """Stop a table link working; back to the night page."""
    link = get_object_or_404(TableLink.objects.select_related("game__season__club"), pk=link_id)
    season = link.game.season
    if not organises(request.user, season.club):
        return refuse(request, f"Only organisers of {season.club} revoke its table links.")
    table_links.link_revoke(link=link, by=request.user)
    messages.success(request, f"The table link of game {link.game.number} was revoked: the "
                              "phones that used it can no longer enter its deals.")
    return redirect(reverse("league:night", args=[season.pk]))


@login_required
@require_POST
def table_link_new(request, game_id):
    """A new link for a table whose link was revoked; back to the night page, where its code
    is."""
    game = get_object_or_404(Game.objects.select_related("season__club"), pk=game_id)
    season = game.season
    if not organises(request.user, season.club):
        return refuse(request, f"Only organisers of {season.club} make its table links.")
    where = rounds.where_played([game])[game.pk]
    try:
        link = table_links.link_new(game=game, by=request.user)
    except LeagueError as e:
        return render(request, "league/night/refused.html", {
            "message": f"Nothing was changed: {e.message}.",
            "back": reverse("league:night", args=[season.pk])},
            status=409 if isinstance(e, Conflict) else 400)
    messages.success(request, f"A new table link for {where}: its code is below, and the "
                              "phones at the table open it (or scan it) once.")
    return redirect(reverse("league:night", args=[season.pk]) + f"#link-{link.pk}")
