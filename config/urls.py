from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from accounts import protocol
from config import api_schema
from config.healthz import healthz
from config.metrics import metrics
from config.not_found import not_found
from league.web import pages

handler404 = not_found

urlpatterns = [
    path("", pages.home, name="home"),
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico on pages without a <link rel="icon"> (JSON, the API docs).
    path("favicon.ico", lambda request: redirect(static("league/favicon.svg"), permanent=True)),
    path("metrics", metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("league/", include("league.web.urls")),
    path("tournaments/", include("tournaments.web.urls")),
    path("ladder/", include("ladder.web.urls")),
    # The protocol for bot authors and each message's JSON Schema (docs/protocol/).
    path("bots/protocol/", protocol.page, name="bot_protocol"),
    path("bots/protocol/<slug:name>.schema.json", protocol.schema, name="bot_protocol_schema"),
    path("api/v1/", include("config.api_urls")),
    path("api/schema/", api_schema.Schema.as_view(), name="api-schema"),
    path("api/docs/", api_schema.Docs.as_view(url_name="api-schema"), name="api-docs"),
]
