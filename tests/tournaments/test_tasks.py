"""The tasks' delivery options and how batches are enqueued."""

from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from gameplay import services, tasks
from gameplay.models import Tournament
from tests.tournaments.helpers import small_tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("task", [tasks.tournament_start_task, tasks.tournament_play_batch_task])
def test_tasks_ack_late_and_retry_transient_errors(task):
    assert task.acks_late and task.reject_on_worker_lost
    assert OperationalError in task.autoretry_for and task.retry_backoff
    assert task.max_retries >= 3


def test_a_later_start_sends_every_batch_with_its_eta(monkeypatch,
                                                      django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(tasks.tournament_play_batch_task, "apply_async",
                        lambda args, **options: sent.append((args, options)))
    starts_at = timezone.now() + timedelta(hours=2)
    tournament = small_tournament(starts_at=starts_at, batch_size=5)

    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=tournament)

    assert [len(args[1]) for args, _ in sent] == [5, 5, 5, 1]
    assert {options["eta"] for _, options in sent} == {starts_at}
    assert sorted(tuple(k) for args, _ in sent for k in args[1]) == [
        (0, t, g) for t in range(4) for g in range(4)]


def test_nothing_is_sent_before_commit(monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(tasks.tournament_play_batch_task, "apply_async",
                        lambda args, **options: sent.append(args))
    tournament = small_tournament()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.tournament_start(tournament=tournament)
        assert sent == []
    assert len(callbacks) == 1


def test_the_start_task_runs_once(django_capture_on_commit_callbacks):
    tournament = small_tournament()
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.tournament_start_task(tournament.pk) == 16
        assert tasks.tournament_start_task(tournament.pk) == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    assert tournament.games.count() == 16
