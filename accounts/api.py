"""/api/v1/bots/: a signed-in author's own outside bots (the API of "My bots").

Authors see and change only the bots they registered; another author's bot answers 404.
The administrators' view of every bot stays /api/v1/outside-bots/.
"""

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from league.models import PRESET_CHOICES
from outside_bots import services
from outside_bots.models import OutsideBot, outside_bot_presets
from plumbing.api.errors import ErrorSerializer
from plumbing.api.inputs import KnownFields, KnownQueryParameters

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="the field that is wrong (a URL the "
                                                      "network policy refuses, an unknown "
                                                      "preset…), or the limit of bots reached"),
    401: OpenApiResponse(ErrorSerializer, description="not signed in"),
}
NOT_FOUND = {404: OpenApiResponse(ErrorSerializer, description="no such bot of yours")}


class BotSerializer(KnownFields, serializers.ModelSerializer):
    presets = serializers.ListField(
        child=serializers.ChoiceField(choices=PRESET_CHOICES), allow_empty=False,
        validators=[outside_bot_presets], required=False,
        help_text="the presets (rule sets) it plays; classic by default")

    class Meta:
        model = OutsideBot
        fields = ["id", "name", "url", "presets", "description", "enabled", "created_at"]
        read_only_fields = ["id", "enabled", "created_at"]


@extend_schema_view(
    list=extend_schema(description="Your outside bots."),
    retrieve=extend_schema(responses={200: BotSerializer, **NOT_FOUND}),
    create=extend_schema(responses={201: BotSerializer, **ERRORS},
                         description="Register an outside HTTP bot (docs/bots.md); its URL "
                                     "must pass the network policy, and an author has at most "
                                     "OUTSIDE_BOT_MAX_PER_AUTHOR bots."),
    partial_update=extend_schema(responses={200: BotSerializer, **ERRORS, **NOT_FOUND},
                                 description="Change your bot; one entered in a tournament "
                                             "keeps its name."),
    destroy=extend_schema(responses={204: None, **ERRORS, **NOT_FOUND},
                          description="Remove your bot, unless it was entered in a "
                                      "tournament."),
)
class BotViewSet(KnownQueryParameters, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                 viewsets.GenericViewSet):
    serializer_class = BotSerializer
    permission_classes = [IsAuthenticated]
    filter_backends = []
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular's schema pass
            return OutsideBot.objects.none()
        return OutsideBot.objects.filter(owner=self.request.user).order_by("name")

    def create(self, request, *args, **kwargs):
        form = BotSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        bot = services.outside_bot_create(owner=request.user, by=request.user,
                                          **form.validated_data)
        return Response(BotSerializer(bot).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, *args, **kwargs):
        form = BotSerializer(self.get_object(), data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        bot = services.outside_bot_update(bot=form.instance, by=request.user,
                                          **form.validated_data)
        return Response(BotSerializer(bot).data)

    def destroy(self, request, *args, **kwargs):
        services.outside_bot_delete(bot=self.get_object(), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
