"""Outside bots in the admin: for administrators (superusers) only, because the site calls
their URLs; registering, changing and removing go through ``outside_bots.services``."""

from django import forms
from django.contrib import admin, messages
from django.db import models
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

from gameplay.engine.options import PRESETS
from league.errors import LeagueError
from outside_bots import services
from outside_bots.models import OutsideBot, default_presets


class OutsideBotForm(forms.ModelForm):
    presets = forms.MultipleChoiceField(
        choices=[(name, name) for name in PRESETS], widget=forms.CheckboxSelectMultiple,
        required=False, help_text="the rule sets it plays; none ticked: classic")

    def clean_presets(self):
        return self.cleaned_data["presets"] or default_presets()


@admin.register(OutsideBot)
class OutsideBotAdmin(admin.ModelAdmin):
    """The URLs registered here are the only ones tournaments call; every organiser is staff,
    so only superusers manage them."""

    list_display = ["name", "url", "owner", "enabled", "created_at"]
    list_select_related = ["owner"]
    list_filter = ["enabled"]
    search_fields = ["name", "url", "description", "owner__username"]
    fields = ["name", "url", "presets", "description", "enabled", "owner"]
    form = OutsideBotForm
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}  # Django 6's default

    def _administrator(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_module_permission(self, request):
        return self._administrator(request)

    def has_view_permission(self, request, obj=None):
        return self._administrator(request)

    def has_add_permission(self, request):
        return self._administrator(request)

    def has_change_permission(self, request, obj=None):
        return self._administrator(request)

    def has_delete_permission(self, request, obj=None):
        return self._administrator(request) and (
            obj is None or not services.outside_bot_entered(bot=obj))

    actions = ["replace_secrets"]

    @admin.action(description="Replace the secrets of the selected bots (shown once)")
    def replace_secrets(self, request, queryset):
        """New secrets, shown on the page that answers and nowhere else: how an administrator
        gets one for a bot they registered (its author uses "My bots")."""
        bots = [services.outside_bot_secret_rotate(bot=bot, by=request.user)
                for bot in queryset.order_by("name")[:20]]
        response = render(request, "outside_bots/secrets.html", {
            **self.admin_site.each_context(request), "bots": bots,
            "title": "New secrets, shown this once"})
        add_never_cache_headers(response)
        return response

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # a bulk delete would skip the service
        return actions

    def get_readonly_fields(self, request, obj=None):
        entered = obj is not None and services.outside_bot_entered(bot=obj)
        return ["name", "owner"] if entered else ["owner"]

    def save_model(self, request, obj, form, change):
        data = {k: form.cleaned_data[k] for k in self.fields if k in form.cleaned_data}
        try:
            if change:
                services.outside_bot_update(bot=obj, by=request.user, **data)
            else:
                obj.pk = services.outside_bot_create(by=request.user, **data).pk
        except LeagueError as e:
            # The form checked the same fields; this is a change that raced it.
            self.message_user(request, e.message, messages.ERROR)

    def delete_model(self, request, obj):
        services.outside_bot_delete(bot=obj, by=request.user)
