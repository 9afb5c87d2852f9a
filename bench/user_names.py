"""A sign-up's user name check with 100,000 users: the look-alike lookup by indexed keys
(accounts.models.checked_username) against reading every user name and comparing in Python
(accounts.adapter before the keys), on a fresh SQLite database in a temporary directory.

    .venv/bin/python bench/user_names.py [--users 100000]
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--tries", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
        import django
        django.setup()
        from django.core.management import call_command
        call_command("migrate", verbosity=0)
        measure(args.users, args.tries)


def measure(users: int, tries: int):
    from django.contrib.auth import get_user_model
    from django.core.exceptions import ValidationError
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.models import NameKeys, checked_username
    from league.names import look_alike, look_alike_keys

    User = get_user_model()
    names = [f"player{n}" for n in range(users)]
    User.objects.bulk_create((User(username=name) for name in names), batch_size=2000)
    ids = dict(User.objects.values_list("username", "pk"))
    NameKeys.objects.bulk_create((NameKeys(user_id=ids[name], **look_alike_keys(name))
                                  for name in names), batch_size=2000)

    def scan(name):  # before: every user read and compared in Python
        for other in User.objects.values_list("username", flat=True).iterator():
            if look_alike(name, other):
                return other
        return None

    def keys(name):
        try:
            checked_username(name)
        except ValidationError:
            return "refused"
        return None

    print(f"{users:,} users, SQLite; median of {tries} checks of a free name (the whole table "
          "for the scan) and of a look-alike (player5OO with capital o's)")
    for label, check in (("scan (before)", scan), ("indexed keys", keys)):
        for name in ("newcomer", "player5OO"):
            times = []
            for _ in range(tries):
                with CaptureQueriesContext(connection) as queries:
                    start = time.perf_counter()
                    found = check(name)
                    times.append(time.perf_counter() - start)
            times.sort()
            print(f"  {label:14} {name:10} {times[len(times) // 2] * 1000:9.2f} ms  "
                  f"{len(queries)} queries  -> {found or 'free'}")


if __name__ == "__main__":
    main()
