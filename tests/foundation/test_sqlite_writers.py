"""Two writers of the default database, a SQLite file (`make run`), at the same instant: the
second waits for the first and is refused in words, as row locks make it on PostgreSQL. Each
transaction begins with the write lock (config/settings/base.py, transaction_mode); begun as
a reader, the second failed at once with "database is locked" (a 500 to one of two phones
confirming the same deal).

The suite's own SQLite database is in memory, one connection the live server's threads share,
so the race runs in a process of its own against a file."""

import json
import os
import subprocess
import sys
import threading

from tests.conftest import PROJECT_DIR


def test_two_phones_recording_one_deal_at_once_on_sqlite_are_one_deal_and_one_refusal(
        tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    env.pop("CELERY_BROKER_URL", None)  # tasks run eagerly, as under make run
    ran = subprocess.run([sys.executable, "-m", __name__], env=env, cwd=PROJECT_DIR, timeout=300,
                         capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr[-3000:]
    answers = json.loads(ran.stdout.strip().splitlines()[-1])
    assert sorted(answers) == ["Conflict"] * 3 + ["recorded"] * 3, answers


class DisableMigrations:
    def __contains__(self, app: str) -> bool:
        return True

    def __getitem__(self, app: str) -> None:
        return None


def race():
    import django
    from django.conf import settings

    # The tables straight from the models, as pytest-django's --nomigrations makes them: the
    # race needs no migration's rows, and 110 migrations take most of this test's time.
    settings.MIGRATION_MODULES = DisableMigrations()
    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from league import services
    from league.errors import Conflict
    from tests.league.factories import make_game, seated_ids

    call_command("migrate", verbosity=0, run_syncdb=True)
    answers = []
    for _ in range(3):
        game = make_game()
        order = seated_ids(game)
        start = threading.Barrier(2, timeout=30)

        def record(game=game, order=order, start=start):
            try:
                start.wait()
                services.deal_record(game=game, finishing_order=order, number=1)
                answers.append("recorded")
            except Conflict:
                answers.append("Conflict")
            except Exception as e:  # what the request would have answered 500 for
                answers.append(f"{type(e).__name__}: {e}")
            finally:
                connection.close()

        phones = [threading.Thread(target=record) for _ in range(2)]
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join()
    print(json.dumps(answers))


if __name__ == "__main__":
    race()
