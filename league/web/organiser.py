"""The organisers' pages, outside the admin: a club's seasons, players and tonight's tables;
creating and editing a season; adding and renaming players in place.

Only the club's organisers (and site administrators) see them: a visitor who is not signed in
is sent to log in, a signed-in user who does not organise the club gets a 403 page saying why.
Views read through selectors and change through league.services; a refusal is shown in words
with a 400 and changes nothing.
"""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from gameplay.engine.options import OPTIONS
from league import selectors, services
from league.api.permissions import organises
from league.errors import LeagueError
from league.models import Club, Player, Season
from league.web.organiser_forms import (
    PRESET_LINES,
    PlayerNameForm,
    SeasonForm,
)
from league.web.refused import refuse


def _refuse(request, message, status=403):
    return refuse(request, message, status)


def for_organisers(view):
    """Runs ``view(request, club, …)`` for the club's organisers only; the club is read from
    ``club_id``, or from the season of ``season_id``."""
    @wraps(view)
    def wrapped(request, club_id=None, season_id=None, **kwargs):
        season = None
        if season_id is not None:
            season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
            club = season.club
        else:
            club = get_object_or_404(Club, pk=club_id)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not organises(request.user, club):
            return _refuse(request, f"Only organisers of {club} may use its organiser pages; "
                                    f"you are signed in as {request.user.get_username()}, "
                                    "who does not organise it. Ask a site administrator to "
                                    "make you one of its organisers.")
        if season is not None:
            return view(request, season=season, **kwargs)
        return view(request, club=club, **kwargs)
    return wrapped


PLAYERS_PER_PAGE = 100  # bounded work for a club of any size; ?players=2 for the next


def _players_page(club, player) -> int:
    """The page of the club's players that shows ``player``."""
    return selectors.club_players(club=club).filter(name__lt=player.name).count() \
        // PLAYERS_PER_PAGE + 1


def _players_url(club, player) -> str:
    """The club page at the page of players that shows ``player``, scrolled to them."""
    page = _players_page(club, player)
    query = f"?players={page}" if page > 1 else ""
    return reverse("league:organise_club", args=[club.pk]) + f"{query}#player-{player.pk}"


def _change_words(name, value):
    """A house rule as the club page lists it: "Jokers in the pack: 2", "Revolution: yes"."""
    label = OPTIONS[name].label.split(":")[0].split(" (")[0]
    if isinstance(value, bool):
        value = "yes" if value else "no"
    return f"{label}: {value}"


def _club_page(request, club, *, add_form=None, renaming=None, players_page=None,
               status=200):
    """The organisers' club page; ``renaming`` is (player id, name posted, refusal) after a
    refused rename, shown at that player's row on ``players_page``."""
    seasons = list(selectors.club_league_seasons(club=club))
    for season in seasons:
        season.preset_line = PRESET_LINES.get(season.preset, "")
        season.changes = "; ".join(_change_words(name, season.options[name])
                                   for name in OPTIONS if name in season.options)
    number = request.GET.get("players", "")
    if players_page is None:
        players_page = number if number.isascii() and number.isdigit() and len(number) < 10 \
            else 1
    players = Paginator(selectors.club_players(club=club), PLAYERS_PER_PAGE).get_page(
        players_page)
    for player in players:
        player.rename_value, player.rename_error = player.name, None
        if renaming and renaming[0] == player.pk:
            player.rename_value, player.rename_error = renaming[1], renaming[2]
    tables = selectors.club_open_tables(club=club)
    return render(request, "league/organiser/club.html", {
        "club": club,
        "seasons": seasons,
        "players": players,
        "tables": tables,
        "tables_limit": selectors.OPEN_TABLES_SHOWN,
        "add_form": add_form or PlayerNameForm(auto_id="add_%s"),
    }, status=status)


@for_organisers
def club(request, club):
    return _club_page(request, club)


@require_POST
@for_organisers
def player_add(request, club):
    form = PlayerNameForm(request.POST, auto_id="add_%s")
    if form.is_valid():
        try:
            player = services.player_create(name=form.cleaned_data["name"], clubs=[club],
                                            by=request.user)
        except LeagueError as e:
            form.add_error("name", e.message)
        else:
            messages.success(request, f"{player.name} added to {club}.")
            return redirect(_players_url(club, player))
    return _club_page(request, club, add_form=form, status=400)


@require_POST
@for_organisers
def player_rename(request, club, player_id):
    player = get_object_or_404(Player, pk=player_id, clubs=club)
    form = PlayerNameForm(request.POST)
    posted = request.POST.get("name", "")
    if not form.is_valid():
        error = "; ".join(e for errors in form.errors.values() for e in errors)
        return _club_page(request, club, renaming=(player.pk, posted, error),
                          players_page=_players_page(club, player), status=400)
    before = player.name
    try:
        services.player_update(player=player, name=form.cleaned_data["name"], by=request.user)
    except LeagueError as e:
        return _club_page(request, club, renaming=(player.pk, posted, e.message),
                          players_page=_players_page(club, player), status=400)
    if player.name != before:
        messages.success(request, f"{before} is now called {player.name}.")
    return redirect(_players_url(club, player))


def _season_page(request, club, form, season=None, status=200, note=None):
    return render(request, "league/organiser/season_form.html", {
        "club": club, "season": season, "form": form, "note": note,
    }, status=status)


@for_organisers
def season_create(request, club):
    if request.method != "POST":
        preset = request.GET.get("preset")
        form = SeasonForm(initial=SeasonForm.initial_for(
            preset=preset if preset in PRESET_LINES else "classic"))
        return _season_page(request, club, form)
    form = SeasonForm(request.POST)
    if form.preset_switched():
        return _season_page(request, club, form.with_preset_shown(), note=_switched(form))
    if form.is_valid():
        try:
            season = services.season_create(club=club, by=request.user, **form.season_fields())
        except LeagueError as e:
            form.refuse_all(e)
        else:
            messages.success(request, f"Season {season.name} created.")
            return redirect("league:organise_club", club.pk)
    else:
        form.refuse_unsaid(services.season_refusals(club=club, **form.season_fields()))
    return _season_page(request, club, form, status=400)


@for_organisers
def season_edit(request, season):
    club = season.club
    if hasattr(season, "tournament"):
        return _refuse(request, f"{season.name} is the season of the tournament "
                                f"{season.tournament.name}: its rules are the tournament's.",
                       status=400)
    rules_fixed = season.games.filter(deal_set__isnull=False).exists()
    initial = SeasonForm.initial_for(season=season)
    if request.method != "POST":
        return _season_page(request, club, SeasonForm(initial=initial, rules_fixed=rules_fixed),
                            season)
    form = SeasonForm(request.POST, initial=initial, rules_fixed=rules_fixed)
    if form.preset_switched():
        return _season_page(request, club, form.with_preset_shown(), season,
                            note=_switched(form))
    if form.is_valid():
        try:
            services.season_update(season=season, by=request.user, **form.season_fields())
        except LeagueError as e:
            form.refuse_all(e)
        else:
            messages.success(request, f"Season {season.name} saved.")
            return redirect("league:organise_club", club.pk)
    else:
        form.refuse_unsaid(services.season_refusals(club=club, season=season,
                                                    **form.season_fields()))
    return _season_page(request, club, form, season, status=400)


def _switched(form) -> str:
    return (f"Nothing saved yet: you picked {form.data['preset']}, so its options are shown "
            "below with its own values. Check them and save.")
