"""The Django admin as the organisers' tool.

Organisers (Club.organisers, staff users) see and change only their own clubs' rows; superusers
see everything. Every change goes through ``league.services``, which writes the audit trail
and refuses user mistakes with a LeagueError whose message is shown as it is.
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Prefetch
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from gameplay.engine.scoring import systems
from league import rating_jobs, selectors, services
from league.errors import LeagueError
from league.models import (
    AuditEntry,
    Club,
    Deal,
    Game,
    Place,
    Player,
    RatingStale,
    Season,
    Seat,
    SeatChange,
)
from league.rules import options_of, rating_scope
from league.web import role_words


def organised_clubs(user):
    return Club.objects.filter(organisers=user)


def is_organiser(user) -> bool:
    return user.is_active and user.is_staff and (
        user.is_superuser or organised_clubs(user).exists())


class ClubScopedAdmin(admin.ModelAdmin):
    """Rows reachable from a club through ``club_path``; organisers get their clubs' rows."""

    club_path = "club"

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.club_path}__organisers": request.user}).distinct()

    def _organises(self, request, obj):
        if request.user.is_superuser:
            return True
        if not is_organiser(request.user):
            return False
        return obj is None or self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_module_permission(self, request):
        return is_organiser(request.user)

    def has_view_permission(self, request, obj=None):
        return self._organises(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._organises(request, obj)

    def has_add_permission(self, request):
        return is_organiser(request.user)

    def has_delete_permission(self, request, obj=None):
        return False  # deletions go through services (deal_delete) or are refused (PROTECT)


class ClubFilter(admin.RelatedFieldListFilter):
    """The clubs to filter by: the organiser's own (every club for a superuser)."""

    def field_choices(self, field, request, model_admin):
        clubs = Club.objects.all() if request.user.is_superuser else organised_clubs(request.user)
        return [(club.pk, str(club)) for club in clubs.order_by("name")]


class SeasonFilter(admin.RelatedFieldListFilter):
    """The seasons to filter by, each named with its club: the organiser's clubs' seasons,
    read with their clubs, not a query a season."""

    def field_choices(self, field, request, model_admin):
        seasons = Season.objects.select_related("club")
        if not request.user.is_superuser:
            seasons = seasons.filter(club__organisers=request.user)
        return [(season.pk, str(season)) for season in seasons]


class ClubsFieldMixin:
    """Limit club choices in forms to the organiser's own clubs."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "club" and not request.user.is_superuser:
            kwargs["queryset"] = organised_clubs(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "clubs" and not request.user.is_superuser:
            kwargs["queryset"] = organised_clubs(request.user)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class ServiceSaved:
    """Saves through league.services: ``service_save`` writes; its LeagueError (a change
    that raced the form's checks, which are the services' own) is shown as the admin's error
    and nothing more is saved."""

    def service_save(self, request, obj, form, change):
        raise NotImplementedError

    def save_model(self, request, obj, form, change):
        self._saving(request, self.service_save, request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        if getattr(request, "league_refusal", None) is None:
            self._saving(request, self.service_save_related, request, form, change)

    def _saving(self, request, save, *args):
        try:
            save(*args)
        except LeagueError as e:
            request.league_refusal = e.message
            transaction.set_rollback(True)  # the admin's own transaction: nothing is kept

    def service_save_related(self, request, form, change):
        pass

    def _refused(self, request):
        message = getattr(request, "league_refusal", None)
        if message is not None:
            self.message_user(request, message, messages.ERROR)
        return message is not None

    def response_add(self, request, obj, post_url_continue=None):
        if self._refused(request):
            return HttpResponseRedirect(request.path)
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request, obj):
        if self._refused(request):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    def log_addition(self, request, obj, message):
        if obj.pk is not None:
            return super().log_addition(request, obj, message)

    def log_change(self, request, obj, message):
        if getattr(request, "league_refusal", None) is None:
            return super().log_change(request, obj, message)


def _as_form_error(check):
    """Run a service's check; its LeagueError as the form's error."""
    try:
        return check()
    except LeagueError as e:
        raise forms.ValidationError(e.message) from e


class ClubForm(forms.ModelForm):
    refused = None  # the save's refusal of this name, shown again at it (ClubAdmin)

    def clean_name(self):
        if self.refused is not None:
            raise forms.ValidationError(self.refused)
        return _as_form_error(lambda: services.club_name_check(
            name=self.cleaned_data["name"], club=self.instance if self.instance.pk else None))


@admin.register(Club)
class ClubAdmin(ServiceSaved, ClubScopedAdmin):
    form = ClubForm
    club_path = "pk"
    list_display = ["name", "organiser_names", "created_at"]
    search_fields = ["name", "organisers__username"]
    filter_horizontal = ["organisers"]

    def get_queryset(self, request):
        qs = admin.ModelAdmin.get_queryset(self, request)
        return qs if request.user.is_superuser else qs.filter(organisers=request.user)

    def has_add_permission(self, request):
        return request.user.is_superuser

    def get_readonly_fields(self, request, obj=None):
        return [] if request.user.is_superuser else ["organisers"]

    @admin.display(description="organisers")
    def organiser_names(self, club):
        return ", ".join(u.get_username() for u in club.organisers.all())

    # A name the save refuses (a club named alike meanwhile, after the form's check) is the
    # form's error at the name, with what was typed. The refused save's transaction has to end
    # first (ServiceSaved rolls it back), so the form is shown by a second pass of the view.

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        response = super().changeform_view(request, object_id, form_url, extra_context)
        if getattr(request, "club_name_refused", None) is None:
            return response
        return super().changeform_view(request, object_id, form_url, extra_context)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        form.refused = getattr(request, "club_name_refused", None)
        return form

    def response_add(self, request, obj, post_url_continue=None):
        if getattr(request, "club_name_refused", None) is not None:
            return None  # changeform_view shows the form again
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request, obj):
        if getattr(request, "club_name_refused", None) is not None:
            return None
        return super().response_change(request, obj)

    def service_save(self, request, obj, form, change):
        data = form.cleaned_data
        try:
            if not change:
                obj.pk = services.club_create(name=data["name"], organisers=data["organisers"],
                                              by=request.user).pk
            elif "name" in form.changed_data:
                services.club_update(club=Club.objects.get(pk=obj.pk), name=data["name"],
                                     by=request.user)
        except LeagueError as e:
            if e.field == "name":
                request.club_name_refused = e.message
            raise

    def service_save_related(self, request, form, change):
        if change and "organisers" in form.changed_data:
            services.club_organisers_set(club=Club.objects.get(pk=form.instance.pk),
                                         organisers=form.cleaned_data["organisers"],
                                         by=request.user)


class PlayerForm(forms.ModelForm):
    def clean_name(self):
        return _as_form_error(lambda: services.name_checked(self.cleaned_data["name"],
                                                            "a player"))

    def clean(self):
        """Names are unique within each club the player will play in (services)."""
        data = super().clean()
        if "name" in data and "clubs" in data:
            clubs = list(data["clubs"])
            if self.instance.pk is not None:  # clubs the organiser cannot see stay
                clubs += self.instance.clubs.exclude(pk__in=self.fields["clubs"].queryset)
            try:
                services.player_name_check(name=data["name"], clubs=clubs,
                                           player=self.instance if self.instance.pk else None)
            except LeagueError as e:
                self.add_error("name", e.message)
        return data


@admin.register(Player)
class PlayerAdmin(ServiceSaved, ClubsFieldMixin, ClubScopedAdmin):
    form = PlayerForm
    club_path = "clubs"
    list_display = ["name", "kind", "club_names"]
    list_filter = ["kind", ("clubs", ClubFilter)]
    search_fields = ["name"]
    fields = ["name", "kind", "clubs"]

    @admin.display(description="clubs")
    def club_names(self, player):
        return ", ".join(c.name for c in player.clubs.all())

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("clubs")

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and not selectors.may_change_player(request.user, obj):
            return ["name", "kind"]  # other clubs show them too (selectors.may_change_player)
        return []

    def service_save(self, request, obj, form, change):
        data = form.cleaned_data
        if not change:
            obj.pk = services.player_create(name=data["name"], kind=data["kind"],
                                            clubs=list(data["clubs"]), by=request.user).pk
            return
        changed = {k: data[k] for k in ("name", "kind") if k in form.changed_data}
        if changed:
            services.player_update(player=Player.objects.get(pk=obj.pk), by=request.user,
                                   **changed)

    def service_save_related(self, request, form, change):
        """Clubs joined and left; clubs the organiser cannot see stay as they were."""
        if not change or "clubs" not in form.changed_data:
            return
        player = Player.objects.get(pk=form.instance.pk)
        shown = form.fields["clubs"].queryset
        before = set(player.clubs.filter(pk__in=shown))
        chosen = set(form.cleaned_data["clubs"])
        for club in sorted(chosen - before, key=lambda c: c.pk):
            services.player_join_club(player=player, club=club, by=request.user)
        for club in sorted(before - chosen, key=lambda c: c.pk):
            services.player_leave_club(player=player, club=club, by=request.user)


class SeasonForm(forms.ModelForm):
    options = forms.JSONField(required=False, initial=dict,
                              help_text='option overrides, e.g. {"jokers": 2}')

    class Meta:
        model = Season
        fields = ["club", "name", "preset", "options", "scoring", "starts_on", "ends_on"]

    def clean(self):
        data = super().clean()
        season = Season(pk=self.instance.pk, **{k: v for k, v in data.items()
                                                if k in self.Meta.fields})
        season.options = data.get("options") or {}
        if self.instance.pk:  # a season stays in its club (its club is shown, not offered)
            season.club = self.instance.club
        if (self.instance.pk or "club" in data) and "starts_on" in data:
            try:
                services.season_check(season=season)
            except LeagueError as e:
                raise forms.ValidationError(e.message) from e
        return data


class ScoringSystemFilter(admin.SimpleListFilter):
    title, parameter_name = "scoring system", "scoring_system"

    def lookups(self, request, model_admin):
        return [(system.name, system.name) for system in systems()]

    def queryset(self, request, queryset):
        return queryset.filter(scoring__system=self.value()) if self.value() else queryset


@admin.register(Season)
class SeasonAdmin(ServiceSaved, ClubsFieldMixin, ClubScopedAdmin):
    form = SeasonForm
    list_display = ["name", "club", "preset", "scoring", "starts_on", "ends_on", "ratings"]
    list_filter = [("club", ClubFilter), "preset", ScoringSystemFilter]
    search_fields = ["name", "club__name"]
    actions = ["recompute_ratings"]

    @admin.display(description="scoring")
    def scoring(self, season):
        return ", ".join(f"{k} {v}" for k, v in season.scoring.items())

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("club", "rating_job").annotate(
            ratings_marked=Exists(RatingStale.objects.filter(season=OuterRef("pk"))))

    @admin.display(description="ratings")
    def ratings(self, season):
        job = getattr(season, "rating_job", None)  # read with the season, not a query a row
        stale = job and (job.dirty_from is not None or season.ratings_marked)
        return "updating…" if stale else "up to date"

    def get_readonly_fields(self, request, obj=None):
        return ["club"] if obj else []

    def has_change_permission(self, request, obj=None):
        # a bot tournament's season is its own: its rules are the tournament's (as the
        # organiser's season page refuses)
        return super().has_change_permission(request, obj) and not (
            obj is not None and hasattr(obj, "tournament"))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        season = self.get_object(request, object_id)
        if season is not None and hasattr(season, "tournament"):
            self.message_user(request, f"{season.name} is the season of the tournament "
                                       f"{season.tournament.name}: its rules are the "
                                       "tournament's, and it is not changed here.",
                              messages.WARNING)
        return super().change_view(request, object_id, form_url, extra_context)

    def service_save(self, request, obj, form, change):
        data = {k: form.cleaned_data[k] for k in form.Meta.fields if k != "club"}
        data["options"] = data["options"] or {}
        if change:
            services.season_update(season=Season.objects.get(pk=obj.pk), by=request.user,
                                   **data)
        else:
            obj.pk = services.season_create(club=form.cleaned_data["club"], by=request.user,
                                            **data).pk

    @admin.action(description="Recompute ratings from the first deal")
    def recompute_ratings(self, request, queryset):
        for season in queryset:
            rating_jobs.ratings_request(scope=rating_scope(season))
        self.message_user(request, f"Ratings of {queryset.count()} season(s) are updating.")


class GameAddForm(forms.ModelForm):
    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.all(), help_text="seated in name order, seat 1 first")
    dealer = forms.IntegerField(min_value=1, max_value=services.TABLE_MAX,
                                label="First dealer's seat",
                                help_text="seat 1 is the first player in name order")

    class Meta:
        model = Game
        fields = ["season", "dealer"]

    def clean_dealer(self):
        return self.cleaned_data["dealer"] - 1  # the game counts seats from 0

    def clean(self):
        """Refused at the form, its choices kept: a bot tournament's season, and someone
        still at an open table of the club (one person sits at one table)."""
        data = super().clean()
        if "season" in data and "players" in data:
            _as_form_error(lambda: services.by_hand(data["season"], "starting a game"))
            _as_form_error(lambda: services.free_checked(data["season"], list(data["players"])))
        return data


class SeatChangeInline(admin.TabularInline):
    model = SeatChange
    extra = 0
    fields = ["player", "kind", "before_deal", "by", "at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ClubScopedAdmin):
    club_path = "season__club"
    list_display = ["__str__", "status", "player_names", "deal_count", "created_at"]
    list_filter = ["status", ("season__club", ClubFilter), ("season", SeasonFilter)]
    search_fields = ["season__name", "season__club__name", "seats__player__name"]
    readonly_fields = ["season", "number", "first_dealer", "status"]
    inlines = [SeatChangeInline]
    change_form_template = "admin/league/game/change_form.html"
    actions = ["cancel_games"]

    @admin.action(description="Cancel the selected games (no deal played yet)")
    def cancel_games(self, request, queryset):
        """The night page's cancel, through the same service: each game, or its refusal."""
        for game in queryset.order_by("number"):
            try:
                services.game_cancel(game=game, by=request.user)
            except LeagueError as e:
                self.message_user(request, f"{game}: {e.message}", messages.ERROR)
            else:
                self.message_user(request, f"{game}: cancelled", messages.SUCCESS)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("season__club").annotate(
            deal_count=Count("deal_set", distinct=True)).prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")))

    @admin.display(description="deals", ordering="deal_count")
    def deal_count(self, game):
        return game.deal_count

    @admin.display(description="first dealer")
    def first_dealer(self, game):
        seat = next((s for s in game.seats.all() if s.number == game.dealer), None)
        return _seat_words(seat.player if seat else None, game.dealer)

    @admin.display(description="players")
    def player_names(self, game):
        return ", ".join(s.player.name for s in game.seats.all())

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = GameAddForm
        form = super().get_form(request, obj, **kwargs)
        if obj is not None or request.user.is_superuser:
            return form
        players = Player.objects.filter(clubs__organisers=request.user).distinct()

        class OwnPlayersForm(form):  # the organiser's clubs' players, no one else's
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.fields["players"].queryset = players

        return OwnPlayersForm

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj else []

    def get_fields(self, request, obj=None):
        return ["season", "number", "first_dealer", "status"] if obj else [
            "season", "players", "dealer"]

    def get_inlines(self, request, obj):
        return self.inlines if obj else []

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "season" and not request.user.is_superuser:
            kwargs["queryset"] = Season.objects.filter(club__organisers=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        if change:
            return  # a game's fields are read-only; deals and seats change through services
        players = sorted(form.cleaned_data["players"], key=lambda p: p.name)
        season = form.cleaned_data["season"]
        try:
            game = services.game_create(season=season, players=players,
                                        dealer=form.cleaned_data["dealer"], by=request.user)
        except LeagueError as e:
            request.league_refusal = e.message
            return
        obj.pk = game.pk

    def save_related(self, request, form, formsets, change):
        if change:
            super().save_related(request, form, formsets, change)

    def response_add(self, request, obj, post_url_continue=None):
        if obj.pk is None:
            self.message_user(request, getattr(request, "league_refusal", "not created"),
                              messages.ERROR)
            return HttpResponseRedirect(reverse("admin:league_game_add"))
        return HttpResponseRedirect(reverse("admin:league_game_change", args=[obj.pk]))

    # The game page: scoreboard and deals, a link to the entry page (deals are entered,
    # undone and corrected there, as on the phone), players leaving and joining with the
    # shifted roles.

    def get_urls(self):
        return [
            path("<int:game_id>/seat-change/", self.admin_site.admin_view(self.seat_change_view),
                 name="league_game_seat_change"),
        ] + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = self.get_object(request, object_id)
        # its fields are read-only: nothing for a save button to save
        extra = {**(extra_context or {}), "show_save": False, "show_save_and_continue": False,
                 "show_save_and_add_another": False}
        if game is not None:
            extra.update(self._game_context(request, game))
        return super().change_view(request, object_id, form_url, extra_context=extra)

    def _game_context(self, request, game):
        try:
            nxt = selectors.game_next_deal(game=game)
        except LeagueError as e:
            nxt, error = None, e.message
        else:
            error = None
        return {
            "game_obj": game,
            "scoreboard": selectors.game_scoreboard(game=game),
            "deals": [(deal, _dealer_words(deal)) for deal in selectors.game_deals(game=game)],
            "next_deal": nxt,
            "next_error": error,
            "seated": [s.player for s in nxt.seats] if nxt else [],
            "joinable": selectors.club_players(club=game.season.club).exclude(
                seats__game=game).exclude(pk__in=selectors.seated_elsewhere(game=game)),
            "options": options_of(game.season),
            "can_change": self.has_change_permission(request, game),
            "entry_url": reverse("league:game_enter", args=[game.pk]),
            "ratings_updating": selectors.ratings_updating(season=game.season),
        }

    def _game_or_404(self, request, game_id):
        game = get_object_or_404(self.get_queryset(request), pk=game_id)
        if not self.has_change_permission(request, game):
            raise PermissionDenied
        return game

    def seat_change_view(self, request, game_id):
        """GET: the shifted roles if these players left or joined (services.
        seat_change_preview); POST confirm: apply them (services.seat_change_apply), as the
        entry page does."""
        game = self._game_or_404(request, game_id)
        data = request.POST if request.method == "POST" else request.GET
        leaving = list(Player.objects.filter(pk__in=_ids(data.getlist("leaving"))))
        joining = list(Player.objects.filter(pk__in=_ids(data.getlist("joining"))))
        back = HttpResponseRedirect(reverse("admin:league_game_change", args=[game.pk]))
        try:
            if request.method == "POST" and data.get("confirm"):
                services.seat_change_apply(game=game, leaving=leaving, joining=joining,
                                           by=request.user)
                self.message_user(request, "Seat change done; the next exchange uses the "
                                           "shifted roles.")
                return back
            ranking = services.seat_change_preview(game=game, leaving=leaving, joining=joining)
        except LeagueError as e:
            self.message_user(request, e.message, messages.ERROR)
            return back
        players = Player.objects.in_bulk([p for p, _ in ranking])
        options = options_of(game.season)
        after = [(players[p], role) for p, role in ranking]
        return TemplateResponse(request, "admin/league/game/seat_change.html", {
            **self.admin_site.each_context(request), "title": f"Confirm seat change: {game}",
            "game_obj": game, "leaving": leaving, "joining": joining, "ranking": after,
            # in the entry page's words (RULES.md "Players entering and leaving")
            "words": role_words.shift_words(selectors.game_next_deal(game=game).ranking, after,
                                            leaving=leaving, joining=joining, options=options),
            "exchanges": selectors.exchanges_of(ranking, players.values())
            if options.has_exchange else [],
            "options": options, "opts": self.model._meta,
        })


def _seat_words(player, number: int) -> str:
    """A seat as the pages count seats, from 1: "Ada (seat 1)"."""
    return f"{player} (seat {number + 1})" if player else f"seat {number + 1}"


def _dealer_words(deal) -> str:
    """The deal's dealer by name and seat, from its places (read with the deal)."""
    place = next((p for p in deal.places.all() if p.seat == deal.dealer), None)
    return _seat_words(place.player if place else None, deal.dealer)


def _ids(values) -> list[int]:
    """The player ids posted; anything else is no one (the service says who is missing), as
    is a number past any id (SQLite cannot even compare one past 2**63)."""
    return [int(v) for v in values if v.isascii() and v.isdigit() and len(v) <= 18]


@admin.register(Deal)
class DealAdmin(ClubScopedAdmin):
    """Deals are entered, undone, corrected and deleted on the entry page (linked from their
    game's page) or through the API; this is the searchable list."""

    club_path = "game__season__club"
    list_display = ["__str__", "finishing_order", "dealer_seat", "recorded_by", "recorded_at"]
    list_filter = [("game__season__club", ClubFilter), ("game__season", SeasonFilter)]
    search_fields = ["places__player__name", "game__season__name"]
    readonly_fields = ["game", "number", "dealer_seat", "finishing_order", "correct",
                       "transcript", "recorded_by", "recorded_at"]
    fields = readonly_fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(
            "game__season__club", "recorded_by").prefetch_related(
            Prefetch("places", queryset=Place.objects.select_related("player")
                     .order_by("position")))

    @admin.display(description="finishing order")
    def finishing_order(self, deal):
        return ", ".join(p.player.name for p in deal.places.all())

    @admin.display(description="dealer")
    def dealer_seat(self, deal):
        return _dealer_words(deal)

    @admin.display(description="correct or delete")
    def correct(self, deal):
        if hasattr(deal.game.season, "tournament"):
            return "A bot tournament's deal: its tournament played and stored it."
        return format_html('<a href="{}?correct={}">Correct or delete deal {} on the entry '
                           'page</a>', reverse("league:game_enter", args=[deal.game_id]),
                           deal.pk, deal.number)

    def has_add_permission(self, request):
        return False

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # every field is read-only: nothing for a save button to save
        return super().change_view(request, object_id, form_url, {
            **(extra_context or {}), "show_save": False, "show_save_and_continue": False})

    def response_change(self, request, obj):
        return HttpResponseRedirect(reverse("admin:league_game_change", args=[obj.game_id]))


@admin.register(AuditEntry)
class AuditEntryAdmin(ClubScopedAdmin):
    list_display = ["at", "actor", "club", "action", "target"]
    list_filter = ["action", ("club", ClubFilter)]
    search_fields = ["target", "actor__username", "action"]
    readonly_fields = ["at", "actor", "club", "action", "target", "details"]
    fields = readonly_fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
