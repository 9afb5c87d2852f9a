"""The organisers' page that creates a tournament; the public progress page of a tournament,
the JSON it refreshes from, and its organisers' start, cancel and resume buttons; an outside
bot's page of its faults; the replay of each deal of a tournament game."""

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from bot_games import selectors as bot_games
from bot_games.services import deal_steps
from league import replays
from league.errors import LeagueError
from league.selectors import organises
from league.web.organiser import for_organisers
from league.web.refused import refuse
from outside_bots.models import OutsideBot
from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.web.api import TournamentCreateSerializer
from tournaments.web.forms import (
    DEFAULT_BOTS,
    EMPTY_ROWS,
    MORE_ROWS,
    TournamentForm,
    cost_words,
)


@for_organisers
def tournament_create(request, club):
    """A new tournament of ``club``: judged by the API's serializer, then created by the
    service the API uses (tournaments.services.tournament_create). "Count the games" and "More
    bot rows" show the form again, nothing created."""
    bots = list(selectors.enterable_outside_bots(by=request.user))
    if request.method != "POST":
        form = TournamentForm(initial=TournamentForm.defaults(), by=request.user, bots=bots,
                              rows=len(DEFAULT_BOTS) + EMPTY_ROWS)
        return _create_page(request, club, form)
    form = TournamentForm(request.POST, by=request.user, bots=bots)
    then = request.POST.get("then")
    if then == "more":
        return _create_page(request, club, form.with_more_rows())
    if not form.is_valid():
        return _create_page(request, club, form, status=400)
    fields = form.tournament_fields()
    if then == "count" or form.errors:
        return _create_page(request, club, form, status=400 if form.errors else 200)
    checked = TournamentCreateSerializer(data={"club": club.pk, **fields})
    if not checked.is_valid():
        form.refuse_fields(checked.errors)
        return _create_page(request, club, form, status=400)
    data = dict(checked.validated_data)
    data["entrants"] = [(e["name"], e["bot"]) for e in data["entrants"]]
    try:
        tournament = services.tournament_create(by=request.user, **data)
    except LeagueError as e:  # a TournamentError, shown at the field it names
        form.refuse(e)
        return _create_page(request, club, form, status=400)
    messages.success(request, f"{tournament} created: {tournament.total_games:,} games to "
                              "play. Start it when you are ready.")
    return redirect(tournament.get_absolute_url())


def _create_page(request, club, form, status=200):
    return render(request, "tournaments/create.html", {
        "club": club, "form": form, "cost": _cost(form, club), "more_rows": MORE_ROWS},
        status=status)


def _cost(form, club) -> str:
    """What the form's tournament would take, or why it cannot be counted yet."""
    values = form.initial
    if form.is_bound:
        form.is_valid()
        values = form.cleaned_data
        if any(name not in values for name in ("format", "seats", "games_per_table", "rounds",
                                               "scoring_system")):
            return "Correct what is marked above to see what it would take."
    entered = [values.get(f"bot-{i}-bot") or "" for i in range(form.row_count)
               if (values.get(f"bot-{i}-name") or "").strip()]
    try:
        games = services.tournament_games(
            format=values["format"], seats=values["seats"], entrants=len(entered),
            games_per_table=values["games_per_table"], rounds=values["rounds"])
    except TournamentError as e:
        return f"It cannot be counted yet: {e.message}."
    scoring = {"system": values["scoring_system"],
               "deals": values.get("scoring_deals")}
    montecarlo = any(b.startswith("montecarlo") for b in entered)
    return cost_words(games, scoring, montecarlo=montecarlo, pace=selectors.last_pace(club=club))


def tournament_detail(request, pk):
    tournament = get_object_or_404(Tournament.objects.select_related("club", "season"), pk=pk)
    progress = selectors.tournament_progress(tournament=tournament)
    may_resume = selectors.may_resume(tournament=tournament)
    return render(request, "tournaments/tournament.html", {
        "tournament": tournament,
        "progress": progress,
        "said": _said(tournament, progress),
        "standings": selectors.tournament_standings(tournament=tournament),
        "entrants": selectors.with_fault_counts(tournament.entrants.select_related("player")),
        "organiser": organises(request.user, tournament.club),
        "may_resume": may_resume,
        "left": progress.total - progress.done - progress.unplayed,
    })


def _said(tournament, progress) -> str:
    """The tournament's state in a sentence, for the page and its refreshes."""
    if progress.status == Tournament.SCHEDULED:
        return f"Not started yet: {progress.total} games to play."
    if progress.status == Tournament.FINISHED:
        played = (f"all {progress.done} games were played" if progress.done == progress.total
                  else f"{progress.done} of {progress.total} games were played")
        return f"This tournament is finished: {played}. The standings below are final."
    if progress.status == Tournament.CANCELLED:
        if not tournament.tables:
            return "This tournament was cancelled before it started."
        return (f"This tournament was cancelled after {progress.done} of {progress.total} "
                "games.")
    return ""


def outside_bot_detail(request, name):
    bot = get_object_or_404(OutsideBot, name=name)
    return render(request, "tournaments/outside_bot.html", {
        "bot": bot, **selectors.outside_bot_faults(bot=bot),
        "shown": selectors.OUTSIDE_FAULTS_SHOWN})


def tournament_progress(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    progress = selectors.tournament_progress(tournament=tournament)
    return JsonResponse({**progress.to_dict(), "said": _said(tournament, progress),
                         "may_resume": selectors.may_resume(tournament=tournament),
                         "standings": selectors.tournament_standings(tournament=tournament)})


@require_POST
def tournament_start(request, pk):
    return _organiser_action(request, pk, services.tournament_start, "started")


@require_POST
def tournament_cancel(request, pk):
    return _organiser_action(request, pk, services.tournament_cancel, "cancelled")


@require_POST
def tournament_resume(request, pk):
    return _organiser_action(request, pk, services.tournament_resume, "resumed")


def _organiser_action(request, pk, service, done: str):
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not organises(request.user, tournament.club):
        return render(request, "tournaments/refused.html", {
            "message": f"Only organisers of {tournament.club} may start, stop or resume its "
                       "tournaments."}, status=403)
    try:
        service(tournament=tournament, by=request.user)
    except TournamentError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, f"{tournament} {done}.")
    return redirect(tournament.get_absolute_url())


def deal_replay(request, pk, number):
    """Deal ``number`` (from 1) of a stored tournament game, stepped through from the game's
    one transcript (league.replays plays the game up to it)."""
    stored = selectors.tournament_game_with_transcript(pk=pk)
    if stored is None:
        return _not_here(request, f"There is no tournament game {pk}.")
    game, tournament = stored.game, stored.tournament
    deals = len(stored.bot_game.transcript["deals"])
    # the tournament's own name: its season's is "Tournament: NAME"
    named = f"{game.season.club}: {tournament}, game {game.number}"
    if not 1 <= number <= deals:
        return _not_here(request, f"{named} has {deals} deal{'s' if deals != 1 else ''}: "
                                  f"there is no deal {number} to replay.")
    names = [seat.player.name for seat in game.seats.all()]
    try:
        steps = replays.transcript_steps(stored.bot_game.transcript, names=names, deal=number)
    except LeagueError as e:
        return _not_here(request, e.message, status=422)
    # Each decision's time and safe moves; the bots' own logs to staff only (an entrant's bot
    # is an organiser's spec, with no author of its own here). A link to a fault names the
    # game's step (#step-N): the replay starts at the deal's ``first``.
    steps["first"] = deal_steps(stored.bot_game.transcript)[number - 1][0]
    bot_games.replay_marked(
        steps, game_id=stored.bot_game_id, first=steps["first"],
        log_seats=set(range(len(names))) if request.user.is_staff else set())

    def deal_url(n):
        return reverse("gameplay:deal_replay", args=[stored.pk, n]) if 1 <= n <= deals else None

    return render(request, "league/replay.html", {
        "steps": steps, "title": f"{named}, deal {number} of {deals}",
        "heading": format_html(
            '<bdi>{}</bdi>: <bdi><a href="{}">{}</a></bdi>, game {}, deal {} of {}',
            game.season.club, tournament.get_absolute_url(), tournament, game.number, number,
            deals),
        "back": reverse("league:game_detail", args=[game.pk]),
        "previous": deal_url(number - 1), "next": deal_url(number + 1)})


def _not_here(request, message, status=404):
    return refuse(request, message, status)
