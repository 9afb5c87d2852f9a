"""/api/v1/bots/: a signed-in author's own outside bots (the API of "My bots"), and
/api/v1/tokens/: the API token, issued and replaced through the API.

Authors see and change only the bots they registered; another author's bot answers 404.
A bot's secret is in the answer that made it (registration, or its replacement) and nowhere
else. The administrators' view of every bot stays /api/v1/outside-bots/.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.utils.cache import add_never_cache_headers
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, Throttled
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from gameplay.bots.sandbox.unpack import MAX_ZIP_BYTES
from league.api.schema import valid
from league.errors import Conflict
from league.models import PRESET_CHOICES
from outside_bots import services
from outside_bots.api import OutsideBotChanges
from outside_bots.errors import SecretReplaced, not_found_if_gone
from outside_bots.models import (
    RUNTIMES,
    OutsideBot,
    checked_name,
    checked_url,
    hosted_code,
    outside_bot_presets,
    outside_bot_url,
)
from plumbing.api.errors import ErrorSerializer
from plumbing.api.filters import FilterBackend
from plumbing.api.inputs import KnownFields, KnownQueryParameters

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="the field that is wrong (a URL the "
                                                      "network policy refuses, an unknown "
                                                      "preset…), or the limit of bots reached"),
    401: OpenApiResponse(ErrorSerializer, description="not signed in"),
}
NOT_FOUND = {404: OpenApiResponse(ErrorSerializer, description="no such bot of yours")}
REPLACED = {409: OpenApiResponse(ErrorSerializer, description="its secret was replaced since "
                                 "the secret_tag sent was read: nothing was changed")}


def _never_stored(response: Response) -> Response:
    """An answer that holds a credential (a bot's secret, an API token): no cache keeps it."""
    add_never_cache_headers(response)
    return response


class BotSerializer(KnownFields, serializers.ModelSerializer):
    # The model checks the name after its Unicode normalisation (a fullwidth "ｌｏｗｂａｌｌ" is
    # the "lowball" it means, and named so when refused).
    name = serializers.CharField(max_length=50, help_text='letters, digits, "-" and "_", '
                                 "one name in any case; not a built-in bot's")
    presets = serializers.ListField(
        child=serializers.ChoiceField(choices=PRESET_CHOICES), allow_empty=False,
        validators=[outside_bot_presets], required=False,
        help_text="the presets (rule sets) it plays; classic by default")
    url = serializers.CharField(max_length=300, required=False, validators=[outside_bot_url],
                                help_text="an HTTP bot's address; or give code and runtime")
    code = serializers.FileField(write_only=True, required=False,
                                 help_text="a hosted bot's source: bot.py / bot.js, or a zip "
                                           "with it at the top (multipart)")
    # blank for an HTTP bot: it has a URL, no runtime
    runtime = serializers.ChoiceField(choices=RUNTIMES, required=False, allow_blank=True,
                                      help_text="a hosted bot's runtime; blank for an HTTP bot")
    secret_tag = serializers.CharField(
        read_only=True, allow_null=True,
        help_text="a tag of its secret as it is now (not the secret): send it when replacing "
                  "the secret, and a replacement made since is refused (409), not replaced "
                  "again unseen; null for a hosted bot")

    class Meta:
        model = OutsideBot
        fields = ["id", "name", "url", "code", "runtime", "presets", "description", "enabled",
                  "secret_tag", "created_at"]
        read_only_fields = ["id", "enabled", "created_at"]
        # checked_url names a URL taken; DRF's validator of the one-bot-a-URL constraint would
        # ask for a URL of a hosted bot too.
        validators = []

    def validate(self, data):
        upload = data.pop("code", None)
        if upload is None:
            if "runtime" in data:
                raise serializers.ValidationError({"runtime": ["only with code"]})
            if not self.instance and not data.get("url"):
                raise serializers.ValidationError({"url": ["a URL, or code and a runtime"]})
            return data
        if data.get("url"):
            raise serializers.ValidationError({"code": ["a URL or code, not both"]})
        runtime = data.get("runtime") or (self.instance and self.instance.runtime)
        if not runtime:
            raise serializers.ValidationError({"runtime": [
                "which runtime runs the code: " + " or ".join(r for r, _ in RUNTIMES)]})
        try:
            data["code"] = hosted_code(upload.read(MAX_ZIP_BYTES + 1), upload.name, runtime)
        except DjangoValidationError as e:
            raise serializers.ValidationError({"code": e.messages}) from None
        return data

    def validate_name(self, value):
        return checked_name(value, pk=self.instance and self.instance.pk)

    def validate_url(self, value):
        return checked_url(value, pk=self.instance and self.instance.pk)


class SecretReplacement(KnownFields, serializers.Serializer):
    secret_tag = serializers.CharField(
        required=False, max_length=200,
        help_text="the bot's secret_tag as you last read it (GET the bot): if its secret was "
                  "replaced since, in another tab or request, nothing is changed (409); "
                  "without it, the secret is replaced whatever it is")


class BotSecretSerializer(BotSerializer):
    secret = serializers.CharField(
        read_only=True, allow_null=True,
        help_text="the key every request to the bot is signed with, given this once: keep it "
                  "in your bot's server (PRESIDENT_SECRET); null for a hosted bot, which the "
                  "site runs in its sandbox and never calls over HTTP")

    class Meta(BotSerializer.Meta):
        fields = [*BotSerializer.Meta.fields, "secret"]

    def to_representation(self, bot):
        data = super().to_representation(bot)
        if bot.hosted:
            data["secret"] = None
        return data


@extend_schema_view(
    list=extend_schema(description="Your outside bots; `?enabled=false` the disabled ones."),
    retrieve=extend_schema(responses={200: BotSerializer, **NOT_FOUND}),
    create=extend_schema(responses={201: BotSecretSerializer, **ERRORS},
                         description="Register an outside HTTP bot ([the bot protocol]"
                                     "(/bots/protocol/)); its URL must pass the network "
                                     "policy, and an author has at most "
                                     "OUTSIDE_BOT_MAX_PER_AUTHOR bots. The answer holds its "
                                     "`secret`, given this once (null for a hosted bot)."),
    partial_update=extend_schema(responses={200: BotSerializer, **ERRORS, **NOT_FOUND},
                                 description="Change your bot; one entered in a tournament "
                                             "keeps its name."),
    destroy=extend_schema(responses={204: None, **ERRORS, **NOT_FOUND},
                          description="Remove your bot, unless it was entered in a "
                                      "tournament."),
)
class BotViewSet(KnownQueryParameters, OutsideBotChanges, mixins.ListModelMixin,
                 mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = BotSerializer
    permission_classes = [IsAuthenticated]
    filter_backends = [FilterBackend]
    filterset_fields = ["enabled"]
    row_words = "bot of yours"  # another author's bot is not there, as one that never was
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
        return _never_stored(Response(BotSecretSerializer(bot).data,
                                      status=status.HTTP_201_CREATED))

    @extend_schema(request=SecretReplacement,
                   responses={200: BotSecretSerializer, **ERRORS, **NOT_FOUND, **REPLACED},
                   description="Replace your bot's secret: the answer holds the new one, given "
                               "this once; the old one stops proving anything at once. Send "
                               "the bot's `secret_tag` to have it refused (409, nothing "
                               "changed) if another tab or request replaced it since. A "
                               "hosted bot has none (400).")
    @action(detail=True, methods=["post"])
    def secret(self, request, pk=None):
        tag = valid(SecretReplacement, request).get("secret_tag")
        try:
            with not_found_if_gone():
                bot = services.outside_bot_secret_rotate(bot=self.get_object(),
                                                         by=request.user, secret_tag=tag)
        except SecretReplaced as e:
            raise Conflict(e.said_to_the_api()) from None
        return _never_stored(Response(BotSecretSerializer(bot).data))



class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(read_only=True, help_text="send it as "
                                  "`Authorization: Token <token>`")


class PasswordSerializer(KnownFields, AuthTokenSerializer):
    # No longer than a username can be: a longer one failed its login only to fail django-axes'
    # record of it (255 characters), a 500 on PostgreSQL.
    username = serializers.CharField(
        label="Username", write_only=True,
        max_length=get_user_model()._meta.get_field("username").max_length)


@extend_schema_view(
    create=extend_schema(
        request=PasswordSerializer, responses={
            200: TokenSerializer, 201: TokenSerializer,
            400: OpenApiResponse(ErrorSerializer, description="a wrong password, or a field "
                                                              "not taken"),
            401: OpenApiResponse(ErrorSerializer, description="no session, token or password"),
            429: OpenApiResponse(ErrorSerializer, description="too many tries, or the login "
                                                              "locked out: wait")},
        description="Your API token (made if you have none: 201): signed in (session or token), "
                    "or with `username` and `password` in the body. Failed passwords count "
                    "towards the login lockout; a few tries a minute at most."),
    rotate=extend_schema(
        request=PasswordSerializer, responses={
            200: TokenSerializer,
            400: OpenApiResponse(ErrorSerializer, description="a wrong password, or a field "
                                                              "not taken"),
            401: OpenApiResponse(ErrorSerializer, description="no session, token or password"),
            429: OpenApiResponse(ErrorSerializer, description="too many tries, or the login "
                                                              "locked out: wait")},
        description="Replace your API token: the answer holds the new one, the old one "
                    "stops working at once. Authenticated as for issuing."),
)
class TokenViewSet(KnownQueryParameters, viewsets.GenericViewSet):
    permission_classes = [AllowAny]  # the password in the body is the credential, or the session
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "tokens"
    serializer_class = TokenSerializer
    filter_backends = []
    pagination_class = None

    def _user(self, request):
        if request.data and not isinstance(request.data, dict):  # JSON's true, 7, [...], "…"
            raise serializers.ValidationError({"non_field_errors": [
                "the body is a JSON object of username and password, or none when signed in"]})
        if request.user and request.user.is_authenticated:
            if request.data:
                raise serializers.ValidationError(
                    {name: ["not taken when signed in"] for name in request.data})
            return request.user
        if not request.data:
            raise NotAuthenticated("sign in, or give your username and password")
        form = PasswordSerializer(data=request.data, context={"request": request})
        if not form.is_valid():
            # django-axes marks the request it was given (this one) when the username is locked
            # out; DRF would say only that the password is wrong (docs/operations.md: 429)
            if getattr(request, "axes_locked_out", False):
                raise Throttled(wait=settings.AXES_COOLOFF_TIME.total_seconds(), detail=(
                    f"too many wrong passwords for {str(request.data.get('username'))[:150]} from "
                    "this address: the login is locked"))
            raise serializers.ValidationError(form.errors)
        return form.validated_data["user"]

    def create(self, request):
        token, made = Token.objects.get_or_create(user=self._user(request))
        return _never_stored(Response({"token": token.key}, status=status.HTTP_201_CREATED
                                      if made else status.HTTP_200_OK))

    @action(detail=False, methods=["post"])
    @transaction.atomic
    def rotate(self, request):
        user = self._user(request)
        Token.objects.filter(user=user).delete()
        return _never_stored(Response({"token": Token.objects.create(user=user).key}))
