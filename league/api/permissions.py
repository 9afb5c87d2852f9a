"""Who may write through the API: a club's organisers write its data, everyone reads.

The same rule as the admin (league/admin.py): superusers write everywhere, an organiser only in
the clubs they organise; a player of several clubs only by who organises all of them
(league.selectors.may_change_player). Reads are open to everyone, signed in or not (every club
is public). Staff users (the admin's organisers) may open a new club, of which they become the
organiser; outside bots, whose URLs the site calls, are for administrators (superusers) alone.
"""

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from league.models import Club, Deal, Game, Player, Season
from league.selectors import may_change_player, organises


def club_of(obj) -> Club:
    """The club whose organisers may change ``obj``."""
    if isinstance(obj, Club):
        return obj
    if isinstance(obj, Season):
        return obj.club
    if isinstance(obj, Game):
        return obj.season.club
    if isinstance(obj, Deal):
        return obj.game.season.club
    club = getattr(obj, "club", None)  # a tournament (tournaments.models.Tournament)
    if isinstance(club, Club):
        return club
    raise TypeError(f"no club for {type(obj).__name__}")


class OrganiserWritesOthersRead(BasePermission):
    """Reads for everyone; writes for signed-in users who organise the object's club.

    A create has no object yet: its view checks the club it writes into with
    ``check_object_permissions`` (the game a deal is recorded in).
    """

    message = "only an organiser of this club may change its data"

    def has_permission(self, request, view):
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj):
        if request.method in SAFE_METHODS:
            return True
        if isinstance(obj, Player):
            if may_change_player(request.user, obj):
                return True
            raise PermissionDenied(f"{obj} plays or played in clubs you do not organise: only "
                                   "an organiser of every club they play or played in may "
                                   "change them")
        return organises(request.user, club_of(obj))


class StaffOpensClubs(OrganiserWritesOthersRead):
    """As above; opening a new club takes a staff user (the admin's mark of an organiser)."""

    message = "only a staff user may open a club, and only the club's organisers change it"

    def has_permission(self, request, view):
        if view.action == "create":
            user = request.user
            return bool(user and user.is_authenticated and user.is_active
                        and (user.is_staff or user.is_superuser))
        return super().has_permission(request, view)


class AdministratorsOnly(BasePermission):
    """Reads and writes for superusers only."""

    message = "only an administrator may see or change outside bots"

    def has_permission(self, request, view):
        user = request.user
        return bool(user and user.is_authenticated and user.is_active and user.is_superuser)

