"""Public pages: game sheet, player, season standings, exports and replays."""

import csv
import io
import json
import subprocess
import sys

import pytest
from django.urls import reverse

from league import services
from league.models import Deal
from tests.league.factories import ClubFactory, PlayerFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


def transcript_for(players, seed=7, preset="classic"):
    out = subprocess.run(
        [sys.executable, "-m", "gameplay.engine", "play", "--preset", preset, "--players",
         str(players), "--seed", str(seed), "--deals", "1"],
        capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_the_game_page_shows_running_totals_and_the_next_exchange(client):
    game = make_game(season_kwargs={"preset": "friday"})
    ids = seated_ids(game)
    names = dict(game.seats.values_list("player_id", "player__name"))
    services.deal_record(game=game, finishing_order=ids)
    services.deal_record(game=game, finishing_order=ids[::-1])

    page = client.get(reverse("league:game_detail", args=[game.pk]))

    assert page.status_code == 200
    text = " ".join(page.text.split())
    # Penalty scoring: 0 first, 2 last, 1 between. First out in deal 1, last in deal 2: 0, then 2.
    first_row, second_row = (row.split("</tr>")[0]
                             for row in text.split("<th scope=\"row\">")[1:3])
    assert first_row.count("<td>0</td>") == 1 and first_row.count("<td>2</td>") == 1
    assert second_row.count("<td>2</td>") == 4  # everyone on 2 after the reversed deal
    # the Scum of deal 2 gives
    assert f"<bdi>{names[ids[0]]}</bdi> gives <bdi>{names[ids[-1]]}</bdi> 2 cards" in text


def test_the_player_page_shows_positions_and_head_to_head(client):
    game = make_game(season_kwargs={"scoring_limit": 20})
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[b, a, c, d])
    services.deal_record(game=game, finishing_order=[a, c, b, d])

    page = client.get(reverse("league:player_detail", args=[a]))

    assert page.status_code == 200
    text = " ".join(page.text.split())
    b_name = game.seats.get(player_id=b).player.name
    # Against b: 3 deals together, a ahead twice, behind once.
    assert f"{b_name}</a></td><td>3</td><td>2</td><td>1</td>" in text
    assert "<tr><td>1</td><td>2</td></tr><tr><td>2</td><td>1</td></tr>" in text
    assert "<td>not yet</td></tr>" in text  # the game is still being played


def test_the_player_page_says_what_the_player_is_and_where_they_play(client):
    home, away = ClubFactory(name="Upper Wickham"), ClubFactory(name="Lower Wickham")
    person = PlayerFactory(clubs=[home, away])
    bot = PlayerFactory(kind="bot")

    text = " ".join(client.get(reverse("league:player_detail", args=[person.pk])).text.split())
    assert (f'<p id="about">A player at <a href="{reverse("league:club_detail", args=[away.pk])}">'
            f'Lower Wickham</a>, <a href="{reverse("league:club_detail", args=[home.pk])}">'
            f'Upper Wickham</a>.</p>') in text
    text = " ".join(client.get(reverse("league:player_detail", args=[bot.pk])).text.split())
    assert '<p id="about">A bot.</p>' in text


def test_the_season_page_states_tie_breaks_and_offers_sorting_and_a_local_chart(client):
    game = make_game()
    page = client.get(reverse("league:season_detail", args=[game.season.pk]))
    assert "Ranked by more wins, then points: fewer under penalty scoring" in page.text
    assert 'class="sortable"' in page.text and "/static/league/sort.js" in page.text
    assert "http://" not in page.text.replace("http://testserver", "")
    assert "https://" not in page.text


def test_the_chart_library_is_served_by_us(client):
    from django.contrib.staticfiles import finders

    path = finders.find("league/vendor/chart.umd.min.js")
    assert path and "Chart.js v4" in open(path).read(300)
    assert finders.find("league/vendor/chart.js.LICENSE.md")


def test_the_season_export_gives_standings_results_and_transcripts(client):
    game = make_game(players=4)
    ids = seated_ids(game)
    services.deal_record(game=game, finishing_order=ids)
    services.deal_record(game=game, transcript=transcript_for(4))
    season = game.season

    standings = b"".join(client.get(
        reverse("league:export_standings", args=[season.pk])).streaming_content).decode()
    results = b"".join(client.get(
        reverse("league:export_results", args=[season.pk])).streaming_content).decode()
    lines = b"".join(client.get(
        reverse("league:export_transcripts", args=[season.pk])).streaming_content).decode()

    rows = list(csv.DictReader(io.StringIO(standings)))
    assert len(rows) == 4 and rows[0]["rank"] == "1"
    assert sum(int(r["deals"]) for r in rows) == 8
    results_rows = list(csv.DictReader(io.StringIO(results)))
    assert [(r["deal"], r["position"]) for r in results_rows[:2]] == [("1", "1"), ("1", "2")]
    assert len(results_rows) == 8 and results_rows[0]["role"] == "president"
    records = [json.loads(line) for line in lines.splitlines()]
    assert len(records) == 1 and records[0]["deal"] == 2
    assert records[0]["transcript"] == Deal.objects.get(number=2).transcript


def test_a_recorded_deals_transcript_replays_step_by_step(client):
    game = make_game(players=4)
    deal = services.deal_record(game=game, transcript=transcript_for(4))

    page = client.get(reverse("league:deal_replay", args=[deal.pk]))

    assert page.status_code == 200
    data = json.loads(page.text.split('id="replay-data" type="application/json">')[1]
                      .split("</script>")[0])
    assert data["players"] == [s.player.name for s in game.seats.order_by("number")]
    steps = data["steps"]
    assert steps[0]["deal"] == 1 and steps[0]["text"].startswith("cards dealt")
    assert data["presidents"] is False
    passes = [s for s in steps if s["action"] == "pass"]
    # A pass shows on its seat until the trick ends (a trick's last pass clears the pile).
    assert passes and all(s["seat"] in s["passed"] for s in passes
                          if "trick ends: pile cleared" not in s["events"])
    assert all(not s["passed"] for s in steps if "trick ends: pile cleared" in s["events"])
    assert steps[-1]["out_seats"] and len(steps[-1]["out_seats"]) == 4
    assert sum(len(h) for h in steps[0]["hands"]) == 52
    assert steps[-1]["events"][-1] == "deal over"
    assert any("trick ends" in e for s in steps for e in s["events"])
    assert [s["text"] for s in steps].count(steps[2]["text"]) >= 1 and steps[2]["pile"]


def test_a_deal_without_transcript_says_it_cannot_be_replayed(client):
    game = make_game()
    deal = services.deal_record(game=game, finishing_order=seated_ids(game))
    page = client.get(reverse("league:deal_replay", args=[deal.pk]))
    assert page.status_code == 404
    assert "recorded as a finishing order only" in page.text


def test_an_uploaded_transcript_replays_and_a_broken_one_is_refused(client):
    good = json.dumps(transcript_for(5, preset="friday"))
    page = client.post(reverse("league:replay_upload"), {"text": good})
    assert page.status_code == 200 and 'id="replay-data"' in page.text
    # the replay above the form, folded to "Replay another" (a phone saw the empty form)
    assert page.text.index('id="replay-data"') < page.text.index("<form")
    assert "<summary>Replay another transcript</summary>" in page.text

    broken = json.loads(good)
    broken["deals"][0]["moves"][0]["seat"] = (broken["deals"][0]["moves"][0]["seat"] + 1) % 5
    refused = client.post(reverse("league:replay_upload"), {"text": json.dumps(broken)})
    assert refused.status_code == 422
    assert "This transcript cannot be replayed (deal 0" in refused.text

    empty = client.post(reverse("league:replay_upload"), {"text": ""})
    assert empty.status_code == 400 and "choose a transcript file or paste one" in empty.text


def test_roles_are_named_as_the_seasons_preset_names_them(client):
    game = make_game(players=4, season_kwargs={"preset": "friday", "scoring_limit": 20})
    services.deal_record(game=game, finishing_order=seated_ids(game))

    sheet = client.get(reverse("league:game_detail", args=[game.pk])).text
    standings = client.get(reverse("league:season_detail", args=[game.season.pk])).text

    # RULES.md, friday (seed 001): the bottom two are the Vice Idiot and the Idiot
    for text in (sheet, standings):
        assert "Vice President" in text and "Vice Idiot" in text and "Idiot" in text
        assert "Scum" not in text and "Vice president" not in text
