"""The tasks' delivery options and how batches are enqueued."""

from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone
from redis.exceptions import ConnectionError as RedisConnectionError

from tests.tournaments.helpers import small_tournament
from tournaments import services, tasks
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("error", [OperationalError("the database went away"),
                                   RedisConnectionError("the broker went away")])
def test_a_batch_meeting_a_transient_error_is_retried_and_stores_its_games(
        monkeypatch, django_capture_on_commit_callbacks, error):
    monkeypatch.setattr(tasks.tournament_play_batch_task, "apply_async",
                        lambda args, **options: None)
    tournament = small_tournament(batch_size=5)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=tournament)
    store, calls = services.tournament_game_store, []

    def fails_once(**kwargs):
        calls.append(kwargs["key"])
        if len(calls) == 1:
            raise error
        return store(**kwargs)

    monkeypatch.setattr(services, "tournament_game_store", fails_once)
    keys = [(0, 0, 0), (0, 0, 1)]
    result = tasks.tournament_play_batch_task.apply(args=(tournament.pk, keys), throw=False)

    assert result.successful() and result.get() == 2
    assert calls == [(0, 0, 0), (0, 0, 0), (0, 0, 1)]  # the whole batch ran again
    assert sorted(tournament.games.values_list("round", "table", "number")) == keys


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
