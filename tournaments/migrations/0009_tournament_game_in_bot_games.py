"""A tournament game's transcript, seats and faults move to its played bot game (issue #27:
one home for a bot game). Existing games are copied in batches; the GameFault rows stay (they
count an entrant's faults). Reversing copies the transcripts back."""

import django.db.models.deletion
from django.db import migrations, models

from gameplay.runner.figures import seed_of
from gameplay.runner.match import deal_block

BATCH = 200


def _deal_seed(game, players: int) -> int:
    tournament = game.tournament
    block = deal_block(game.number, players, tournament.duplicate)
    return seed_of("deal", tournament.seed, game.round, game.table, block)


def _batch_copied(apps, games) -> None:
    BotGame, BotSeat, BotFault = (apps.get_model("bot_games", name)
                                  for name in ("BotGame", "BotSeat", "BotFault"))
    league_games = [g.game_id for g in games]
    seats = {}  # league game: [(seat, player, points)]
    for game_id, number, player_id, points in (
            apps.get_model("league", "Seat").objects.filter(game_id__in=league_games)
            .order_by("number").values_list("game_id", "number", "player_id", "points")):
        seats.setdefault(game_id, []).append((number, player_id, points))
    positions = {}  # (league game, seat): positions by deal
    for game_id, seat, position in (
            apps.get_model("league", "Place").objects.filter(deal__game_id__in=league_games)
            .order_by("deal__number").values_list("deal__game_id", "seat", "position")):
        positions.setdefault((game_id, seat), []).append(position)
    bots = dict(((t, p), bot) for t, p, bot in apps.get_model("gameplay", "Entrant").objects
                .filter(tournament_id__in={g.tournament_id for g in games})
                .values_list("tournament_id", "player_id", "bot"))
    made = BotGame.objects.bulk_create(
        BotGame(preset=g.tournament.preset, options=g.tournament.options,
                scoring=g.transcript.get("scoring"), transcript=g.transcript,
                seed=_deal_seed(g, len(seats[g.game_id])), played_at=g.stored_at)
        for g in games)
    BotSeat.objects.bulk_create(
        BotSeat(game=made[i], seat=number, bot=bots.get((g.tournament_id, player), ""),
                positions=positions.get((g.game_id, number), []), points=points)
        for i, g in enumerate(games) for number, player, points in seats[g.game_id])
    home = {g.pk: made[i] for i, g in enumerate(games)}
    BotFault.objects.bulk_create(
        BotFault(game=home[f.game_id], seat=f.seat, deal=f.deal, number=f.number,
                 decision=f.decision, kind=f.kind, message=f.message, answer=f.answer)
        for f in apps.get_model("gameplay", "GameFault").objects.filter(game_id__in=home)
        .order_by("pk"))
    for game in games:
        game.bot_game = home[game.pk]
    type(games[0]).objects.bulk_update(games, ["bot_game"])


def copy_to_bot_games(apps, schema_editor):
    TournamentGame = apps.get_model("gameplay", "TournamentGame")
    last = 0
    while True:
        games = list(TournamentGame.objects.filter(pk__gt=last, bot_game__isnull=True)
                     .select_related("tournament").order_by("pk")[:BATCH])
        if not games:
            return
        _batch_copied(apps, games)
        last = games[-1].pk


def transcripts_back(apps, schema_editor):
    TournamentGame = apps.get_model("gameplay", "TournamentGame")
    last = 0
    while True:
        games = list(TournamentGame.objects.filter(pk__gt=last, bot_game__isnull=False)
                     .select_related("bot_game").order_by("pk")[:BATCH])
        if not games:
            return
        for game in games:
            game.transcript = game.bot_game.transcript
        TournamentGame.objects.bulk_update(games, ["transcript"])
        last = games[-1].pk


class Migration(migrations.Migration):

    dependencies = [
        ('gameplay', '0008_outside_bot_moved_to_outside_bots'),
        ('bot_games', '0001_bot_games'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournamentgame',
            name='bot_game',
            field=models.OneToOneField(blank=True, help_text='the game as played: transcript, seats, faults', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournament_game', to='bot_games.botgame'),
        ),
        migrations.RunPython(copy_to_bot_games, migrations.RunPython.noop),
        # Nullable first, so that reversing adds the column back before refilling it.
        migrations.AlterField(
            model_name='tournamentgame',
            name='transcript',
            field=models.JSONField(null=True, help_text='the whole game, checker-valid'),
        ),
        migrations.RunPython(migrations.RunPython.noop, transcripts_back),
        migrations.RemoveField(
            model_name='tournamentgame',
            name='transcript',
        ),
    ]
