"""Table links in the API (league.table_links): a script at a table records that game's deals
with ``Authorization: TableLink <token>``, and nothing else; organisers revoke a link.

Only the deals endpoint reads the header (DealViewSet's authentication); every other endpoint
sees a request carrying it, or the session of a phone that opened a link on the pages, as an
anonymous visitor's. A header sent by a script is not sent by a browser on its own, so a
table link's writes need no CSRF token.
"""

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.decorators import action
from rest_framework.exceptions import AuthenticationFailed, PermissionDenied
from rest_framework.response import Response

from league import table_links
from league.api.permissions import OrganiserWritesOthersRead
from league.api.schema import ERRORS, NOT_FOUND
from league.models import Game, TableLink
from league.selectors import organises
from plumbing.api.inputs import KnownQueryParameters

KEYWORD = "TableLink"


class TableLinkAuthentication(BaseAuthentication):
    """``Authorization: TableLink <token>``: an anonymous visitor holding a working table link
    (``request.auth``)."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].decode("latin-1").lower() != KEYWORD.lower():
            return None
        if len(parts) != 2:
            raise AuthenticationFailed(f"a table link is sent as `{KEYWORD} <token>`")
        link = table_links.link_of_token(parts[1].decode("latin-1"))
        if link is None:
            raise AuthenticationFailed("no table link has this token")
        reason = table_links.refusal(link)
        if reason is not None:
            raise AuthenticationFailed(reason)
        return AnonymousUser(), link

    def authenticate_header(self, request):
        return KEYWORD


class TableLinkScheme(OpenApiAuthenticationExtension):
    target_class = TableLinkAuthentication
    name = "tableLink"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": f"`{KEYWORD} <token>`: a table link's token (the last part of "
                               "its address); it records deals of its own game only."}


def link_of(request) -> TableLink | None:
    return request.auth if isinstance(request.auth, TableLink) else None


class OrganiserOrTableLink(OrganiserWritesOthersRead):
    """As OrganiserWritesOthersRead; a table link also records deals (``create``) of its own
    game, and changes nothing else."""

    def has_permission(self, request, view):
        if link_of(request) is not None:
            return view.action in ("list", "retrieve", "create")
        return super().has_permission(request, view)

    def has_object_permission(self, request, view, obj):
        link = link_of(request)
        if link is None:
            return super().has_object_permission(request, view, obj)
        if view.action in ("list", "retrieve"):
            return True
        if view.action == "create" and isinstance(obj, Game) and obj.pk == link.game_id:
            return True
        raise PermissionDenied("this table link records deals of its own game only")


class OrganisesLinksClub(OrganiserWritesOthersRead):
    """A table link is its club's organisers' alone, to read or to revoke."""

    message = "only an organiser of the game's club may see or revoke its table links"

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj):
        return organises(request.user, obj.game.season.club)


class TableLinkSerializer(serializers.ModelSerializer):
    class Meta:
        model = TableLink
        fields = ["id", "game", "token", "created_at", "revoked_at"]


class TableLinkViewSet(KnownQueryParameters, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A game's table link, for its club's organisers (confirming a round creates one per
    game: league.nights.night_confirm)."""

    queryset = TableLink.objects.select_related("game__season__club").order_by("pk")
    serializer_class = TableLinkSerializer
    permission_classes = [OrganisesLinksClub]
    filter_backends = []

    @extend_schema(request=None, responses={200: TableLinkSerializer, **ERRORS, **NOT_FOUND},
                   description="Revoke a table link (league.table_links.link_revoke): the "
                               "phones and scripts holding it can no longer enter its game's "
                               "deals. Revoking twice is once. Organisers of the game's club.")
    @action(detail=True, methods=["post"])
    def revoke(self, request, pk=None):
        link = table_links.link_revoke(link=self.get_object(), by=request.user)
        return Response(TableLinkSerializer(link).data)
