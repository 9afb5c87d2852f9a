"""Ratings kept up to date: a season's and the all-time ratings (OpenSkill Plackett-Luce,
league.ratings) are recomputed by a Celery task from the earliest deal a change touched.

A deal's writer marks both scopes stale by inserting a RatingStale row for each (``mark_stale``)
and sends their recompute after commit when none was stale, or when the last row it saw is gone
by then. It locks nothing shared: writers of different games never wait for each other or for
a recompute. A recompute holds its scope's RatingJob row, replays from the earliest stale row
it reads and deletes exactly those: a row committed meanwhile stays, and the recompute sends
another task for it once it commits. Celery beat's reconcile sends what a lost task or an
outage left.
"""

from collections import defaultdict

from django.db import connection, transaction
from django.db.models import Count, Max, Q

from gameplay.runner.figures import ordinal
from league.errors import LeagueError
from league.models import Deal, Place, Rating, RatingHistory, RatingJob, RatingStale, Season
from league.ratings import replay
from league.rules import rating_scope
from plumbing import queue


def mark_stale(season: Season, deal_id: int) -> None:
    """Mark a season's and the all-time ratings stale from a deal on, and send their recompute
    after commit unless the scope was stale already and the last stale row seen is still there
    after commit: the run that deletes that row reads ours, or commits after us and sends itself
    again for it (what slips past, ratings_reconcile sends). So a busy night sends a task per
    scope, not two per deal."""
    scopes = (rating_scope(season), rating_scope(None))
    pending = dict(RatingStale.objects.filter(scope__in=scopes).order_by().values("scope")
                   .annotate(last=Max("pk")).values_list("scope", "last"))
    RatingStale.objects.bulk_create([
        RatingStale(scope=scopes[0], season=season, from_deal=deal_id),
        RatingStale(scope=scopes[1], from_deal=deal_id)])
    for scope in scopes:
        if scope in pending:
            RECOMPUTES.after_commit(_enqueue_unless_pending, scope=scope, mark=pending[scope])
        else:
            RECOMPUTES.after_commit(_enqueue_recompute, scope=scope)


# The task that brings a rating scope up to date (league.tasks). A stale scope is the row
# saying what to send; the reconciler sends every stale scope again without asking the broker,
# so its tasks need no id of their own (and two of a scope may be on their way at once).
RATINGS_RECOMPUTE_TASK = "league.tasks.ratings_recompute_task"
RECOMPUTES = queue.Work(RATINGS_RECOMPUTE_TASK)


def _enqueue_recompute(scope: str) -> bool:
    """Send a scope's recompute task; a broker that is down is logged, the scope stays stale
    and ratings_reconcile sends it later."""
    return bool(RECOMPUTES.send([(scope, (scope,), {})]))


def _enqueue_unless_pending(scope: str, mark: int) -> None:
    """Send the scope's recompute unless the stale row ``mark`` a writer saw is still there.
    If it is, the run that deletes it either started after the writer committed (and reads the
    writer's row) or commits after it (and its ``_enqueue_if_stale`` sees that row). If it is
    gone, that run may have looked for rows left before the writer committed: send (at worst a
    second task, which finds nothing to do or the scope held)."""
    if not RatingStale.objects.filter(pk=mark).exists():
        _enqueue_recompute(scope)


def ratings_reconcile() -> int:
    """Enqueue a recompute of every stale scope (run periodically by celery beat): catches up
    after a lost task or a broker outage. Returns how many were enqueued."""
    return len(RECOMPUTES.send((scope, (scope,), {})
                               for scope in sorted(RatingJob.stale_scopes())))


@transaction.atomic
def ratings_request(*, scope: str) -> None:
    """Recompute a scope's ratings from its first deal (after a lost task, or on demand)."""
    job = RatingJob.objects.select_for_update(no_key=True).filter(scope=scope).first()
    if job is None:
        raise LeagueError(f"no ratings called {scope!r}")
    job.dirty_from = 0
    job.save(update_fields=["dirty_from"])
    RECOMPUTES.after_commit(_enqueue_recompute, scope=scope)


def ratings_recompute(*, scope: str) -> int:
    """Bring a scope's ratings up to date from its earliest stale deal (from scratch when that
    is 0, ratings_request), so that they equal a replay of the deals that exist; returns the
    number of deals replayed (0 when there was nothing to do, or another run holds the scope:
    that one sends a task again for what was marked stale while it ran)."""
    with transaction.atomic():
        replayed = _recompute(scope)
        if replayed is not None:
            RECOMPUTES.after_commit(_enqueue_if_stale, scope=scope)
    return replayed or 0


def _enqueue_if_stale(scope: str) -> None:
    """Send the scope's recompute again for deals marked stale while the last one ran."""
    if RatingJob.stale_scopes(scope):
        _enqueue_recompute(scope)


def _recompute(scope: str) -> int | None:
    """Replay a scope from its earliest stale deal, holding its RatingJob row (league's lock
    order: a recompute takes no lock a writer of deals holds, and a writer none it holds); None
    when another run holds the row."""
    if connection.vendor == "postgresql":
        # Ratings are derived data: if a crash loses this commit it loses the cleared marker
        # with it, so the scope stays stale and is recomputed; no need to wait for the disk.
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
    job = (RatingJob.objects.select_for_update(no_key=True, skip_locked=True)
           .filter(scope=scope).first())
    if job is None:
        if RatingJob.objects.filter(scope=scope).exists():
            return None  # another run holds it
        mark = RatingStale.objects.filter(scope=scope).first()
        if mark is None:
            return 0
        # The scope's first recompute: a season's job is made with the season, the all-time
        # one here, so that no writer of deals ever waits on making it.
        RatingJob.objects.get_or_create(scope=scope, defaults={"season_id": mark.season_id})
        job = RatingJob.objects.select_for_update(no_key=True).get(scope=scope)
    # Read after the lock: what a writer commits later is left for the next run.
    marks = dict(RatingStale.objects.filter(scope=scope).values_list("pk", "from_deal"))
    if job.dirty_from is None and not marks:
        return 0
    season_id = job.season_id
    if scope != rating_scope(None) and season_id is None:
        job.delete()  # its season is gone
        RatingStale.objects.filter(pk__in=list(marks)).delete()
        return 0
    start = min([*marks.values(), *([] if job.dirty_from is None else [job.dirty_from])])
    # A deleted deal's rows name a deal no longer there (models.RatingHistory), or, deleted
    # before, none: they are stale too.
    history = RatingHistory.objects.filter(Q(deal_id__gte=start) | Q(deal__isnull=True),
                                           season_id=season_id)
    deals = Deal.objects.filter(pk__gte=start)
    if season_id is not None:
        deals = deals.filter(game__season_id=season_id)
    orders = defaultdict(list)
    for deal_id, player_id in (Place.objects.filter(deal__in=deals)
                               .order_by("deal_id", "position")
                               .values_list("deal_id", "player_id")):
        orders[deal_id].append(player_id)
    touched = set(history.values_list("player_id", flat=True).distinct())
    touched.update(p for order in orders.values() for p in order)
    history.delete()
    before = (RatingHistory.objects.filter(season_id=season_id, player_id__in=touched,
                                           deal_id__lt=start)
              .values("player_id").annotate(last=Max("deal_id"), n=Count("id")))
    last_deal = {row["player_id"]: (row["last"], row["n"]) for row in before}
    state = {}
    for row in RatingHistory.objects.filter(
            season_id=season_id, player_id__in=list(last_deal),
            deal_id__in={d for d, _ in last_deal.values()}):
        if last_deal[row.player_id][0] == row.deal_id:
            state[row.player_id] = (row.mu, row.sigma, last_deal[row.player_id][1])
    rows, state = replay([(d, orders[d]) for d in sorted(orders)], state)
    RatingHistory.objects.bulk_create(
        RatingHistory(player_id=p, season_id=season_id, deal_id=d, mu=mu, sigma=sigma,
                      ordinal=o) for d, p, mu, sigma, o in rows)
    ratings = Rating.objects.filter(season_id=season_id)
    if start > 0:
        ratings = ratings.filter(player_id__in=touched)
    ratings.delete()  # a rebuild from scratch (start 0) replaces every rating of the scope
    Rating.objects.bulk_create(
        Rating(player_id=p, season_id=season_id, mu=mu, sigma=sigma,
               ordinal=ordinal(mu, sigma), deals=n)
        for p, (mu, sigma, n) in state.items() if p in touched)
    RatingStale.objects.filter(pk__in=list(marks)).delete()
    job.dirty_from = None
    job.runs += 1
    job.save(update_fields=["dirty_from", "runs"])
    return len(orders)
