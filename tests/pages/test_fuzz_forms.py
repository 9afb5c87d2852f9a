"""Hypothesis-generated bodies posted to the page forms find no 5xx (issue #16).

The organiser's result entry gets runs of posts (a hypothesis state machine): finishing
orders, seat changes and undos built from the table as it stands, and junk bodies, some
anonymous. The public replay upload gets valid transcripts with a part replaced by other JSON,
other JSON and junk text, pasted or as a file. Examples are bounded so each test runs in
seconds; CI derandomizes them (tests/conftest.py). Before undo-after-seat-change was fixed,
random runs found its IntegrityError (a seat change, then undoing the deal before it).
"""

import json

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule, run_state_machine_as_test

from gameplay.engine.options import preset
from gameplay.engine.scoring import Scoring
from gameplay.engine.selfplay import play_random_game
from league import selectors, services
from tests.budget import examples
from tests.league.factories import PlayerFactory, UserFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=examples(60), deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

junk_text = st.text(st.characters(codec="utf-8"), max_size=30)
junk_number = st.integers(min_value=-(10**20), max_value=10**20).map(str)
junk = st.one_of(junk_text, junk_number, st.sampled_from(["", "0", "-1", "²", "1e9", "null"]))


def check(answer):
    assert answer.status_code < 500, answer.content[:500]


@pytest.fixture
def table(db):
    """A game of four with a deal recorded, its organiser, and players of the club who could
    join."""
    game = make_game(season_kwargs={"scoring_limit": 100})
    services.deal_record(game=game, finishing_order=seated_ids(game))
    organiser = UserFactory()
    game.season.club.organisers.add(organiser)
    others = [PlayerFactory(clubs=[game.season.club]) for _ in range(2)]
    return game, organiser, others


def test_posts_to_result_entry_find_no_server_error(table):
    """Runs of posts by the organiser: finishing orders, seat changes and undos as the page
    sends them (from the table as it is at that step), and junk bodies, also by an anonymous
    reader. Each run starts from the same table."""
    game, organiser, _ = table
    def url(action):
        return reverse(f"league:{action}", args=[game.pk])

    actions = ["deal_preview", "deal_record", "deal_undo", "seat_change_preview", "seat_change",
               "same_table", "correct_preview", "correct", "deal_delete", "game_reopen"]
    signed_in, anonymous = Client(), Client()
    signed_in.force_login(organiser)
    tokens = st.text("0123456789abcdef", min_size=32, max_size=32)
    field = st.one_of(st.sampled_from(["token", "number", "deal", "leaving", "joining",
                                       *(f"place_{n}" for n in range(1, 7))]), junk_text)
    value = st.one_of(junk, st.integers(1, 12).map(str))
    junk_body = st.dictionaries(field, st.one_of(value, st.lists(value, max_size=4)),
                                max_size=8)

    def seated():
        return [s.player_id for s in selectors.game_next_deal(game=game).seats]

    class ResultEntry(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.run = transaction.atomic()
            self.run.__enter__()

        def teardown(self):
            transaction.set_rollback(True)
            self.run.__exit__(None, None, None)

        @rule(data=st.data(), action=st.sampled_from(["deal_preview", "deal_record"]))
        def finishing_order(self, data, action):
            order = data.draw(st.permutations(seated()))
            # mostly the next deal's number, sometimes one entered on another phone
            number = data.draw(st.one_of(
                st.just(selectors.game_next_deal(game=game).number), st.integers(1, 12)))
            check(signed_in.post(url(action), {
                "token": data.draw(tokens), "number": number,
                **{f"place_{n}": p for n, p in enumerate(order, 1)}}))

        @rule(data=st.data(), action=st.sampled_from(["seat_change_preview", "seat_change"]))
        def seat_change(self, data, action):
            at_table = seated()
            others = list(selectors.club_players(club=game.season.club)
                          .exclude(seats__game=game).values_list("pk", flat=True))
            leaving = data.draw(st.lists(st.sampled_from(at_table), max_size=1))
            joining = data.draw(st.lists(st.sampled_from(others), max_size=1)
                                if others else st.just([]))
            check(signed_in.post(url(action), {"leaving": leaving, "joining": joining}))

        @rule(stale=st.booleans())
        def undo(self, stale):
            last = game.deal_set.order_by("-number").first()
            deal = (last.pk if last else 0) + stale
            check(signed_in.post(url("deal_undo"), {"deal": str(deal)}))

        @rule(body=junk_body, client=st.sampled_from([signed_in, anonymous]),
              action=st.sampled_from(actions))
        def junk(self, body, client, action):
            check(client.post(url(action), body))

    # No shrinking: at most 8 posts are shown as they came, where shrinking runs for minutes.
    run_state_machine_as_test(ResultEntry, settings=settings(
        FUZZ, max_examples=examples(15), stateful_step_count=8,
        phases=[Phase.explicit, Phase.reuse, Phase.generate]))


def transcript():
    return play_random_game(preset("friday"), 4, seed=5, scoring=Scoring("penalty", limit=2))


def json_values():
    return st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                  junk_text),
        lambda inner: st.one_of(st.lists(inner, max_size=4),
                                st.dictionaries(junk_text, inner, max_size=4)),
        max_leaves=12)


@st.composite
def damaged_transcripts(draw):
    """A valid transcript with one value somewhere in it replaced by other JSON."""
    data = transcript()
    parent, key = None, None
    node = data
    for _ in range(draw(st.integers(0, 6))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
        elif isinstance(node, list) and node:
            key = draw(st.integers(0, len(node) - 1))
        else:
            break
        parent, node = node, node[key]
    if parent is None:
        return draw(json_values())
    parent[key] = draw(json_values())
    return data


def test_posts_to_the_replay_upload_find_no_server_error(settings):
    settings.REPLAY_UPLOAD_RATE = "100000/m"  # the limiter has its own test
    url = reverse("league:replay_upload")
    text = st.one_of(damaged_transcripts().map(json.dumps), json_values().map(json.dumps),
                     junk_text)
    client = Client()
    cache.clear()

    @given(text=text, as_file=st.booleans(),
           extra=st.dictionaries(junk_text, junk_text, max_size=3))
    @FUZZ
    def post(text, as_file, extra):
        if as_file:
            body = {**extra, "transcript": SimpleUploadedFile("t.json", text.encode())}
        else:
            body = {**extra, "text": text}
        check(client.post(url, body))

    post()
    cache.clear()
