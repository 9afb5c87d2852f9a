from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from config.healthz import healthz

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("league/", include("league.urls")),
]
