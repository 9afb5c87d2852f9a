"""The ladder in the admin, for administrators: entries and games to look at, read only.
Everything that changes the ladder goes through ``ladder.services`` (the tick, the API)."""

from django.contrib import admin
from django.db import models

from ladder.models import Entry, Game, Version


class ReadOnlyAdmin(admin.ModelAdmin):
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


class VersionInline(admin.TabularInline):
    model = Version
    fields = readonly_fields = ["number", "url", "started_at", "reason"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["name", "preset", "reference", "status", "version", "ordinal", "games",
                    "faults", "last_played_at"]
    inlines = [VersionInline]
    list_filter = ["preset", "status", "reference"]
    search_fields = ["name"]
    exclude = ["decision_times"]


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "preset", "status", "attempts", "created_at", "stored_at"]
    list_filter = ["kind", "status", "preset"]
    raw_id_fields = ["bot_game"]  # its transcript is large: a link, not a choice list
