"""The outside bots' API for administrators: the outside bots organisers may enter in
tournaments (/api/v1/outside-bots/). Authors manage their own through accounts.api."""

import django_filters
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status, viewsets
from rest_framework.response import Response

from league.api.permissions import AdministratorsOnly
from league.api.schema import ERRORS, NOT_FOUND, updates, valid
from outside_bots import services
from outside_bots.errors import not_found_if_gone
from outside_bots.models import OutsideBot, checked_name, checked_url
from plumbing.api.filters import FilterSet
from plumbing.api.inputs import KnownFields, KnownQueryParameters


class OutsideBotSerializer(KnownFields, serializers.ModelSerializer):
    name = serializers.CharField(max_length=50)  # checked by the model, after NFKC
    class Meta:
        model = OutsideBot
        fields = ["id", "name", "url", "description", "enabled", "created_at"]
        read_only_fields = ["id", "created_at"]

    def validate_name(self, value):
        return checked_name(value, pk=self.instance and self.instance.pk)

    def validate_url(self, value):
        return checked_url(value, pk=self.instance and self.instance.pk)


class OutsideBotFilter(FilterSet):
    owner = django_filters.CharFilter(field_name="owner__username",
                                      help_text="its author's username")

    class Meta:
        model = OutsideBot
        fields = ["enabled", "owner"]


class OutsideBotChanges:
    """PATCH and DELETE of the outside bots a viewset shows, through the services (which say
    who may change what), answered in the viewset's serializer."""

    def partial_update(self, request, *args, **kwargs):
        form = self.get_serializer(self.get_object(), data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        with not_found_if_gone():
            bot = services.outside_bot_update(bot=form.instance, by=request.user,
                                              **form.validated_data)
        return Response(self.get_serializer(bot).data)

    def destroy(self, request, *args, **kwargs):
        with not_found_if_gone():
            services.outside_bot_delete(bot=self.get_object(), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    create=extend_schema(responses={201: OutsideBotSerializer, **ERRORS},
                         description="Register an outside HTTP bot (docs/bots.md); its URL's "
                                     "host must be in OUTSIDE_BOT_ALLOWED_HOSTS."),
    partial_update=updates(OutsideBotSerializer, OutsideBotSerializer,
                            "Change an outside bot; one entered in a tournament keeps its "
                            "name. Disable it to stop it being called."),
    destroy=extend_schema(responses={204: None, **ERRORS, **NOT_FOUND},
                          description="Remove an outside bot never entered in a tournament."),
)
class OutsideBotViewSet(KnownQueryParameters, OutsideBotChanges, viewsets.ReadOnlyModelViewSet):
    """Outside bots organisers may enter in tournaments as ``outside:NAME``; administrators
    only, because the site calls their URLs."""

    queryset = OutsideBot.objects.order_by("name")
    serializer_class = OutsideBotSerializer
    permission_classes = [AdministratorsOnly]
    filterset_class = OutsideBotFilter
    ordering_fields = ["name", "created_at"]

    def create(self, request, *args, **kwargs):
        data = valid(OutsideBotSerializer, request)
        bot = services.outside_bot_create(by=request.user, **data)
        return Response(OutsideBotSerializer(bot).data, status=status.HTTP_201_CREATED)

