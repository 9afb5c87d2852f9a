"""The API's OpenAPI schema and its browsable docs (Swagger UI), as drf-spectacular serves them,
with the API's one version.

drf-spectacular wrote any ``?version=`` asked for into the schema's info.version ("1 (zz)")
and its file name, and the docs passed it on to the schema. The API has one version: a request
for another is a 404 saying so, without repeating what was sent. (A versioning_class on these
views would do it too, but drf-spectacular's generator supports none that reads the query and
warns, which fails the schema's check.)
"""

from django.shortcuts import render
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.exceptions import NotFound


def one_version(request) -> None:
    if request.query_params.get("version") not in (None, spectacular_settings.VERSION):
        raise NotFound(f'the API has one version, "{spectacular_settings.VERSION}"')


class Schema(SpectacularAPIView):
    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        one_version(request)


class Docs(SpectacularSwaggerView):
    """Swagger UI; its inline script and style carry the Content-Security-Policy nonce."""

    template_name = "api_docs.html"

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        one_version(request)

    def handle_exception(self, exc):
        if isinstance(exc, NotFound):  # the site's page, in words (DRF's gives 404.html no words)
            return render(self.request, "404.html", {"message": exc.detail}, status=404)
        return super().handle_exception(exc)
