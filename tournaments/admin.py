"""Tournaments in the admin: organisers view their own clubs' tournaments (the league admin's
rule) and start, cancel or resume them; they create one on the new tournament page, linked
from the list, whose controls say each option in words. Superusers also create them here,
options and scoring as JSON. Creating, starting, cancelling and resuming go through
``tournaments.services``. Outside bots are in outside_bots.admin."""

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.utils.html import format_html

from gameplay.engine.errors import PresidentError
from gameplay.engine.options import preset
from gameplay.engine.scoring import Scoring
from league.admin import ClubFilter, ClubScopedAdmin, ClubsFieldMixin
from league.errors import LeagueError
from league.selectors import organised_clubs
from tournaments import selectors, services
from tournaments.models import Entrant, Tournament


class TournamentForm(forms.ModelForm):
    entrants_text = forms.CharField(
        label="entrants", widget=forms.Textarea(attrs={"rows": 6}),
        help_text="one bot player per line: NAME=BOT, e.g. Bob=heuristic or "
                  "Monty=montecarlo:budget_ms=50 (new names become bot players of the club)")
    options = forms.JSONField(required=False, initial=dict)

    class Meta:
        model = Tournament
        fields = ["club", "name", "preset", "options", "scoring", "format", "seats",
                  "games_per_table", "rounds", "duplicate", "seed", "batch_size", "starts_at"]

    def clean_scoring(self):
        try:
            Scoring.from_dict(self.cleaned_data["scoring"])
        except PresidentError as e:
            raise forms.ValidationError(e.message) from e
        return self.cleaned_data["scoring"]

    def clean(self):
        data = super().clean()
        options = data.get("options") or {}
        if "preset" in data and isinstance(options, dict):
            try:
                preset(data["preset"], **options)
            except PresidentError as e:
                self.add_error("options", e.message)
        return data

    def clean_entrants_text(self):
        entrants = []
        for line in self.cleaned_data["entrants_text"].splitlines():
            if not line.strip():
                continue
            name, sep, bot = line.partition("=")
            if not sep or not name.strip() or not bot.strip():
                raise forms.ValidationError(f"write each entrant as NAME=BOT, not {line!r}")
            entrants.append((name.strip(), bot.strip()))
        return entrants


class EntrantInline(admin.TabularInline):
    model = Entrant
    fields = ["player", "bot"]
    readonly_fields = ["player", "bot"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(ClubsFieldMixin, ClubScopedAdmin):
    list_display = ["name", "club", "format", "status", "progress", "starts_at"]
    list_filter = [("club", ClubFilter), "status", "format"]
    search_fields = ["name", "club__name"]
    actions = ["start", "cancel", "resume"]

    # A tournament's setup is fixed once created (get_readonly_fields); its actions are the
    # buttons of its page.
    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_add_permission(self, request):
        return request.user.is_superuser

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {
            **(extra_context or {}), "organised_clubs": organised_clubs(request.user)})

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = TournamentForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return [*TournamentForm.Meta.fields, "entrants_text"]
        return ["club", "name", "season", "status", "progress_page", "preset", "options",
                "scoring", "format", "seats", "games_per_table", "rounds", "duplicate", "seed",
                "batch_size", "starts_at", "total_games", "finished_at"]

    def get_readonly_fields(self, request, obj=None):
        # The games follow from these fields: once created, a tournament's setup is fixed.
        return [] if obj is None else self.get_fields(request, obj)

    def get_inlines(self, request, obj):
        return [] if obj is None else [EntrantInline]

    @admin.display(description="progress")
    def progress(self, tournament):
        p = selectors.tournament_progress(tournament=tournament)
        return f"{p.done}/{p.total}"

    @admin.display(description="progress page")
    def progress_page(self, tournament):
        return format_html('<a href="{}">{}</a>', tournament.get_absolute_url(),
                           self.progress(tournament))

    def save_model(self, request, obj, form, change):
        data = {k: form.cleaned_data[k] for k in TournamentForm.Meta.fields}
        try:
            obj.pk = services.tournament_create(
                entrants=form.cleaned_data["entrants_text"], by=request.user,
                **{**data, "options": data["options"] or {}}).pk
        except LeagueError as e:
            self.message_user(request, e.message, messages.ERROR)

    def save_related(self, request, form, formsets, change):
        pass  # the entrants were created by the service

    def log_addition(self, request, obj, message):
        if obj.pk is not None:  # else the service refused it
            super().log_addition(request, obj, message)

    def response_add(self, request, obj, post_url_continue=None):
        if obj.pk is None:  # the service refused it: back to the form, with its message
            return HttpResponseRedirect(request.path)
        return super().response_add(request, obj, post_url_continue)

    def _each(self, request, queryset, service, done):
        for tournament in queryset:
            try:
                service(tournament=tournament, by=request.user)
                self.message_user(request, f"{tournament}: {done}")
            except LeagueError as e:
                self.message_user(request, f"{tournament}: {e.message}", messages.ERROR)

    @admin.action(description="Start the selected tournaments")
    def start(self, request, queryset):
        self._each(request, queryset, services.tournament_start, "started")

    @admin.action(description="Cancel the selected tournaments")
    def cancel(self, request, queryset):
        self._each(request, queryset, services.tournament_cancel, "cancelled")

    @admin.action(description="Resume the selected tournaments (only missing games)")
    def resume(self, request, queryset):
        self._each(request, queryset, services.tournament_resume, "resumed")
