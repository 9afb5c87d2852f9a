"""Points against role par from finishing orders (issue #31, "Where club players see it,
without hands"): a player's points against par are, summed over their deals, the deal's points
less its role par, measured from the table (gameplay.runner.role_par.over_par); a player who
climbs from Scum is credited, a President who coasts is not; a season whose options are not a
preset as it stands has no role par."""

import pytest

from gameplay.engine.options import preset
from gameplay.engine.roles import Role
from gameplay.engine.scoring import Scoring, deal_points
from gameplay.runner import role_par
from league import par, services
from league.models import Deal
from tests.league.factories import PlayerFactory, make_game, make_season, seated_ids

pytestmark = pytest.mark.django_db

PRESIDENTS_DECK = {"preset": "presidents-deck", "scoring_system": "fixed-rounds",
                   "scoring_deals": 10}


def played(orders, **season):
    """A game of four at a season (presidents-deck, fixed rounds by default) with deals of
    these finishing orders (indexes into its seats): the game and its player ids by seat."""
    game = make_game(season=make_season(**(season or PRESIDENTS_DECK)), players=4)
    ids = seated_ids(game)
    for order in orders:
        services.deal_record(game=game, finishing_order=[ids[i] for i in order], transcript=None)
    return game, ids


def test_points_against_par_are_each_deals_points_less_role_par_summed():
    """Issue #31: points against par = points − role par per deal (from the table), summed;
    the starting role is the deal before's finishing role and the seat counts from the
    dealer."""
    orders = [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]]
    game, ids = played(orders)
    options = preset("presidents-deck")
    scoring = Scoring.from_dict(game.season.scoring)
    expected = dict.fromkeys(ids, 0.0)
    previous = None
    for order, deal in zip(orders, Deal.objects.filter(game=game).order_by("number"),
                           strict=True):
        points = deal_points(scoring, order)
        over = role_par.over_par(options, 4, "fixed-rounds", deal.dealer, previous,
                                 [points[seat] for seat in range(4)])
        for seat, figure in enumerate(over):
            expected[ids[seat]] += figure
        previous = order

    pars = par.season_pars(game.season)

    assert {p: pars.get(p).over for p in ids} == pytest.approx(expected)
    assert all(pars.get(p).deals == 3 for p in ids)
    assert sum(pars.get(p).over for p in ids) == pytest.approx(0)


def test_a_player_who_climbs_from_scum_is_credited_a_president_who_coasts_is_not():
    """Issue #31: the same finish is worth more against par from Scum than from President.
    Deal 1 makes seat 0 President and seat 3 Turd (presidents-deck's Scum); in one game the
    Turd goes out first in deal 2, in the other the President does."""
    first, first_ids = played([[0, 1, 2, 3]])
    climb, climb_ids = played([[0, 1, 2, 3], [3, 0, 1, 2]])
    coast, coast_ids = played([[0, 1, 2, 3], [0, 3, 1, 2]])
    deal_1 = par.season_pars(first.season)
    climber = par.season_pars(climb.season).get(climb_ids[3])
    president = par.season_pars(coast.season).get(coast_ids[0])
    climber_1, president_1 = deal_1.get(first_ids[3]), deal_1.get(first_ids[0])

    # Both went out first in deal 2: the same points over the table's mean (2 − 3/4)...
    assert climber.points - climber_1.points == pytest.approx(1.25)
    assert president.points - president_1.points == pytest.approx(1.25)
    # ...but the President's role was worth more than the table's, the Turd's less, so the
    # climb earns more against par than the coast, by the roles' difference in role par.
    assert president.luck - president_1.luck > 0 > climber.luck - climber_1.luck
    climbed, coasted = climber.over - climber_1.over, president.over - president_1.over
    assert climbed - coasted == pytest.approx(
        (president.luck - president_1.luck) - (climber.luck - climber_1.luck))
    assert climbed > 1.25 > coasted
    assert climber.words.startswith(f"+{climber.over:.1f} over par: started as Turd once and "
                                    "still finished first once")


def test_a_president_who_finishes_low_is_below_par_and_told_so():
    game, ids = played([[0, 1, 2, 3], [1, 2, 3, 0]])
    president = par.season_pars(game.season).get(ids[0])

    assert president.over < 0
    assert president.words == (f"{-president.over:.1f} under par: started as President once "
                               "and finished fourth once")


def test_under_penalty_scoring_fewer_points_than_par_is_better():
    game, ids = played([[0, 1, 2, 3], [3, 0, 1, 2]], preset="presidents-deck",
                       scoring_system="penalty")
    climber = par.season_pars(game.season).get(ids[3])

    assert climber.over < 0 < climber.better
    assert "under par: started as Turd once and still finished first once" in climber.words


def test_a_season_whose_options_change_its_preset_has_no_role_par_and_says_why():
    changed = {"pass_is_final": not preset("classic").pass_is_final}
    game, ids = played([[0, 1, 2, 3]], preset="classic", options=changed,
                       scoring_system="fixed-rounds", scoring_deals=5)

    pars = par.season_pars(game.season)

    assert pars.players == {}
    assert "change options of the classic preset, so it has no role par" in pars.why


def test_a_joiner_starts_as_a_citizen_as_the_rules_shift_the_ranking():
    """Starting roles after a seat change are the ranking the exchange used (RULES.md "Common
    to all"; the engine's rank_shift): a joiner starts as a Citizen, a table of five."""
    game, ids = played([[0, 1, 2, 3]])
    joiner = PlayerFactory(clubs=[game.season.club])
    ranking = services.seat_change_apply(game=game, joining=[joiner])
    services.deal_record(game=game, finishing_order=[joiner.pk, *ids], transcript=None)

    pars = par.season_pars(game.season)

    assert {p: dict(pars.get(p).starts) for p in [*ids, joiner.pk]} == {
        p: {role: 1} for p, role in ranking}
    assert pars.get(joiner.pk).starts == {Role.CITIZEN: 1}
    assert pars.get(joiner.pk).over > 0  # first out from a Citizen's start


def test_the_worked_example_adds_up_to_zero_and_credits_the_turd():
    seats = {seat.name: seat for seat in par.worked_example()}

    assert sum(seat.over for seat in seats.values()) == pytest.approx(0)
    assert seats["West"].role == "Turd" and seats["West"].over > 0
    assert seats["North"].role == "President" and seats["North"].over < 0


def test_a_recap_tells_the_roles_once_when_they_are_also_what_earned_the_figure():
    """A Turd who stays last is below par with no climb or fall to tell: the recap names the
    roles started once, then the figure."""
    game, ids = played([[0, 1, 2, 3], [0, 1, 2, 3]])
    stayed = par.season_pars(game.season).get(ids[3])

    assert stayed.over < 0 and stayed.because == stayed.started
    assert stayed.recap == (
        "2 deals, started as Turd once, and once on a game's first deal (no roles): unlucky "
        f"roles, worth {-stayed.luck:.1f} points less than the table's mean. Against them: "
        f"{-stayed.over:.1f} under par.")


@pytest.mark.parametrize(("over", "shown"), [(0.6, "+0.6"), (-0.44, "-0.4"), (0.04, "0.0"),
                                             (-0.04, "0.0"), (0.0, "0.0")])
def test_a_sum_that_rounds_to_nothing_has_no_sign(over, shown):
    """Tonight's screen showed "-0.0" and "+0.0" beside players on par."""
    figure = par.PlayerPar(player_id=1, names={}, fewer_points_win=False, over=over)
    assert figure.signed == shown
