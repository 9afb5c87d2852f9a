"""Hostile or mistaken input to the pages: a 4xx in words or a sensible page, never a 500, and
exports a spreadsheet opens without running anything (issue #16)."""

import csv
import io
import json
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django_ratelimit import core as ratelimit

from gameplay.engine.options import preset
from gameplay.engine.scoring import Scoring
from gameplay.engine.selfplay import play_random_game
from league import services
from league.models import Player
from league.web import seasons
from tests.league.factories import UserFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    """Rate-limit counts and cached pages live in the cache: each test starts and leaves it
    empty."""
    cache.clear()
    yield
    cache.clear()


def games_page(client, season, page):
    answer = client.get(reverse("league:season_detail", args=[season.pk]), {"page": page})
    assert answer.status_code == 200, page
    return " ".join(answer.text.split()).split("Pages of games")[1][:200]


@pytest.mark.postgres
def test_the_season_page_reads_junk_as_the_first_page_and_past_the_end_as_the_last(client,
                                                                             monkeypatch):
    monkeypatch.setattr(seasons, "GAMES_PER_PAGE", 1)
    game = make_game()
    for _ in range(2):
        make_game(season=game.season, players=list(Player.objects.all()[:4]))

    for junk in ["²", "٣", "-1", "0", "abc", "1.5", "", "\x00", str(10**30)]:
        assert "page 1 of 3" in games_page(client, game.season, junk)
    for far in ["3", "4", "999999999"]:
        assert "page 3 of 3" in games_page(client, game.season, far)
    assert "page 2 of 3" in games_page(client, game.season, "2")


FORMULAS = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rReturn"]


def test_exports_quote_cells_a_spreadsheet_would_run(client):
    game = make_game()
    for player, name in zip(seated_ids(game), FORMULAS, strict=False):
        Player.objects.filter(pk=player).update(name=name)
    services.deal_record(game=game, finishing_order=seated_ids(game))
    season = game.season
    shown = {"'" + name for name in FORMULAS[:4]}

    for export, column in (("league:export_standings", "player"),
                           ("league:export_results", "player")):
        text = b"".join(client.get(reverse(export, args=[season.pk])).streaming_content)
        names = {row[column] for row in csv.DictReader(io.StringIO(text.decode()))}
        assert names == shown, export


def test_a_cell_is_quoted_only_when_a_spreadsheet_would_run_it():
    assert [seasons.csv_cell(v) for v in [*FORMULAS, "Ada", "a=b", -3, 2.5, None]] == [
        *("'" + v for v in FORMULAS), "Ada", "a=b", -3, 2.5, None]


def long_transcript(deals):
    return play_random_game(preset("classic"), 6, seed=3,
                            scoring=Scoring("fixed-rounds", deals=deals))


def upload(client, address="127.0.0.1", **data):
    return client.post(reverse("league:replay_upload"), data, REMOTE_ADDR=address)


def test_a_transcript_over_the_step_limit_is_refused_before_it_is_played(client, settings):
    transcript = long_transcript(60)
    steps = sum(2 + len(d.get("exchanges", [])) + len(d["moves"]) for d in transcript["deals"])
    assert steps > settings.REPLAY_MAX_STEPS == 5_000

    answer = upload(client, text=json.dumps(transcript))

    assert answer.status_code == 422
    assert (f"This transcript is too long to replay here: {steps:,} steps in 60 deals, over "
            "the 5,000 shown at most") in answer.text
    assert "cannot be replayed" not in answer.text  # said once (a walk-through found it twice)

    settings.REPLAY_MAX_STEPS = steps
    assert upload(client, text=json.dumps(transcript)).status_code == 200


def test_a_transcript_over_the_size_limit_is_refused_with_413_saying_the_limit(client,
                                                                             settings):
    text = json.dumps(long_transcript(2))
    settings.REPLAY_UPLOAD_MAX_BYTES = len(text) - 1

    pasted = upload(client, text=text)
    sent = upload(client, transcript=SimpleUploadedFile("game.json", text.encode()))

    for answer in (pasted, sent):
        assert answer.status_code == 413
        assert f"a transcript is at most {len(text) - 1:,} bytes" in answer.text
    settings.REPLAY_UPLOAD_MAX_BYTES = len(text)
    assert upload(client, text=text).status_code == 200


def test_a_body_over_djangos_limit_gets_a_page_saying_the_limit(client):
    answer = upload(client, text="x" * 2_700_000)

    assert answer.status_code == 413 and answer["Content-Type"].startswith("text/html")
    assert "the limit is 2,621,440 bytes (2.5 MB)" in answer.text


@pytest.mark.parametrize("csrf_checked", [False, True])
def test_too_many_form_fields_get_a_page_saying_the_limit(settings, csrf_checked):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    client = Client(enforce_csrf_checks=csrf_checked)  # CsrfViewMiddleware reads the form too

    answer = upload(client, text="{}", **{f"f{i}": "1" for i in range(11)})

    assert answer.status_code == 400 and "more than 10 form fields" in answer.text


def test_a_form_body_that_cannot_be_read_gets_a_page_saying_so(client):
    answer = client.post(reverse("league:replay_upload"), b"--x\r\n",
                         content_type="multipart/form-data; boundary=")

    assert answer.status_code == 400
    assert "the request&#x27;s form cannot be read: Invalid boundary" in answer.text


@pytest.mark.parametrize("junk, error", [
    ("[" * 100_000, "This is not a transcript: it is not JSON."),
    ("[" * 100_000 + "]" * 100_000, "This is not a transcript: it is not JSON."),
    (b"\xff\xfe\xff", "This is not a transcript: it is not JSON."),
    ("{'format': 1}", "This is not a transcript: it is not JSON (line 1, column 2: expecting "
                      "property name enclosed in double quotes)."),
    ("1e999999", "This transcript cannot be replayed: a transcript is a JSON object"),
    ('{"format": 1}', "This transcript cannot be replayed: format must be"),
], ids=repr)
def test_junk_sent_as_a_transcript_is_refused_with_422(client, junk, error):
    pasted = upload(client, text=junk) if isinstance(junk, str) else None
    sent = upload(client, transcript=SimpleUploadedFile(
        "junk.json", junk.encode() if isinstance(junk, str) else junk))

    for answer in (pasted, sent):
        if answer is not None:
            assert answer.status_code == 422 and error in answer.text


def test_a_nul_pasted_as_a_transcript_is_refused_naming_it(client):
    answer = upload(client, text="{\x00}")

    assert answer.status_code == 400 and "Null characters are not allowed" in answer.text


@pytest.fixture
def still_clock(monkeypatch):
    """django-ratelimit's clock held still: its windows end on the clock's minute (give or take
    a jitter), so a slow run could cross one between two uploads and start counting again (one
    CI run did, and the fourth anonymous upload was let through)."""
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: 1_800_000_000.0))


def test_anonymous_uploads_are_limited_per_address(client, settings, still_clock):
    settings.REPLAY_UPLOAD_RATE = "3/m"
    text = json.dumps(long_transcript(1))

    first = [upload(client, text=text, address="203.0.113.7").status_code
             for _ in range(4)]
    other = upload(client, text=text, address="203.0.113.8")
    client.force_login(UserFactory())
    signed_in = upload(client, text=text, address="203.0.113.7")

    assert first == [200, 200, 200, 429]
    assert other.status_code == 200 and signed_in.status_code == 200  # counted as the user
    refused = upload(client.__class__(), text=text, address="203.0.113.7")
    assert refused.status_code == 429
    assert "Too many transcripts uploaded from your address (at most 3/m" in refused.text


def test_signed_in_uploads_are_limited_per_user_wherever_they_come_from(client, settings,
                                                                        still_clock):
    settings.REPLAY_UPLOAD_RATE = "3/m"
    text = json.dumps(long_transcript(1))
    client.force_login(UserFactory(username="uploader"))

    answers = [upload(client, text=text, address=f"203.0.113.{n}") for n in range(4)]
    client.force_login(UserFactory(username="another"))
    another = upload(client, text=text, address="203.0.113.0")

    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert "Too many transcripts uploaded from your account (at most 3/m" in answers[-1].text
    assert another.status_code == 200


def test_the_upload_limit_counts_the_address_the_proxy_saw(client, settings):
    settings.REPLAY_UPLOAD_RATE = "2/m"
    text = json.dumps(long_transcript(1))

    def post(forwarded):
        return client.post(reverse("league:replay_upload"), {"text": text},
                           REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded).status_code

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    assert [post(f"198.51.100.{n}") for n in range(3)] == [200, 200, 429]  # no proxy: spoofed
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    assert [post(f"198.51.100.{n}, 192.0.2.9") for n in range(3)] == [200, 200, 429]
    assert post("192.0.2.10") == 200


@pytest.mark.parametrize("action", ["deal_preview", "deal_record"])
@pytest.mark.parametrize("junk", [str(10**30), "9999999999999999999", "-1", "0"])
def test_a_place_given_as_an_id_past_any_player_is_refused_in_words(client, action, junk):
    """Found by a security walk-through: a posted place of 10**30 answered 500 (past
    SQLite's integers, OverflowError), as a finishing order's id past the database's does not
    in the API."""
    game = make_game()
    organiser = UserFactory(username="org")
    game.season.club.organisers.add(organiser)
    client.force_login(organiser)
    ids = seated_ids(game)

    answer = client.post(reverse(f"league:{action}", args=[game.pk]), {
        "token": "t" * 32, "number": 1, "place_1": junk,
        **{f"place_{i}": p for i, p in enumerate(ids[1:], start=2)}})

    assert answer.status_code == 400
    assert "1st out" in answer.text
    assert not game.deal_set.exists()
