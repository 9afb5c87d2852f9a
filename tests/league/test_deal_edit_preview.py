"""services.deal_edit_preview: the game as deal_edit would leave it, with nothing changed."""

import pytest

from league import services
from league.errors import LeagueError
from league.models import Game
from tests.league.factories import make_game, seated_ids
from tests.league.test_deals import snapshot

pytestmark = pytest.mark.django_db


def test_the_preview_is_what_the_correction_then_makes_and_changes_nothing():
    game = make_game(season_kwargs={"scoring_limit": 20})
    a, b, c, d = seated_ids(game)
    first = services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[b, a, c, d])
    before = snapshot(game)

    preview = services.deal_edit_preview(deal=first, finishing_order=[d, c, b, a])

    assert snapshot(game) == before
    services.deal_edit(deal=first, finishing_order=[d, c, b, a])
    assert preview.number == 1
    assert [(s.player_id, s.points) for s in preview.seats] == list(
        game.seats.order_by("number").values_list("player_id", "points"))
    assert preview.finished is (Game.objects.get(pk=game.pk).status == Game.FINISHED)
    assert [(p, r.value) for p, r in preview.next_ranking] == [
        (b, "president"), (a, "vice-president"), (c, "vice-scum"), (d, "scum")]


def test_the_preview_refuses_what_the_correction_would():
    game = make_game(season_kwargs={"scoring_limit": 20})
    a, b, c, d = seated_ids(game)
    first = services.deal_record(game=game, finishing_order=[a, b, c, d])
    before = snapshot(game)

    with pytest.raises(LeagueError, match="listed twice"):
        services.deal_edit_preview(deal=first, finishing_order=[a, a, c, d])
    assert snapshot(game) == before
