"""Table links: confirming a round gives each of its games a link with which any phone at that
table enters the game's deals, its seat changes and undoes its own last deal, without an
account (issue #28). A link is an unguessable token (TOKEN_BYTES random bytes, more than the
128 bits asked), works for its one game only, and stops working when time is called on the
game (until an organiser reopens it) or when an organiser revokes it; an organiser may then
make the open game a new link (link_new).

The services that write through a link (league.services deal_record, deal_undo,
seat_change_apply) ask ``link_checked`` inside their transaction, after locking the game: a
link revoked or a game ended meanwhile refuses the write.
"""

import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from league.errors import Conflict, LeagueError
from league.models import AuditEntry, Game, TableLink

TOKEN_BYTES = 32  # 256 random bits, as URL-safe text of 43 characters
TOKEN_LONGEST = 64  # a token longer than any link's is not looked up


class LinkRefused(LeagueError):
    """A table link that may not do what was asked: for another game, revoked, time called."""


def links_create(*, games: Sequence[Game], by=None) -> list[TableLink]:
    """One new link per game (a round just confirmed)."""
    return TableLink.objects.bulk_create(
        [TableLink(game=game, token=secrets.token_urlsafe(TOKEN_BYTES), created_by=by)
         for game in games])


def link_of_token(token: str) -> TableLink | None:
    """The link a token names, revoked or not, or None. Looked up by the token's unique index:
    the token is not compared in Python, so no comparison's time tells how much of it matched."""
    if not token or len(token) > TOKEN_LONGEST:
        return None
    return TableLink.objects.select_related("game__season__club").filter(token=token).first()


def refusal(link: TableLink, game: Game | None = None) -> str | None:
    """Why ``link`` may not act on ``game`` (its own game by default) now, or None if it may."""
    if game is not None and link.game_id != game.pk:
        return "this table link is for another game"
    if link.revoked_at is not None:
        return "this table link was revoked by an organiser"
    own = game or link.game
    if own.time_called_at is not None:
        return f"time was called on game {own.number}: its table link no longer enters deals"
    return None


def moved_on_from(link: TableLink, game: Game) -> bool:
    """Whether ``link`` left ``game`` with its table: its game continues ``game`` ("New game,
    same table", directly or through the table's games between)."""
    later, seen = link.game, set()
    while later.continues_id is not None and later.continues_id not in seen:
        if later.continues_id == game.pk:
            return True
        seen.add(later.continues_id)
        later = Game.objects.only("continues_id").get(pk=later.continues_id)
    return False


def link_checked(link: TableLink, game: Game) -> None:
    """Refuse (LinkRefused) a write through ``link`` on ``game`` (the locked row). Locks the
    link (after the game) until the write commits: a revocation waits for it, or it for the
    revocation, which it then sees."""
    link = TableLink.objects.select_for_update(no_key=True).get(pk=link.pk)
    reason = refusal(link, game)
    if reason is not None:
        raise LinkRefused(f"{reason}; nothing was changed")


def live_links(games) -> list[TableLink]:
    """The links of ``games`` that still work, in game order."""
    return list(TableLink.objects.filter(game__in=games, revoked_at__isnull=True,
                                         game__time_called_at__isnull=True)
                .select_related("game").order_by("game__number", "pk"))


@transaction.atomic
def link_new(*, game: Game, by=None) -> TableLink:
    """A new link for an open game that has no working one (its link was revoked): a fresh
    token, audited. Refused (Conflict) while a link of the game still works."""
    # The game row only (as the services lock it): not its season and club, which writers
    # lock first (club, season, game), nor FOR UPDATE, which the phones' rows naming it wait for.
    game = (Game.objects.select_for_update(of=("self",), no_key=True)
            .select_related("season__club").get(pk=game.pk))
    if game.status == Game.CANCELLED:
        raise LeagueError(f"game {game.number} was cancelled: it needs no table link")
    if game.status != Game.OPEN:
        raise LeagueError(f"game {game.number} has ended: a table link would enter nothing")
    if live_links([game]):
        raise Conflict(f"game {game.number} already has a working table link: revoke it first "
                       "to replace it")
    (link,) = links_create(games=[game], by=by)
    AuditEntry.objects.create(actor=by, club=game.season.club, action="table link made",
                              target=str(game)[:200], details={"link": link.pk})
    return link


@transaction.atomic
def link_revoke(*, link: TableLink, by=None) -> TableLink:
    """Stop a link working (its phones are then anonymous visitors); revoking twice is once."""
    # The link row only, as link_checked locks it: a deal being written through the link
    # (its game locked, then the link) is stored before the revocation, or refused after it.
    # Locking its game, season and club too (FOR UPDATE) waited for the phone's game while
    # holding what the phone's deal locks next: a deadlock.
    link = (TableLink.objects.select_for_update(of=("self",), no_key=True)
            .select_related("game__season__club").get(pk=link.pk))
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        AuditEntry.objects.create(actor=by, club=link.game.season.club,
                                  action="table link revoked", target=str(link.game)[:200],
                                  details={"link": link.pk})
    return link
