"""A ladder game's transcript, seats' figures and faults move to its played bot game (issue
#27: one home for a bot game). Stored games are copied in batches; the ladder's Seat and Fault
rows stay (they are the entries' records). Reversing copies the transcripts back."""

import django.db.models.deletion
from django.db import migrations, models

from gameplay.runner.validation import deals_seed

BATCH = 200


def _batch_copied(apps, games) -> None:
    BotGame, BotSeat, BotFault = (apps.get_model("bot_games", name)
                                  for name in ("BotGame", "BotSeat", "BotFault"))
    made = BotGame.objects.bulk_create(
        BotGame(preset=g.preset, scoring=g.transcript.get("scoring"), transcript=g.transcript,
                seed=deals_seed(g.seed), played_at=g.stored_at or g.created_at)
        for g in games)
    home = {g.pk: made[i] for i, g in enumerate(games)}
    BotSeat.objects.bulk_create(
        BotSeat(game=home[s.game_id], seat=s.seat, bot=s.entry.name, positions=s.positions,
                points=s.score, decisions=s.decisions, decision_ms=s.decision_ms)
        for s in apps.get_model("ladder", "Seat").objects.filter(game_id__in=home)
        .select_related("entry").order_by("pk"))
    BotFault.objects.bulk_create(
        BotFault(game=home[f.game_id], seat=f.seat, deal=f.deal, number=f.number,
                 decision=f.decision, kind=f.kind, message=f.message, answer=f.answer)
        for f in apps.get_model("ladder", "Fault").objects.filter(game_id__in=home)
        .order_by("pk"))
    for game in games:
        game.bot_game = home[game.pk]
    type(games[0]).objects.bulk_update(games, ["bot_game"])


def copy_to_bot_games(apps, schema_editor):
    Game = apps.get_model("ladder", "Game")
    last = 0
    while True:
        games = list(Game.objects.filter(pk__gt=last, transcript__isnull=False,
                                         bot_game__isnull=True).order_by("pk")[:BATCH])
        if not games:
            return
        _batch_copied(apps, games)
        last = games[-1].pk


def transcripts_back(apps, schema_editor):
    Game = apps.get_model("ladder", "Game")
    last = 0
    while True:
        games = list(Game.objects.filter(pk__gt=last, bot_game__isnull=False)
                     .select_related("bot_game").order_by("pk")[:BATCH])
        if not games:
            return
        for game in games:
            game.transcript = game.bot_game.transcript
        Game.objects.bulk_update(games, ["transcript"])
        last = games[-1].pk


class Migration(migrations.Migration):

    dependencies = [
        ('ladder', '0004_entry_probation'),
        ('bot_games', '0001_bot_games'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='bot_game',
            field=models.OneToOneField(blank=True, help_text='the game as played, once stored: transcript, seats, faults', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ladder_game', to='bot_games.botgame'),
        ),
        migrations.RunPython(copy_to_bot_games, migrations.RunPython.noop),
        migrations.RunPython(migrations.RunPython.noop, transcripts_back),
        migrations.RemoveField(
            model_name='game',
            name='transcript',
        ),
        # A fault's columns are now the ones every kept fault shares (bot_games.FaultRecord).
        migrations.AlterField(
            model_name='fault',
            name='answer',
            field=models.CharField(blank=True, help_text="the start of the bot's answer, when there was one", max_length=200),
        ),
        migrations.AlterField(
            model_name='fault',
            name='decision',
            field=models.CharField(help_text='play, name_cards, give_back, ask or lead_and_direction', max_length=20),
        ),
    ]
