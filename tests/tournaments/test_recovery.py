"""Tournaments recover by themselves (issue #16): batches are recorded with the start, sent
after commit within a bounded queue, and the reconciler sends again what a broker did not take
or a worker dropped. Tasks run in this process here; test_fault_injection.py runs real
workers, beat and outages."""

from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from config.celery_app import app
from tests.tournaments.helpers import small_tournament
from tournaments import selectors, services, tasks
from tournaments.models import Tournament, TournamentBatch, TournamentGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch, settings):
    """A broker that takes every task and runs none: the batches sent, in order."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    batches = []
    monkeypatch.setattr(tasks.tournament_play_batch_task, "apply_async",
                        lambda args, kwargs, **options: batches.append(kwargs["batch_id"]))
    return batches


def started(capture, **kwargs):
    tournament = small_tournament(**kwargs)
    with capture(execute=True):
        services.tournament_start(tournament=tournament)
    tournament.refresh_from_db()
    return tournament


def test_a_start_sends_no_more_than_the_queue_holds_and_the_reconciler_tops_it_up(
        sent, settings, django_capture_on_commit_callbacks):
    settings.TOURNAMENT_QUEUED_BATCHES = 5
    tournament = started(django_capture_on_commit_callbacks, batch_size=1)

    batches = list(tournament.batches.values_list("pk", flat=True))
    assert len(batches) == 16 and sent == batches[:5]
    assert tournament.status == Tournament.RUNNING

    services.tournaments_reconcile()
    assert sent == batches[:5]  # five still wait in the queue

    # Workers take two: two more are sent.
    TournamentBatch.objects.filter(pk__in=batches[:2]).update(beat_at=timezone.now())
    services.tournaments_reconcile()
    assert sent == batches[:7]


def test_a_start_the_broker_refuses_is_committed_and_sent_later(
        monkeypatch, settings, sent, django_capture_on_commit_callbacks):
    def broker_down(*args, **kwargs):
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with monkeypatch.context() as down:
        down.setattr(tasks.tournament_play_batch_task, "apply_async", broker_down)
        tournament = started(django_capture_on_commit_callbacks, batch_size=3)

    assert tournament.status == Tournament.RUNNING
    assert tournament.batches.filter(sent_at=None).count() == 6  # 16 games by 3
    services.tournaments_reconcile()
    assert sent == list(tournament.batches.values_list("pk", flat=True))
    assert not tournament.batches.filter(sent_at=None).exists()


def backdate(tournament, minutes):
    """As if the last ``minutes`` had passed with no news from any worker."""
    past = timedelta(minutes=minutes)
    for model in (TournamentGame, TournamentBatch):
        for row in model.objects.filter(tournament=tournament):
            for field in ("stored_at", "created_at", "sent_at", "beat_at"):
                if getattr(row, field, None):
                    setattr(row, field, getattr(row, field) - past)
            row.save()


def test_a_batch_whose_worker_died_shows_stalled_and_is_played_by_the_reconciler(
        client, settings, django_capture_on_commit_callbacks):
    tournament = small_tournament(batch_size=3)
    with django_capture_on_commit_callbacks(execute=False):
        services.tournament_start(tournament=tournament)
    tournament.refresh_from_db()
    batches = list(tournament.batches.order_by("id"))
    TournamentBatch.objects.exclude(pk=batches[-1].pk).update(sent_at=timezone.now())
    # Workers play every batch but the last two; one worker takes the next and dies after one
    # game (its heartbeat stops); the last one is not sent yet.
    for batch in batches[:-2]:
        services.tournament_play_batch(tournament_id=tournament.pk, keys=batch.keys,
                                       batch_id=batch.pk)
    dying = batches[-2]
    services.tournament_play_batch(tournament_id=tournament.pk, keys=dying.keys[:1],
                                   batch_id=dying.pk)
    TournamentBatch.objects.filter(pk=dying.pk).update(done_at=None)
    backdate(tournament, minutes=10)
    assert tournament.games.count() == 13

    progress = selectors.tournament_progress(tournament=tournament)
    assert progress.stalled and progress.eta_seconds is None
    assert (progress.status, progress.done) == (Tournament.RUNNING, 13)
    assert "stalled" in client.get(tournament.get_absolute_url()).content.decode()
    api = client.get(f"/api/v1/tournaments/{tournament.pk}/progress/").json()
    assert (api["stalled"], api["eta_seconds"]) == (True, None)

    with django_capture_on_commit_callbacks(execute=True):
        result = services.tournaments_reconcile()

    assert result["stalled"] == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    keys = list(tournament.games.values_list("round", "table", "number"))
    assert len(keys) == len(set(keys)) == 16
    assert not selectors.tournament_progress(tournament=tournament).stalled


def test_a_batch_waiting_in_the_queue_is_not_stalled(settings, django_capture_on_commit_callbacks):
    settings.TOURNAMENT_STALL_SECONDS = 60
    tournament = small_tournament()
    with django_capture_on_commit_callbacks(execute=False):
        services.tournament_start(tournament=tournament)
    TournamentBatch.objects.update(sent_at=timezone.now())

    assert not selectors.tournament_progress(tournament=tournament).stalled
    assert services.tournaments_reconcile() == {"stalled": 0, "lost": 0, "sent": 0}


def test_the_soft_time_limit_ends_a_batch_cleanly_and_the_reconciler_plays_the_rest(
        monkeypatch, django_capture_on_commit_callbacks):
    tournament = small_tournament(batch_size=4)
    with django_capture_on_commit_callbacks(execute=False):
        services.tournament_start(tournament=tournament)
    batch = TournamentBatch.objects.order_by("id").first()
    TournamentBatch.objects.filter(pk=batch.pk).update(sent_at=timezone.now())
    play = services.tournament_game_play
    calls = []

    def slow_second_game(**kwargs):
        calls.append(kwargs["key"])
        if len(calls) == 2:
            raise SoftTimeLimitExceeded()
        return play(**kwargs)

    monkeypatch.setattr(services, "tournament_game_play", slow_second_game)
    assert tasks.tournament_play_batch_task(tournament.pk, batch.keys, batch_id=batch.pk) == 0

    batch.refresh_from_db()
    assert (batch.sent_at, batch.beat_at, batch.done_at) == (None, None, None)
    assert tournament.games.count() == 1
    monkeypatch.setattr(services, "tournament_game_play", play)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournaments_reconcile()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED and tournament.games.count() == 16


def test_a_running_tournament_with_nothing_scheduled_is_caught_up(
        django_capture_on_commit_callbacks):
    """e.g. started before batches were recorded, or its rows lost."""
    tournament = small_tournament()
    with django_capture_on_commit_callbacks(execute=False):
        services.tournament_start(tournament=tournament)
    services.tournament_play_batch(tournament_id=tournament.pk, keys=[(0, 0, 0), (0, 1, 2)])
    TournamentBatch.objects.all().delete()

    with django_capture_on_commit_callbacks(execute=True):
        services.tournaments_reconcile()

    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED and tournament.games.count() == 16


def test_tasks_have_time_limits_and_beat_runs_the_reconciler():
    assert 0 < app.conf.task_soft_time_limit < app.conf.task_time_limit
    entry = settings.CELERY_BEAT_SCHEDULE["tournaments-reconcile"]
    assert entry["task"] == tasks.tournaments_reconcile_task.name
    assert entry["schedule"] == settings.TOURNAMENT_RECONCILE_SECONDS
    assert app.conf.beat_scheduler == "django_celery_beat.schedulers:DatabaseScheduler"
