"""Options validation (TRANSCRIPT.md `ruleset`, RULES.md "Presets")."""

import dataclasses

import pytest

from gameplay.engine import OptionsError, Rules, checker, preset
from gameplay.engine.options import (
    OPTIONS,
    PRESETS,
    PUBLIC_OPTIONS,
    STANDARD_DECK_OPTIONS,
    Options,
    from_ruleset,
)
from tests.toy_option import toy_option  # noqa: F401 (a fixture)


def test_unknown_preset_names_the_presets():
    with pytest.raises(OptionsError, match="unknown preset 'poker'.*school-scum"):
        preset("poker")


def test_unknown_option_names_the_options():
    with pytest.raises(OptionsError, match="unknown option 'wild'.*jokers_wild"):
        preset("classic", wild=True)


@pytest.mark.parametrize(("name", "value"), [("revolution", 1), ("jokers", True),
                                             ("decks", "2"), ("consec", "yes")])
def test_option_values_of_the_wrong_type(name, value):
    with pytest.raises(OptionsError, match=name):
        preset("friday", **{name: value})


def test_ruleset_field_forms():
    assert from_ruleset("modern") == preset("modern")
    assert from_ruleset({"preset": "friday", "options": {"jokers": 2}}).jokers == 2
    for bad in (["friday"], {"preset": "friday", "extra": 1},
                {"preset": "friday", "options": []}):
        with pytest.raises(OptionsError):
            from_ruleset(bad)


@pytest.mark.parametrize(("options", "players", "message"), [
    (preset("classic"), 53, "too many for a pack of 52"),
    (preset("presidents-deck"), 109, "too many for a pack of 108"),
    (preset("friday", blind=True), 3, "blind is played by exactly 2 players"),
    (preset("friday", blind=True), 4, "blind is played by exactly 2 players"),
    (preset("wild-jokers", blind=True), 2, "blind cannot be combined with wild jokers"),
    (dataclasses.replace(preset("classic"), decks=4), 4, "decks must be 1, 2 or 3"),
    (preset("classic", jokers=3), 4, "Jokers: one deck holds at most 2 jokers, not 3"),
    (preset("presidents-deck", jokers=2), 4, "cannot be used with the presidents deck"),
    (preset("classic"), 1, "at least 2"),
])
def test_impossible_combinations(options, players, message):
    with pytest.raises(OptionsError, match=message):
        Rules(options, players)


def test_possible_edges():
    """52 players for one pack; blind with exactly 2; more than 10 players take two
    presidents decks (seed 004)."""
    assert Rules(preset("classic"), 52).deck.size == 52
    assert Rules(preset("friday", blind=True), 2).players == 2
    assert Rules(preset("presidents-deck"), 10).deck.size == 54
    assert Rules(preset("presidents-deck"), 11).deck.size == 108
    assert Rules(preset("school-scum"), 4).deck.size == 108
    assert Rules(preset("wild-jokers"), 4).deck.size == 54


def test_checker_reports_options_errors_as_unreadable():
    """TRANSCRIPT.md: an unknown preset or option cannot be read (exit 2)."""
    for ruleset in ("poker", {"preset": "classic", "options": {"wild": True}}):
        data = {"format": "president-transcript/1", "ruleset": ruleset, "players": 3,
                "deals": []}
        status, verdict = checker.check(data)
        assert status == checker.UNREADABLE and "unknown" in verdict["error"]
    data = {"format": "president-transcript/1", "players": 3, "deals": [],
            "ruleset": {"preset": "friday", "options": {"blind": True}}}
    assert checker.check(data)[0] == checker.UNREADABLE


def test_each_option_in_the_table_is_a_field_of_options_with_its_default():
    """OPTIONS is the one list of the options a ruleset may set: Options holds each in a
    field of the same name and default, of its kind, and the lists the engine keeps are it."""
    fields = {f.name: f for f in dataclasses.fields(Options)}
    for name, spec in OPTIONS.items():
        assert fields[name].default == spec.default, name
        assert spec.kind in (bool, int)
        for options in PRESETS.values():
            value = getattr(options, name)
            assert value is None or type(value) is spec.kind, (name, options.preset)
    assert all(set(spec.presets or ()) <= set(PRESETS) for spec in OPTIONS.values())
    assert PUBLIC_OPTIONS == tuple(OPTIONS)
    assert STANDARD_DECK_OPTIONS == tuple(
        name for name, spec in OPTIONS.items() if not spec.taken_by("presidents-deck"))


@pytest.mark.parametrize(("overrides", "players", "options"), [
    ({"revolution": 1}, 4, ("revolution",)),
    ({"jokers": 7}, 4, ("jokers",)),
    ({"decks": 3, "jokers": 6, "blind": True}, 3, ("blind",)),
    ({"jokers": 4}, 4, ("jokers", "decks")),
])
def test_an_option_refusal_names_the_options_it_is_about(overrides, players, options):
    with pytest.raises(OptionsError) as refusal:
        preset("friday", **overrides).validate(players)
    assert refusal.value.options == options


@pytest.mark.usefixtures("toy_option")
def test_an_option_a_preset_does_not_take_is_refused_at_another_value_than_its_own():
    preset("friday", toy_rule=True).validate(4)
    with pytest.raises(OptionsError, match="toy_rule cannot be used with classic") as refusal:
        preset("classic", toy_rule=True).validate(4)
    assert refusal.value.options == ("toy_rule",)
    with pytest.raises(OptionsError, match="two_high cannot be used with the presidents deck"):
        preset("presidents-deck", two_high=True).validate(4)
