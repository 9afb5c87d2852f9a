"""A tournament game is stored as the engine played and scored it (issue #17): one transcript,
the engine's totals and winners, no per-deal rescoring."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay.engine.checker import check
from gameplay.engine.scoring import ScoreSheet
from league.models import Deal, Game
from league.rules import deal_dealer, scoring_of
from tests.tournaments.helpers import small_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def played(tournament, key):
    tournament.tables = [services._tables_of_round(tournament, 0)]
    seated, result = services.tournament_game_play(tournament=tournament, key=key)
    return seated, result


def store(tournament, key):
    seated, result = played(tournament, key)
    stored = services.tournament_game_store(tournament=tournament, key=key, seated=seated,
                                            result=result)
    return stored, result


def test_stored_totals_and_winners_are_what_a_score_sheet_makes_of_the_stored_deals():
    tournament = small_tournament(scoring={"system": "penalty", "limit": 6}, seats=4)
    for number in range(3):
        stored, result = store(tournament, (0, 0, number))
        game = Game.objects.get(pk=stored.game_id)
        seats = list(game.seats.order_by("number"))
        deals = list(game.deal_set.prefetch_related("places").order_by("number"))
        assert len(deals) == len(result.finishing_orders) >= 2

        sheet = ScoreSheet(scoring_of(tournament.season))
        for deal in deals:
            sheet.add([p.player_id for p in sorted(deal.places.all(), key=lambda p: p.position)])
        assert sheet.finished and game.status == Game.FINISHED
        assert {s.player_id: s.points for s in seats} == sheet.totals
        assert {s.player_id for s in seats if s.is_winner} == set(sheet.winners)
        for seat in seats:
            places = [p for d in deals for p in d.places.all() if p.player_id == seat.player_id]
            assert seat.deals == len(places)
            assert seat.position_sum == sum(p.position for p in places)
            assert seat.presidents == sum(p.role == "president" for p in places)
            assert seat.scums == sum(p.role == "scum" for p in places)
        # Each deal's dealer by the league's rule for recorded deals (the engine's).
        for previous, deal in zip([None, *deals], deals, strict=False):
            assert deal.dealer == deal_dealer(game, seats, deal.number, previous)


def test_a_tournament_game_stores_its_transcript_once():
    tournament = small_tournament(scoring={"system": "fixed-rounds", "deals": 3})
    stored, result = store(tournament, (0, 0, 0))

    verdict = check(stored.transcript)[1]
    assert verdict["valid"] and len(verdict["deals"]) == 3
    assert not Deal.objects.filter(game=stored.game, transcript__isnull=False).exists()
    # The transcript and the stored rows tell the same game.
    players = list(stored.game.seats.order_by("number").values_list("player_id", flat=True))
    for deal, checked in zip(stored.game.deal_set.order_by("number"), verdict["deals"],
                             strict=True):
        assert list(deal.places.order_by("position").values_list("player_id", flat=True)) == \
            [players[s] for s in checked["finishing_order"]]
    assert [s.points for s in stored.game.seats.order_by("number")] == \
        verdict["scores"]["totals"]


def test_storing_a_game_costs_the_same_queries_whatever_its_length():
    queries = {}
    for deals in (1, 20):
        tournament = small_tournament(f"{deals} deals", seats=4,
                                      scoring={"system": "fixed-rounds", "deals": deals})
        store(tournament, (0, 0, 0))  # the first game also creates the all-time rating job
        seated, result = played(tournament, (0, 0, 1))
        with CaptureQueriesContext(connection) as captured:
            services.tournament_game_store(tournament=tournament, key=(0, 0, 1), seated=seated,
                                           result=result)
        assert Deal.objects.filter(game__season=tournament.season).count() == 2 * deals
        queries[deals] = len(captured.captured_queries)

    assert queries[20] == queries[1] <= 30
