"""A scoring system is one registered object (gameplay.engine.scoring) that the season form,
the standings, time called and the API ask: a toy system registered here alone, with a
parameter no other system takes, is offered, scored, ranked and called like the real ones.
An unknown system is an error, never another system's rules."""

import pytest
from django.urls import reverse

from gameplay.engine.errors import OptionsError
from gameplay.engine.scoring import Parameter, Scoring, ScoringSystem, register, unregister
from league import selectors, services
from league.errors import LeagueError
from league.models import Season
from tests.league.factories import ClubFactory, UserFactory, make_game, make_season, seated_ids

pytestmark = pytest.mark.django_db


class StrokePlay(ScoringSystem):
    """Each deal a player scores their finishing position; after the holes, fewest wins."""

    name = "stroke-play"
    description = "Stroke play: each deal scores your finishing place; fewest after the holes wins."
    time_called_rule = "the fewest strokes so far win; equal totals share the win"
    parameters = (Parameter("holes", "Holes", "Holes (stroke play)", "{} holes", default=3,
                            help="The number of deals played (3 if not set)."),)
    fewer_points_win = True

    def deal_points(self, finishing_order):
        return {p: place for place, p in enumerate(finishing_order, start=1)}

    def decided(self, sheet):
        return self.called(sheet) if sheet.deals >= sheet.scoring.value("holes") else None

    def called(self, sheet):
        fewest = min(sheet.totals.values())
        return [p for p, t in sheet.totals.items() if t == fewest]


@pytest.fixture
def stroke_play():
    system = register(StrokePlay())
    yield system
    unregister(system.name)


def test_the_season_form_offers_a_registered_system_with_its_parameter(client, stroke_play):
    club = ClubFactory()
    organiser = UserFactory(username="toy-organiser", is_staff=False)
    club.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("league:organise_season_create", args=[club.pk])

    page = client.get(url).content.decode()
    created = client.post(url, {"name": "Links", "starts_on": "2026-03-01", "preset": "classic",
                                "shown_preset": "classic", "scoring_system": "stroke-play",
                                "scoring_holes": "2", "scoring_limit": "9"})

    assert 'value="stroke-play"' in page and stroke_play.description in page
    assert 'data-parameter-row="scoring_holes"' in page and "Holes (stroke play)" in page
    assert created.status_code == 302, created.content.decode()[:2000]
    # the other system's parameter, left filled, is not kept
    assert Season.objects.get(name="Links").scoring == {"system": "stroke-play", "holes": 2}


def test_standings_rank_fewer_points_first_when_the_system_says_so(stroke_play):
    season = make_season(scoring={"system": "stroke-play", "holes": 2})
    first = make_game(season=season)
    a, b, c, d = seated_ids(first)
    for _ in range(2):
        services.deal_record(game=first, finishing_order=[a, b, c, d])  # a wins on 2
    second = make_game(season=season, players=[s.player for s in first.seats.order_by("number")])
    services.deal_record(game=second, finishing_order=[d, c, b, a])
    services.game_time_called(game=second)  # d wins on 1

    rows = selectors.season_standings(season=season)

    # a and d won once each: a's 6 strokes rank above d's 9, then b's 7 above c's 8
    assert [(r["player_id"], r["wins"], r["points"]) for r in rows] == [
        (a, 1, 6), (d, 1, 9), (b, 0, 7), (c, 0, 8)]
    assert "points: fewer under penalty or stroke-play scoring, more otherwise" in \
        selectors.tie_break_words()


def test_time_called_uses_the_systems_rule_and_words(client, stroke_play):
    game = make_game(season_kwargs={"scoring": {"system": "stroke-play", "holes": 5}})
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[b, a, c, d])
    organiser = UserFactory(username="toy-caller")
    game.season.club.organisers.add(organiser)
    client.force_login(organiser)

    confirm = client.get(reverse("league:game_time_called", args=[game.pk])).content.decode()
    services.game_time_called(game=game, by=organiser)
    detail = client.get(reverse("league:game_detail", args=[game.pk])).content.decode()

    assert "Under stroke-play scoring, the fewest strokes so far win" in confirm
    assert list(game.seats.filter(is_winner=True).values_list("player_id", flat=True)) == [b]
    assert stroke_play.time_called_rule in detail


def test_an_unknown_system_is_an_error_never_another_systems_rules():
    with pytest.raises(OptionsError, match="unknown scoring system 'croquet'; systems are "
                                           "penalty, first-to-eleven, fixed-rounds"):
        Scoring("croquet", deals=3)
    game = make_game()
    Season.objects.filter(pk=game.season_id).update(scoring={"system": "croquet", "deals": 3})
    game.refresh_from_db()

    with pytest.raises(LeagueError, match="season scoring: unknown scoring system 'croquet'"):
        services.deal_record(game=game, finishing_order=seated_ids(game))
    assert not game.deal_set.exists()


# A refusal names the scoring field it is about (OptionsError.field), not in words a form or
# the API would have to read: each is shown at its own field.


@pytest.mark.parametrize(("scoring", "field"), [
    ({"system": "penalty", "limit": 0}, "limit"),
    ({"system": "penalty", "deals": 101}, "deals"),
    ({"system": "first-to-eleven", "target": 101}, "target"),
    ({"system": "fixed-rounds"}, "deals"),
    ({"system": "penalty", "target": 5}, "target"),
    ({"system": "croquet"}, "system"),
    ({"limit": 4}, "system"),
])
def test_the_engines_scoring_refusal_names_its_field(scoring, field):
    with pytest.raises(OptionsError) as refusal:
        Scoring.from_dict(scoring)
    assert refusal.value.field == field


class Darts(StrokePlay):
    """Stroke play whose one parameter must be set and is called, in words, otherwise."""

    name = "darts"
    parameters = (Parameter("legs", "Match length", "Legs (darts)", "{} legs", required=True,
                            help="The number of deals played."),)


@pytest.fixture
def darts():
    system = register(Darts())
    yield system
    unregister(system.name)


def test_the_season_form_shows_a_refusal_at_its_parameter_whatever_its_words(client, darts):
    club = ClubFactory()
    organiser = UserFactory(username="darts-organiser", is_staff=False)
    club.organisers.add(organiser)
    client.force_login(organiser)

    refused = client.post(reverse("league:organise_season_create", args=[club.pk]), {
        "name": "Oche", "starts_on": "2026-03-01", "preset": "classic",
        "shown_preset": "classic", "scoring_system": "darts", "scoring_legs": ""})

    assert refused.status_code == 400
    form = refused.context["form"]
    assert form.errors == {"scoring_legs": ["darts needs a match length"]}
    assert not Season.objects.filter(name="Oche").exists()
