"""The protocol's JSON Schemas (docs/protocol/) against the real messages of games on every
preset, and ``BuiltInAnswerer`` (``president serve``): reading a request back into the
observation the service built it from, so a served built-in bot plays exactly as itself."""

import json
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from gameplay.bots import make_bot
from gameplay.bots.base import FAULT_ANSWER_MAX, FAULT_BODY_MAX, FAULT_TEXT_MAX, BotFault
from gameplay.bots.outside import LOG_MAX, OutsideBot
from gameplay.engine.options import PRESETS, preset
from gameplay.engine.scoring import Scoring
from gameplay.kit.serve import BuiltInAnswerer
from gameplay.runner.match import play_game

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "protocol"
REGISTRY = Registry().with_resources(
    (path.name, Resource.from_contents(json.loads(path.read_text())))
    for path in SCHEMAS.glob("*.schema.json"))


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = REGISTRY.contents(f"{name}.schema.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=REGISTRY)


class Served(OutsideBot):
    """An outside bot whose answers come from a built-in bot behind the protocol, every
    request and answer kept (as ``president serve`` would answer them, without the socket)."""

    def __init__(self, spec: str, seed: int):
        super().__init__()
        self.answerer = BuiltInAnswerer(spec, seed=seed)
        self.exchanges = []

    def exchange_json(self, request):
        request = json.loads(json.dumps(request))  # exactly what goes on the wire
        answer = self.answerer(request)
        self.exchanges.append((request, answer))
        return json.loads(json.dumps(answer))


def game(bot, name: str, deals: int = 3, against: str = "heuristic"):
    others = [make_bot(against, seed=s) for s in range(1, 4)]
    return play_game([bot, *others], preset(name), seed=7,
                     scoring=Scoring("fixed-rounds", deals=deals))


def test_every_request_and_answer_of_games_on_every_preset_meets_its_schema():
    requests, answers = validator("request"), validator("answer")
    decisions = set()
    for name in sorted(PRESETS):
        served = Served("heuristic", seed=0)
        result = game(served, name, deals=6, against="random")  # it is President at times
        assert result.stats[0].faults == []
        for request, answer in served.exchanges:
            requests.validate(request)
            answers.validate(answer)
            assert request["observation"]["preset"] == name
            decisions.add(request["decision"])
    assert decisions == {"play", "name_cards", "give_back", "ask", "lead_and_direction"}
    with pytest.raises(jsonschema.ValidationError, match="'hand' is a required property"):
        bad = json.loads(json.dumps(served.exchanges[0][0]))
        del bad["observation"]["hand"]
        requests.validate(bad)


def test_the_observation_carries_the_rank_order_in_force_and_the_options():
    served = Served("heuristic", seed=0)
    game(served, "modern")
    obs = served.exchanges[0][0]["observation"]
    # RULES.md seed 003 (modern): twos are low, aces high
    assert obs["rank_order"] == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
                                 "A"]
    assert obs["options"]["two_high"] is False and obs["options"]["decks"] == 1
    assert obs["ruleset"] == "modern"  # as before: old bots read it unchanged


@pytest.mark.parametrize("name", ["classic", "presidents-deck", "school-scum", "wild-jokers"])
@pytest.mark.parametrize("spec", ["heuristic", "montecarlo:playouts=8"])
def test_a_served_built_in_bot_plays_exactly_as_itself(name, spec):
    """What the observation leaves out would change a served bot's moves: the same seed gives
    the same transcript with the bot itself and with it behind the protocol."""
    direct = game(make_bot(spec, seed=5), name)
    served = game(Served(spec, seed=5), name)
    assert served.stats[0].faults == []
    assert served.transcript == direct.transcript


def test_a_fault_meets_the_error_schema_and_the_bounds_agree():
    class Junk(OutsideBot):
        def exchange_json(self, request):
            return self._decode(b"\x00not json {" + b"x" * 1000)

    class Failing(OutsideBot):  # its server's error page: a traceback, kept with the fault
        def exchange_json(self, request):
            raise BotFault("error", "HTTP status 500", body=b"Traceback\n\tline\x00" * 500)

    faults = [f for bot in (Junk(), Failing()) for f in game(bot, "classic").stats[0].faults]
    assert faults and any(f["body"] for f in faults)
    for fault in faults:
        validator("error").validate(fault)
    error = REGISTRY.contents("error.schema.json")["properties"]
    assert error["message"]["maxLength"] == FAULT_TEXT_MAX
    assert error["answer"]["maxLength"] == FAULT_ANSWER_MAX
    assert error["body"]["maxLength"] == FAULT_BODY_MAX
    log = REGISTRY.contents("answer.schema.json")["properties"]["log"]
    assert log["maxLength"] == LOG_MAX
    answers = validator("answer")
    answers.validate({"choice": 0, "log": "x" * LOG_MAX})
    with pytest.raises(jsonschema.ValidationError):
        answers.validate({"choice": 0, "log": "x" * (LOG_MAX + 1)})
    with pytest.raises(jsonschema.ValidationError):
        answers.validate({"log": "an answer with nothing in it"})
