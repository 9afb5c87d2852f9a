"""The end of the night (issue #28): one action calls time on every open table, each decided by
its own scoring system's rule for an unfinished game (docs/league.md "Time called"), after one
preview of all the winners; a table that played no deal is cancelled."""

import pytest
from django.urls import reverse

from league import nights, rounds, services
from league.errors import LeagueError
from league.models import Game
from tests.league.factories import PlayerFactory, UserFactory, make_season, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    season = make_season(scoring_system="first-to-eleven")
    people = [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(12)]
    games = nights.night_confirm(season=season, tables=[
        (people[:4], 0), (people[4:8], 0), (people[8:], 0)])
    return season, games


def test_the_preview_names_each_tables_winners_and_writes_nothing(night):
    season, (one, two, three) = night
    a, b, c, d = seated_ids(one)
    services.deal_record(game=one, finishing_order=[a, b, c, d])
    services.deal_record(game=one, finishing_order=[b, a, c, d])  # first to eleven: b leads
    services.deal_record(game=two, finishing_order=seated_ids(two))
    preview = nights.night_end_preview(season=season, night=rounds.night_of())
    assert [(t.round, t.table, t.game.number, t.cancelled) for t in preview] == [
        (1, 1, 1, False), (1, 2, 2, False), (1, 3, 3, True)]
    assert preview[0].winners == ["P1"]
    assert set(Game.objects.values_list("status", flat=True)) == {Game.OPEN}

    ended = nights.night_end(season=season, night=rounds.night_of(), by=UserFactory())
    assert [(t.winners, t.cancelled) for t in ended] == [(t.winners, t.cancelled)
                                                          for t in preview]
    statuses = dict(Game.objects.values_list("number", "status"))
    assert statuses == {1: Game.FINISHED, 2: Game.FINISHED, 3: Game.CANCELLED}
    assert nights.night_board(season, rounds.night_of()).done
    with pytest.raises(LeagueError, match="no table is playing"):
        nights.night_end(season=season, night=rounds.night_of())


def test_the_night_page_offers_the_end_and_ends_after_the_preview(client, night):
    season, (one, two, three) = night
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    services.deal_record(game=one, finishing_order=seated_ids(one))
    end = reverse("league:night_end", args=[season.pk])
    assert f'href="{end}"' in client.get(reverse("league:night", args=[season.pk])).text
    preview = client.get(end)
    assert "End the night?" in preview.text and "no deal played: cancelled" in preview.text
    assert Game.objects.filter(status=Game.OPEN).count() == 3
    answer = client.post(end)
    assert answer["Location"] == reverse("league:tonight", args=[season.pk])
    assert not Game.objects.filter(status=Game.OPEN).exists()
    client.force_login(UserFactory(username="stranger"))
    assert client.get(end).status_code == 403


@pytest.mark.parametrize(("played", "said"), [
    (1, "The night has ended: time called on 1 table; 2 tables with no deal were cancelled."),
    (2, "The night has ended: time called on 2 tables; 1 table with no deal was cancelled."),
    (3, "The night has ended: time called on 3 tables."),
    (0, "The night has ended: 3 tables with no deal were cancelled."),
])
def test_the_end_of_the_night_counts_its_tables_in_words(client, night, played, said):
    season, games = night
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    for game in games[:played]:
        services.deal_record(game=game, finishing_order=seated_ids(game))
    page = client.post(reverse("league:night_end", args=[season.pk]), follow=True)
    assert said in page.text and "table(s)" not in page.text


def _night_page(client, season):
    return client.get(reverse("league:night", args=[season.pk])).text


def test_the_night_page_says_the_night_has_ended_and_offers_playing_on_only_if_asked(client,
                                                                                  night):
    """After "End of the night" the page still asked "Who is here for round 2?" as if the
    night went on, with no word that every table had ended. It says the night has ended,
    links its results, tells how a result is still corrected, and keeps planning another
    round behind "Play on" (the night is the evening's games: a round confirmed after the end
    is tonight's next round, and the night goes on)."""
    season, (one, two, three) = night
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    services.deal_record(game=one, finishing_order=seated_ids(one))
    services.deal_record(game=two, finishing_order=seated_ids(two))
    assert "The night has ended" not in _night_page(client, season)

    client.post(reverse("league:night_end", args=[season.pk]))
    page = _night_page(client, season)

    assert '<h2 id="ended-h">The night has ended</h2>' in page
    assert "Time was called on every table at " in page
    assert f'href="{reverse("league:tonight", args=[season.pk])}">The night\'s results' in page
    assert reverse("league:night_recap", args=[season.pk]) in page
    assert f'href="{reverse("league:game_enter", args=[one.pk])}">Correct or reopen' in page
    play_on = page.index('<details class="play-on"')
    assert page.index("<summary>Play on after all: plan round 2</summary>") > play_on
    assert page.index('<h2 id="present-h">Who is here for round 2?</h2>') > play_on


def test_a_round_that_finished_by_itself_is_not_the_end_of_the_night(client, night):
    """Every table finishing by its own rule between rounds is not the end: the next round is
    asked for as before. A game reopened after the end goes on until its time is called again;
    a round played after all takes the night up again."""
    season, (one, two, three) = night
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    for game in (one, two, three):
        services.game_time_called(
            game=services.deal_record(game=game, finishing_order=seated_ids(game)).game)
    page = _night_page(client, season)
    assert "The night has ended" not in page and '<details class="play-on"' not in page
    assert '<h2 id="present-h">Who is here for round 2?</h2>' in page

    services.game_reopen(game=one)
    services.deal_record(game=one, finishing_order=seated_ids(one))
    client.post(reverse("league:night_end", args=[season.pk]))
    assert "The night has ended" in _night_page(client, season)
    services.game_reopen(game=one)
    assert "The night has ended" not in _night_page(client, season)
    services.game_time_called(game=one)  # a result corrected: the night is still over
    assert "The night has ended" in _night_page(client, season)
    nights.night_confirm(season=season, tables=[([s.player for s in one.seats.all()], 0)])
    assert "The night has ended" not in _night_page(client, season)  # played on after all


def test_the_night_ended_lands_on_its_results_with_a_way_back_to_the_night(client, night):
    """"End of the night" lands on tonight's standings, which had no way back to the club
    night's page for the organiser; it links it for the club's organisers only (the screen
    in the room shows no organiser's links)."""
    season, (one, *_) = night
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    services.deal_record(game=one, finishing_order=seated_ids(one))
    back = f'href="{reverse("league:night", args=[season.pk])}"'

    results = client.post(reverse("league:night_end", args=[season.pk]), follow=True)

    assert results.redirect_chain[-1][0] == reverse("league:tonight", args=[season.pk])
    assert back in results.text
    client.logout()
    assert back not in client.get(reverse("league:tonight", args=[season.pk])).text
