"""Every page and API read on a big club and a big ladder: queries, milliseconds and bytes.

    python bench/pages.py [--seasons 10] [--games 300] [--players 400] [--bots 300]
                          [--ladder-games 20000] [--runs 5] [--reuse] [PAGE ...]

Builds, in a fresh PostgreSQL database (POSTGRES_BENCH_URL, default
postgres://postgres@127.0.0.1:5432/pl_pages_bench; dropped and created again unless --reuse),
one club of ``--players`` players and ``--seasons`` seasons of ``--games`` games (4 to 6 at a
table, 4 to 8 deals a game by season, fixed-rounds scoring), the club's first player seated at
every game (a regular: 3,000 games and 18,000 deals at the defaults), the season and all-time
rating histories, six club nights a season (50 games each; the newest season's last 50 games
open tonight), and a ladder of ``--bots`` entries (four built-in references and authors' bots,
five to an author) with ``--ladder-games`` rated games (four seats, a rating point each; the
first author's first bot in every fourth). Rows are written directly (bulk_create), totals
scored by the engine's ScoreSheet and ratings by the league's OpenSkill replay, as
bench/standings.py does.

Then requests each page and API read through Django's test client (the whole middleware stack,
one process) as a reader who is not signed in, the club's organiser and the author (the admin's
lists as a superuser), and prints
one JSON line each: status, the SQL queries and milliseconds of the first request after the
cache is emptied (``cold``), the least of ``--runs`` more (``warm``: what the cache keeps), and
the bytes of the answer. PAGE names limit it to those pages (``player_regular``, ``api_deals``…).
"""

import argparse
import datetime
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.databases import recreate_postgres  # noqa: E402 (after the path is set)
from bench.league_rows import played_season, rate  # noqa: E402

POSTGRES_URL = os.environ.get("POSTGRES_BENCH_URL",
                              "postgres://postgres@127.0.0.1:5432/pl_pages_bench")
NIGHTS_A_SEASON = 6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seasons", type=int, default=10)
    parser.add_argument("--games", type=int, default=300, help="games a season")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--bots", type=int, default=300)
    parser.add_argument("--ladder-games", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reuse", action="store_true",
                        help="measure the database as it is (built by an earlier run)")
    parser.add_argument("pages", nargs="*")
    args = parser.parse_args()
    if not args.reuse:
        recreate_postgres(POSTGRES_URL)
    # The bench asks far more often than a reader: no throttle may answer 429.
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings.test", DATABASE_URL=POSTGRES_URL,
                      API_THROTTLE_ANON="1000000/minute", API_THROTTLE_USER="1000000/minute")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.pop("CACHE_URL", None)
    import django

    django.setup()
    if not args.reuse:
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        build_club(args.players, args.seasons, args.games)
        build_ladder(args.bots, args.ladder_games)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(json.dumps({"built_seconds": round(time.perf_counter() - started, 1)}),
              flush=True)
    measure(args)


def build_club(players, seasons, games_a_season):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from league import services
    from league.models import Club, Game, Player, RatingJob

    rng = random.Random(5)
    club = Club.objects.create(name="Big club")
    club.organisers.add(get_user_model().objects.create_user("organiser"))
    get_user_model().objects.create_superuser("administrator")
    people = Player.objects.bulk_create(Player(name=f"Player {i:03d}") for i in range(players))
    club.players.set(people)
    regular = people[0]

    def table():  # four to six, the regular first
        return [regular, *rng.sample(people[1:], rng.randint(4, 6) - 1)]

    today = timezone.localdate()
    evening = datetime.time(19)
    every_deal = []
    for s in range(seasons):
        deals_a_game = 4 + s % 5
        starts = today - datetime.timedelta(weeks=NIGHTS_A_SEASON * (seasons - s) - 1)
        season = services.season_create(club=club, name=f"Season {s + 1}", preset="classic",
                                        scoring={"system": "fixed-rounds",
                                                 "deals": deals_a_game},
                                        starts_on=starts)
        games, season_deals = played_season(season, games_a_season, table, deals_a_game, rng)
        every_deal += season_deals
        rate(season_deals, season.pk)
        # Its club nights, weekly from its start: a night's games are created that evening.
        per_night = -(-games_a_season // NIGHTS_A_SEASON)
        for g, game in enumerate(games):
            night = starts + datetime.timedelta(weeks=g // per_night)
            Game.objects.filter(pk=game.pk).update(created_at=timezone.make_aware(
                datetime.datetime.combine(night, evening)) + datetime.timedelta(minutes=g))
    rate(every_deal, None)
    RatingJob.objects.update(dirty_from=None)
    last = Game.objects.filter(season__club=club).order_by("-season__starts_on", "-number")
    Game.objects.filter(pk__in=last.values("pk")[:min(50, games_a_season // 2)]).update(
        status=Game.OPEN, created_at=timezone.now() - datetime.timedelta(minutes=5))


def build_ladder(bots, games):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from bot_games.models import BotFault, BotGame, BotSeat
    from ladder.models import Entry, Game, RatingPoint, Seat
    from outside_bots.models import OutsideBot, name_key

    rng = random.Random(1)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username="author" if i == 0 else f"author{i}")
        for i in range((bots - 4) // 5 + 1))
    outside = OutsideBot.objects.bulk_create(
        OutsideBot(name=f"bot{i}", name_key=name_key(f"bot{i}"),
                   url=f"https://bots.example.org/{i}", owner=users[i // 5],
                   presets=["classic"]) for i in range(bots - 4))

    def figures():
        played = rng.randint(50, 5000)
        deals = 4 * played
        mu, sigma = rng.gauss(25, 5), rng.uniform(0.8, 3)
        return dict(mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=played, deals=deals,
                    rated_deals=deals, firsts=deals // 4, lasts=deals // 4,
                    positions=deals * 5 // 2, faults=rng.randint(0, 9), decisions=deals * 30,
                    decision_median_ms=rng.uniform(1, 40), decision_p95_ms=rng.uniform(40, 400),
                    status=Entry.ACTIVE)

    entries = Entry.objects.bulk_create(
        [Entry(preset="classic", name=n, reference=True, spec=n, **figures())
         for n in ("random", "greedy", "heuristic", "montecarlo")]
        + [Entry(preset="classic", name=b.name, outside_bot=b, author=b.owner, url=b.url,
                 **figures()) for b in outside])
    star, others = entries[4], entries[:4] + entries[5:]
    now = timezone.now()
    chunk = 2000
    for start in range(0, games, chunk):
        numbers = range(start, min(games, start + chunk))
        homes = BotGame.objects.bulk_create(
            BotGame(preset="classic", seed=i, transcript={}, played_at=now) for i in numbers)
        rows = Game.objects.bulk_create(
            Game(kind=Game.RATED, preset="classic", status=Game.DONE, seed=i, deals=4,
                 stored_at=now, bot_game=home) for i, home in zip(numbers, homes, strict=True))
        seats, history = [], []
        for i, game in zip(numbers, rows, strict=True):
            table = [star, *rng.sample(others, 3)] if i % 4 == 0 else rng.sample(others, 4)
            for s, e in enumerate(table):
                seats.append((Seat(game=game, entry=e, seat=s, bot=e.url or e.spec, version=1,
                                   mu_after=25, sigma_after=3),
                              BotSeat(game=game.bot_game, seat=s, bot=e.name,
                                      positions=[1, 2, 3, 4], points=3, decisions=30,
                                      decision_ms=300.0)))
                history.append(RatingPoint(entry=e, game=game, at=now, mu=25,
                                           sigma=8 - i / games, ordinal=1 + i / 500,
                                           deals=4 * (i + 1)))
        for (seat, _), bot_seat in zip(seats, BotSeat.objects.bulk_create(b for _, b in seats),
                                       strict=True):
            seat.bot_seat = bot_seat
        Seat.objects.bulk_create(s for s, _ in seats)
        RatingPoint.objects.bulk_create(history)
    newest = list(BotGame.objects.order_by("-id").values_list("id", flat=True)[:50])
    BotFault.objects.bulk_create(
        BotFault(game_id=pk, seat=0, deal=0, number=1, decision="play", kind="timeout",
                 message="a fault", answer="x" * 100) for pk in newest)


def pages():
    """(name, address) of every page and API read, on the big club's and ladder's rows."""
    from django.urls import reverse as r

    from ladder.models import Entry
    from ladder.models import Game as LadderGame
    from league.models import Club, Deal, Game, Player, Season

    club = Club.objects.get(name="Big club")
    seasons = Season.objects.filter(club=club).order_by("-starts_on")
    last, first = seasons.first(), seasons.last()
    regular, other = Player.objects.order_by("name")[:2]
    finished = Game.objects.filter(season=last, status=Game.FINISHED).order_by("number").first()
    open_game = Game.objects.filter(season=last, status=Game.OPEN).order_by("number").first()
    deal = Deal.objects.filter(game=finished).first()
    star = Entry.objects.get(name="bot0")
    ladder_game = LadderGame.objects.order_by("-id").first()
    return [
        ("home", r("home")), ("club_list", r("league:club_list")),
        ("club_detail", r("league:club_detail", args=[club.pk])),
        ("season_detail", r("league:season_detail", args=[last.pk])),
        ("season_detail_first", r("league:season_detail", args=[first.pk])),
        ("export_standings", r("league:export_standings", args=[last.pk])),
        ("export_results", r("league:export_results", args=[last.pk])),
        ("night", r("league:night", args=[last.pk])),
        ("table_cards", r("league:table_cards", args=[last.pk])),
        ("tonight", r("league:tonight", args=[last.pk])),
        ("tonight_json", r("league:tonight_json", args=[last.pk])),
        ("recap", r("league:night_recap", args=[last.pk])),
        ("game_detail", r("league:game_detail", args=[finished.pk])),
        ("game_enter", r("league:game_enter", args=[open_game.pk])),
        ("player_regular", r("league:player_detail", args=[regular.pk])),
        ("player_other", r("league:player_detail", args=[other.pk])),
        ("player_search", r("league:player_search") + "?q=Player"),
        ("organise_club", r("league:organise_club", args=[club.pk])),
        ("organise_season_edit", r("league:organise_season_edit", args=[last.pk])),
        ("ladder_table", r("ladder:table") + "?preset=classic"),
        ("ladder_table_json", r("ladder:table_json") + "?preset=classic"),
        ("ladder_mine", r("ladder:mine")),
        ("ladder_bot", r("ladder:bot", args=[star.pk])),
        ("ladder_bot_json", r("ladder:bot_json", args=[star.pk])),
        ("ladder_game", r("ladder:game", args=[ladder_game.pk])),
        ("api_clubs", "/api/v1/clubs/"), ("api_club", f"/api/v1/clubs/{club.pk}/"),
        ("api_players", "/api/v1/players/"), ("api_player", f"/api/v1/players/{regular.pk}/"),
        ("api_player_history", f"/api/v1/players/{regular.pk}/rating-history/"),
        ("api_seasons", "/api/v1/seasons/"), ("api_season", f"/api/v1/seasons/{last.pk}/"),
        ("api_season_standings", f"/api/v1/seasons/{last.pk}/standings/"),
        ("api_season_ratings", f"/api/v1/seasons/{last.pk}/ratings/"),
        ("api_games", "/api/v1/games/"), ("api_game", f"/api/v1/games/{finished.pk}/"),
        ("api_deals", "/api/v1/deals/"), ("api_deal", f"/api/v1/deals/{deal.pk}/"),
        # The browsable API: the same reads as a browser gets them, with their forms.
        ("api_deals_browser", "/api/v1/deals/?format=api"),
        ("api_deal_browser", f"/api/v1/deals/{deal.pk}/?format=api"),
        ("api_games_browser", "/api/v1/games/?format=api"),
        ("api_ladder", "/api/v1/ladder/"), ("api_ladder_entry", f"/api/v1/ladder/{star.pk}/"),
        ("api_ladder_games", "/api/v1/ladder-games/"),
        ("api_ladder_game", f"/api/v1/ladder-games/{ladder_game.pk}/"),
        *((f"admin_{app}_{model}", f"/admin/{app}/{model}/") for app, model in (
            ("league", "game"), ("league", "deal"), ("league", "season"),
            ("league", "player"), ("outside_bots", "outsidebot"), ("ladder", "entry"),
            ("ladder", "game"))),
    ]


def measure(args):
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's
    users = get_user_model().objects
    readers = {"anonymous": None, "organiser": users.get(username="organiser"),
               "author": users.get(username="author")}
    administrator = {"administrator": users.get(username="administrator")}

    def get(client, url):
        response = client.get(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        return response, body

    for name, url in pages():
        if args.pages and name not in args.pages:
            continue
        for reader, user in (administrator if name.startswith("admin_") else readers).items():
            client = Client()
            if user:
                client.force_login(user)
            cache.clear()
            queries = []

            def count(run, sql, *rest, queries=queries):
                queries.append(sql)
                return run(sql, *rest)

            started = time.perf_counter()
            with connection.execute_wrapper(count):
                response, body = get(client, url)
            cold = 1000 * (time.perf_counter() - started)
            warm = []
            for _ in range(args.runs):
                started = time.perf_counter()
                get(client, url)
                warm.append(1000 * (time.perf_counter() - started))
            print(json.dumps({"page": name, "as": reader, "status": response.status_code,
                              "queries": len(queries), "cold_ms": round(cold),
                              "warm_ms": round(min(warm)), "bytes": len(body)}), flush=True)


if __name__ == "__main__":
    main()
