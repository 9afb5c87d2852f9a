"""A stored tournament game replays deal by deal from its one transcript, its league game page
links each deal's replay, and its season's transcripts export lists each game's transcript."""

import csv
import io
import json

import pytest
from django.urls import reverse

from bot_games import selectors as bot_games
from gameplay.engine.checker import VALID, check
from league import replays
from league.errors import LeagueError
from outside_bots import services as outside_bots
from tests.tournaments.helpers import ENTRANTS, small_tournament
from tournaments import services
from tournaments.models import TournamentGame

pytestmark = pytest.mark.django_db

DEALS = 4
# Presets whose deals from the second on start from the roles of the deal before (their
# exchanges, RULES.md "Exchange"), and classic, which exchanges nothing.
EXCHANGING = {"friday": True, "school-scum": True, "presidents-deck": True, "classic": False}


def stored_game(tournament, key=(0, 0, 0)):
    tournament.tables = [services._tables_of_round(tournament, 0)]
    seated, result = services.tournament_game_play(tournament=tournament, key=key)
    return services.tournament_game_store(tournament=tournament, key=key, seated=seated,
                                          result=result)


def replay_data(page) -> dict:
    return json.loads(page.text.split('id="replay-data" type="application/json">')[1]
                      .split("</script>")[0])


def replay_url(stored, number):
    return reverse("gameplay:deal_replay", args=[stored.pk, number])


@pytest.mark.parametrize("preset", EXCHANGING)
def test_every_deal_of_a_stored_tournament_game_replays(client, preset):
    tournament = small_tournament(seats=4, preset=preset,
                                  scoring={"system": "fixed-rounds", "deals": DEALS})
    stored = stored_game(tournament)
    seats = list(stored.game.seats.order_by("number").select_related("player"))
    names = [s.player.name for s in seats]
    whole = replays.transcript_steps(stored.bot_game.transcript, names=names)
    bot_games.replay_marked(whole, game_id=stored.bot_game_id, log_seats=set())
    whole = whole["steps"]
    deals = list(stored.game.deal_set.order_by("number"))
    assert len(deals) == len(stored.bot_game.transcript["deals"]) == DEALS

    for deal, recorded in zip(deals, stored.bot_game.transcript["deals"], strict=True):
        page = client.get(replay_url(stored, deal.number))

        assert page.status_code == 200
        assert f"deal {deal.number} of {DEALS}" in page.text
        steps = replay_data(page)["steps"]
        assert {s["deal"] for s in steps} == {deal.number}
        moves = [s for s in steps if s["action"] in ("play", "pass", "blind")]
        assert len(steps) >= len(moves) == len(recorded["moves"])
        exchanges = [s for s in steps if s["action"] == "exchange"]
        assert len(exchanges) == len(recorded.get("exchanges", []))
        assert (len(exchanges) > 0) == (EXCHANGING[preset] and deal.number > 1)
        # The deal ends as it was stored, and shows as the whole game's replay shows it.
        places = list(deal.places.order_by("position").values_list("player__name", flat=True))
        assert steps[-1]["out"] == places
        assert [names[s] for s in steps[-1]["out_seats"]] == places
        assert steps == [s for s in whole if s["deal"] == deal.number]
        # each seat's decisions marked at their steps with their times, as in the whole game's
        decided = [m for s in steps for m in s.get("decided", [])]
        assert {m["seat"] for m in decided} == set(range(4))
        assert all(m["ms"] >= 0 and m["logs"] == [] for m in decided)


def test_the_replay_links_the_game_and_the_deals_either_side(client):
    tournament = small_tournament(seats=4, scoring={"system": "fixed-rounds", "deals": 3})
    stored = stored_game(tournament)
    game_url = reverse("league:game_detail", args=[stored.game_id])

    first, middle, last = (client.get(replay_url(stored, n)).text for n in (1, 2, 3))

    assert all(f'href="{game_url}"' in page for page in (first, middle, last))
    assert 'rel="prev"' not in first and f'href="{replay_url(stored, 2)}" rel="next"' in first
    assert f'href="{replay_url(stored, 1)}" rel="prev"' in middle
    assert f'href="{replay_url(stored, 3)}" rel="next"' in middle
    assert 'rel="next"' not in last


def test_the_game_page_links_each_deal_to_its_replay(client):
    tournament = small_tournament(seats=4, scoring={"system": "fixed-rounds", "deals": DEALS})
    stored = stored_game(tournament)

    page = client.get(reverse("league:game_detail", args=[stored.game_id])).text

    for number in range(1, DEALS + 1):
        assert f'<a href="{replay_url(stored, number)}">replay</a>' in page
    assert page.count(">replay</a>") == DEALS


def test_a_deal_the_game_does_not_have_is_a_404_that_says_so(client):
    tournament = small_tournament(seats=4, scoring={"system": "fixed-rounds", "deals": 3})
    stored = stored_game(tournament)

    for number in (0, 4):
        page = client.get(replay_url(stored, number))
        assert page.status_code == 404
        assert (f"Bot club: Cup, game {stored.game.number} has 3 deals: there is no deal "
                f"{number} to replay." in page.content.decode())  # not "Tournament: Cup"
    missing = TournamentGame.objects.order_by("-pk").first().pk + 1
    page = client.get(reverse("gameplay:deal_replay", args=[missing, 1]))
    assert page.status_code == 404
    assert f"There is no tournament game {missing}." in page.content.decode()
    # titled as what it is, with no log-in that could not help (a walk-through found both)
    assert "<title>Not found" in page.content.decode() and "Log in</a></p>" not in (
        page.content.decode())


def test_the_season_export_lists_each_games_whole_transcript(client):
    tournament = small_tournament(seats=3, scoring={"system": "fixed-rounds", "deals": 2})
    keys = [(0, 0, 0), (0, 0, 1), (0, 1, 0)]
    stored = {key: stored_game(tournament, key) for key in reversed(keys)}

    response = client.get(reverse("league:export_transcripts", args=[tournament.season.pk]))

    assert response.status_code == 200 and response.streaming
    lines = b"".join(response.streaming_content).decode().splitlines()
    records = [json.loads(line) for line in lines]
    # In the key's order, each part counted from 1 as the league's games and deals are (a
    # walk-through read round 0, table 0, game 0 beside game 1).
    assert [(r["round"], r["table"], r["number"]) for r in records] == [
        (1, 1, 1), (1, 1, 2), (1, 2, 1)]
    for record in records:
        game = stored[(record["round"] - 1, record["table"] - 1, record["number"] - 1)]
        assert record["game"] == game.game.number
        assert record["transcript"] == game.bot_game.transcript
        status, verdict = check(record["transcript"])
        assert status == VALID and len(verdict["deals"]) == 2


def test_a_tournament_season_with_no_game_yet_says_so(client):
    tournament = small_tournament()

    response = client.get(reverse("league:export_transcripts", args=[tournament.season.pk]))

    assert response.status_code == 404
    assert response.content.decode() == (f"{tournament.season} has no transcripts: its "
                                         "tournament has stored no game yet.\n")


def test_the_tournament_page_links_the_transcripts_export(client):
    tournament = small_tournament()

    page = client.get(tournament.get_absolute_url()).text

    assert f'href="{reverse("league:export_transcripts", args=[tournament.season.pk])}"' in page


@pytest.fixture
def faulty_game(settings):
    """A stored three-deal game whose outside bot "gone" faulted at every decision (its seat
    played safe moves)."""
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["127.0.0.1:9"]
    bot = outside_bots.outside_bot_create(name="gone", url="http://127.0.0.1:9/")
    tournament = small_tournament(entrants=[*ENTRANTS[:3], ("Gone", "outside:gone")], seats=4,
                                  scoring={"system": "fixed-rounds", "deals": 3})
    outside_bots.outside_bot_update(bot=bot, enabled=False)  # its seat plays safe, as faults
    stored = stored_game(tournament)
    return stored


def test_an_outside_bots_faults_link_the_replay_of_their_deal(client, faulty_game):
    stored = faulty_game
    deals = set(stored.bot_game.faults.values_list("deal", flat=True))
    assert deals == {0, 1, 2}

    page = client.get(reverse("gameplay:outside_bot", args=["gone"])).text

    for deal in deals:
        url = replay_url(stored, deal + 1)
        assert f'href="{url}"' in page
        assert client.get(url).status_code == 200
    # each game named in words counted from 1, not "Cup r0 t0 g0"
    assert ">Cup, round 1, table 1, game 1</a>" in page and "r0 t0 g0" not in page


def test_an_outside_bots_faults_link_their_decision_in_the_replay_of_their_deal(
        client, faulty_game):
    # As the ladder's faults link their step (issue #29 "a fault links to its step in the
    # replay"), through the same filter (league/templatetags/replay_links.py).
    stored = faulty_game
    faults = list(stored.bot_game.faults.order_by("number"))
    later = [f for f in faults if f.deal == 2]
    assert later and all(f.step for f in faults)

    page = client.get(reverse("gameplay:outside_bot", args=["gone"])).text

    for fault in (faults[0], later[0]):
        url = replay_url(stored, fault.deal + 1)
        assert f'href="{url}#step-{fault.step}"' in page  # the game's step, as stored
        replay = client.get(url)
        data = replay_data(replay)
        # The replay opens at the game's step less its first (league/replay.js), where the
        # fault's seat had a safe move played for it; without JavaScript, at its anchor.
        at = data["steps"][fault.step - data["first"]]
        assert {"seat": fault.seat, "safe": True}.items() <= at["decided"][0].items()
        assert f'id="step-{fault.step}"' in replay.text
    assert data["first"] > 1  # the third deal's replay starts past the game's first step


def test_a_late_deal_of_a_game_too_long_to_replay_whole_replays_alone(client, settings):
    tournament = small_tournament(seats=4, preset="friday",
                                  scoring={"system": "fixed-rounds", "deals": DEALS})
    stored = stored_game(tournament)
    steps = [2 + len(d.get("exchanges", [])) + len(d["moves"])
             for d in stored.bot_game.transcript["deals"]]
    # Room for the last deal's steps, not for the whole game's (docs/operations.md).
    settings.REPLAY_MAX_STEPS = steps[-1]
    assert sum(steps) > settings.REPLAY_MAX_STEPS
    with pytest.raises(LeagueError, match="too long to replay here"):
        replays.transcript_steps(stored.bot_game.transcript)

    page = client.get(replay_url(stored, DEALS))
    assert page.status_code == 200 and len(replay_data(page)["steps"]) == steps[-1]

    settings.REPLAY_MAX_STEPS = steps[-1] - 1
    refused = client.get(replay_url(stored, DEALS))
    assert refused.status_code == 422
    assert (f"too long to replay here: {steps[-1]:,} steps in 1 deal, over the "
            f"{steps[-1] - 1:,} shown at most") in refused.content.decode()


def test_a_tournament_games_page_is_headed_once_by_its_tournament_linked(client):
    """A walk-through read "Demo Club: Tournament: Spring cup, game 1", the tournament not
    linked (its season is named "Tournament: Spring cup"); the replay likewise."""
    tournament = small_tournament(name="Spring cup", seats=4,
                                  scoring={"system": "fixed-rounds", "deals": 2})
    stored = stored_game(tournament)
    link = f'<bdi><a href="{tournament.get_absolute_url()}">Spring cup</a></bdi>'

    page = client.get(reverse("league:game_detail", args=[stored.game_id])).text
    replay = client.get(replay_url(stored, 2)).text

    heading = page.split("<h1>")[1].split("</h1>")[0]
    assert heading == f"<bdi>Bot club</bdi>: {link}, game {stored.game.number}"
    assert "<title>Bot club: Spring cup, game 1 – President League</title>" in page
    assert page.count("Tournament:") == 0
    heading = replay.split("<h1>")[1].split("</h1>")[0]
    assert heading == f"Replay: <bdi>Bot club</bdi>: {link}, game {stored.game.number}, deal 2 of 2"
    assert "Tournament:" not in replay


def test_a_bot_named_like_a_formula_is_quoted_in_the_season_exports(client):
    """OWASP "CSV Injection": a bot player's name a spreadsheet would run stays text."""
    names = ['=HYPERLINK("http://x","y")', "+1", "@SUM(A1)"]
    tournament = small_tournament(entrants=[(n, "random") for n in names], seats=3,
                                  games_per_table=1)
    stored_game(tournament)

    for export in ("league:export_standings", "league:export_results"):
        text = b"".join(client.get(reverse(export, args=[tournament.season.pk]))
                        .streaming_content).decode()
        assert {row["player"] for row in csv.DictReader(io.StringIO(text))} == {
            "'" + n for n in names}, export
