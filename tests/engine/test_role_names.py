"""One name per role, in each preset's own words (RULES.md "Common to all")."""

import pytest

from gameplay.engine.options import PRESETS, preset
from gameplay.engine.roles import Role, role_name, role_names


@pytest.mark.parametrize(("name", "vice_scum", "scum"), [
    ("school-scum", "Vice-Scum", "Scum"),
    ("friday", "Vice Idiot", "Idiot"),
    ("classic", "Vice-Scum", "Scum"),
    ("modern", "Vice-Scum", "Scum"),
    ("wild-jokers", "Vice Bum", "Bum"),
    ("presidents-deck", "Couch Potato", "Turd"),
])
def test_each_preset_names_its_bottom_roles(name, vice_scum, scum):
    assert list(role_names(preset(name)).values()) == [
        "President", "Vice President", "Citizen", vice_scum, scum]


def test_options_overridden_keep_the_presets_words():
    assert role_name(Role.SCUM, preset("friday", jokers=2)) == "Idiot"


def test_without_options_the_roles_take_the_common_words():
    assert role_names() == role_names(PRESETS["school-scum"])
