"""Names holding zero-width or text-direction control characters are refused (issue #16):
"\\u202eevil\\u202c Ada" would show as "live Ada"."""

import pytest
from django.urls import reverse

from league import services
from league.errors import LeagueError
from league.models import Club, Player, Season
from tests.api.conftest import client_for
from tests.league.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

LOOK_ALIKES = ["\u202eevil\u202c Ada", "Ada\u200b", "Ad\u200da", "\u2067Bob", "Bo\u0007b",
               # Not format characters, yet they show as nothing (found by a security
               # walk-through): a name of a Hangul filler or a blank Braille cell looks empty,
               # and Ada with a combining grapheme joiner or a deprecated Khmer vowel is a second
               # "Ada".
               "\u3164", "\u2800", "Ad\u034fa", "\uffa0Ada", "Ada\u17b4"]


@pytest.fixture
def organiser():
    user = UserFactory(username="org", is_superuser=False)
    club = ClubFactory(name="Home")
    club.organisers.add(user)
    return user, club


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_every_name_refuses_hidden_characters_and_says_which(organiser, name):
    user, club = organiser
    client = client_for(user, token=True)
    player = PlayerFactory(name="Plain", clubs=[club])
    season = client.post("/api/v1/seasons/", {"club": club.pk, "name": "Spring",
                                              "starts_on": "2025-03-01"}, format="json").json()

    answers = {
        "club": client.patch(f"/api/v1/clubs/{club.pk}/", {"name": name}, format="json"),
        "new player": client.post("/api/v1/players/", {"name": name, "club": club.pk},
                                  format="json"),
        "player": client.patch(f"/api/v1/players/{player.pk}/", {"name": name},
                               format="json"),
        "season": client.patch(f"/api/v1/seasons/{season['id']}/", {"name": name},
                               format="json"),
    }

    for what, response in answers.items():
        assert response.status_code == 400, what
        [said] = response.json()["name"]
        assert "invisible or text-direction control characters" in said, what
        assert "U+" in said, what
    assert set(Club.objects.values_list("name", flat=True)) == {"Home"}
    assert set(Player.objects.values_list("name", flat=True)) == {"Plain"}
    assert set(Season.objects.values_list("name", flat=True)) == {"Spring"}


def test_the_message_names_the_character():
    with pytest.raises(LeagueError, match="U\\+202E RIGHT-TO-LEFT OVERRIDE"):
        services.club_create(name="\u202eevil\u202c Club")


def test_names_in_other_scripts_and_emoji_stay_welcome():
    assert services.player_create(name="  Zoë Ωμέγα 李 🂡 ").name == "Zoë Ωμέγα 李 🂡"
    # a variation selector picks how the character before it shows: the red heart, a kanji's
    # form in a Japanese name
    assert services.player_create(name="Ann \u2764\ufe0f").name == "Ann \u2764\ufe0f"
    assert services.player_create(name="\u845b\U000e0100").name == "\u845b\U000e0100"


def test_the_admin_refuses_them_too(client, organiser):
    user, club = organiser
    client.force_login(user)
    player = PlayerFactory(name="Plain", clubs=[club])

    page = client.post(reverse("admin:league_player_change", args=[player.pk]),
                       {"name": "Pl\u200bain", "kind": "person", "clubs": [club.pk]})
    club_page = client.post(reverse("admin:league_club_change", args=[club.pk]),
                            {"name": "\u202eemoH"})

    assert page.status_code == 200 and "U+200B ZERO WIDTH SPACE" in page.text
    assert club_page.status_code == 200 and "RIGHT-TO-LEFT OVERRIDE" in club_page.text
    assert Player.objects.get(pk=player.pk).name == "Plain"
    assert Club.objects.get(pk=club.pk).name == "Home"
