"""Who may write through the API: a club's organisers write its data, everyone reads.

The same rule as the admin (league/admin.py): superusers write everywhere, an organiser only in
the clubs they organise. Reads are open to everyone, signed in or not (every club is public).
"""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from league.models import Club, Deal, Game, Season


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
    club = getattr(obj, "club", None)  # a tournament (gameplay.models.Tournament)
    if isinstance(club, Club):
        return club
    raise TypeError(f"no club for {type(obj).__name__}")


def organises(user, club: Club) -> bool:
    if not (user and user.is_authenticated and user.is_active):
        return False
    return user.is_superuser or club.organisers.filter(pk=user.pk).exists()


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
        return request.method in SAFE_METHODS or organises(request.user, club_of(obj))

