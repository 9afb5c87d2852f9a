"""The organisers' pages outside the admin (issue #19): a club's seasons, players and tonight's
tables; creating and editing a season with labelled controls the engine checks; adding and
renaming players in place. Only the club's organisers see or change anything."""

import datetime
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.bots import kernel
from gameplay.engine.errors import PresidentError
from gameplay.engine.options import PRESETS, PUBLIC_OPTIONS, STANDARD_DECK_OPTIONS, preset
from gameplay.engine.ruleset import Rules
from gameplay.engine.scoring import Scoring, parameters, systems
from league import services
from league.models import AuditEntry, Player, Season
from league.rules import options_of, scoring_of
from league.web.organiser_forms import (
    OPTION_LABELS,
    PRESET_LINES,
    SeasonForm,
    option_fields,
)
from tests.budget import examples
from tests.league.factories import ClubFactory, PlayerFactory, UserFactory, make_game, make_season
from tests.toy_option import TOY, toy_option  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

SYSTEMS = [system.name for system in systems()]


@pytest.fixture
def club():
    return ClubFactory(name="Thursday Club")


@pytest.fixture
def organiser(club):
    user = UserFactory(username="olga", is_staff=False)
    club.organisers.add(user)
    return user


@pytest.fixture
def signed_in(client, organiser):
    client.force_login(organiser)
    return client


def season_post(preset="classic", /, **changes):
    """A season form's post with ``preset``'s own option values, as the page sends it."""
    options = PRESETS[preset]
    data = {"name": "Spring", "starts_on": "2026-03-01", "ends_on": "", "preset": preset,
            "shown_preset": preset, "scoring_system": "penalty", "scoring_limit": "",
            "scoring_target": "", "scoring_deals": ""}
    for name in option_fields(preset):
        value = getattr(options, name)
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else str(value)
    for name, value in changes.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = "on" if value is True else value
    return data


def pages(club, season):
    return {
        "club": reverse("league:organise_club", args=[club.pk]),
        "new season": reverse("league:organise_season_create", args=[club.pk]),
        "edit season": reverse("league:organise_season_edit", args=[season.pk]),
    }


# Who may


def test_a_visitor_who_is_not_signed_in_is_sent_to_log_in(client, club):
    season = make_season(club=club)
    for name, url in pages(club, season).items():
        answer = client.get(url)
        assert answer.status_code == 302, name
        assert answer["Location"].startswith(reverse("account_login") + "?next="), name
    answer = client.post(reverse("league:organise_player_add", args=[club.pk]), {"name": "Ann"})
    assert answer.status_code == 302
    assert not Player.objects.exists()


def test_a_user_who_does_not_organise_the_club_gets_403_saying_why(client, club):
    season = make_season(club=club)
    other = ClubFactory(name="Other Club")
    stranger = UserFactory(username="sam", is_staff=True)
    other.organisers.add(stranger)  # organises another club, not this one
    client.force_login(stranger)
    for name, url in pages(club, season).items():
        answer = client.get(url)
        assert answer.status_code == 403, name
        assert "Only organisers of Thursday Club may use its organiser pages" in \
            answer.content.decode(), name
    answer = client.post(reverse("league:organise_player_add", args=[club.pk]), {"name": "Ann"})
    assert answer.status_code == 403
    answer = client.post(reverse("league:organise_season_create", args=[club.pk]),
                         season_post())
    assert answer.status_code == 403
    assert not Player.objects.exists() and not Season.objects.filter(name="Spring").exists()


def test_an_organiser_and_an_administrator_see_the_pages(client, signed_in, club):
    season = make_season(club=club)
    for name, url in pages(club, season).items():
        assert signed_in.get(url).status_code == 200, name
    admin = UserFactory(username="root", is_superuser=True)
    client.force_login(admin)
    assert client.get(pages(club, season)["club"]).status_code == 200


def test_the_public_pages_link_organisers_to_their_pages(client, signed_in, club):
    season = make_season(club=club)
    url = reverse("league:organise_club", args=[club.pk])
    assert url in signed_in.get(reverse("league:club_detail", args=[club.pk])).content.decode()
    page = signed_in.get(reverse("league:season_detail", args=[season.pk])).content.decode()
    assert reverse("league:organise_season_edit", args=[season.pk]) in page
    client.logout()
    assert url not in client.get(reverse("league:club_detail", args=[club.pk])).content.decode()


# The club page


def test_the_club_page_lists_seasons_players_and_tonights_tables(signed_in, club):
    season = make_season(club=club, name="Winter", preset="friday", scoring_limit=5)
    game = make_game(season=season)
    done = make_game(season=season)
    ids = list(done.seats.order_by("number").values_list("player_id", flat=True))
    for _ in range(3):
        services.deal_record(game=done, finishing_order=ids)  # the last player reaches 6
    done.refresh_from_db()
    assert done.status == "finished"
    page = signed_in.get(reverse("league:organise_club", args=[club.pk])).content.decode()
    assert "Winter" in page and PRESET_LINES["friday"] in page
    assert "Scoring: penalty, ends at 5 points." in page
    assert reverse("league:game_enter", args=[game.pk]) in page
    assert reverse("league:game_enter", args=[done.pk]) not in page  # not an open table
    for seat in game.seats.select_related("player"):
        assert seat.player.name in page
    assert reverse("league:organise_season_edit", args=[season.pk]) in page


def test_the_club_page_names_a_seasons_house_rules(signed_in, club):
    """A season with house rules said only "classic with changes" before the preset's own
    line ("one deck … no exchange"): it names each change from the preset."""
    make_season(club=club, name="Winter", preset="classic",
                options={"jokers": 2, "jokers_wild": True, "two_high": False})
    make_season(club=club, name="Plain", preset="classic")
    page = signed_in.get(reverse("league:organise_club", args=[club.pk])).content.decode()
    assert ("<p>Changed from classic: Jokers in the pack: 2; Twos are the highest rank: no; "
            "Jokers are wild: yes.</p>") in page
    assert page.count("Changed from") == 1


def test_the_club_page_costs_the_same_queries_with_more_tables_and_players(
        signed_in, club, django_assert_max_num_queries):
    season = make_season(club=club)
    make_game(season=season)
    url = reverse("league:organise_club", args=[club.pk])
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        signed_in.get(url)
    for _ in range(5):
        make_game(season=season, players=5)
    with django_assert_max_num_queries(len(few)):
        signed_in.get(url)


# Seasons


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_new_season_page_describes_the_preset_and_labels_every_option(signed_in, club,
                                                                         preset):
    url = reverse("league:organise_season_create", args=[club.pk]) + f"?preset={preset}"
    page = signed_in.get(url).content.decode()
    for line in PRESET_LINES.values():
        assert line in page
    for name in PUBLIC_OPTIONS:
        assert f'<label class="check" for="id_{name}">' in page or \
            f'<label for="id_{name}">' in page, name
    # the preset's own values are set, and the numbered deck's page hides what it cannot take
    options = PRESETS[preset]
    for name in PUBLIC_OPTIONS:
        value = getattr(options, name)
        if isinstance(value, bool):
            checked = f'name="{name}" data-option="{name}" id="id_{name}" checked' in page
            assert checked == value, name
    assert ('data-standard-deck-row hidden' in page) == (preset == "presidents-deck")
    for system in systems():
        assert system.description in page


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_season_of_each_preset_is_created_with_its_controls(signed_in, club, preset):
    options = PRESETS[preset]
    # one house rule each: the first boolean option the preset takes, turned around
    flip = next(name for name in option_fields(preset)
                if isinstance(getattr(options, name), bool) and name != "blind")
    post = season_post(preset, **{flip: not getattr(options, flip)}, scoring_system="penalty",
                       scoring_limit="6", scoring_deals="10")
    answer = signed_in.post(reverse("league:organise_season_create", args=[club.pk]), post)
    assert answer.status_code == 302, answer.content.decode()
    season = Season.objects.get(club=club, name="Spring")
    assert season.preset == preset
    assert season.options == {flip: not getattr(options, flip)}
    assert season.scoring == {"system": "penalty", "limit": 6, "deals": 10}
    assert season.starts_on == datetime.date(2026, 3, 1)
    assert AuditEntry.objects.filter(action="season created", actor__username="olga").exists()


def test_scoring_parameters_of_another_system_are_left_out(signed_in, club):
    post = season_post("classic", scoring_system="fixed-rounds", scoring_limit="5",
                       scoring_target="11", scoring_deals="8")
    answer = signed_in.post(reverse("league:organise_season_create", args=[club.pk]), post)
    assert answer.status_code == 302
    season = Season.objects.get(name="Spring")
    assert season.scoring == {"system": "fixed-rounds", "deals": 8}


@pytest.mark.parametrize(("preset", "changes", "field", "words"), [
    ("classic", {"jokers": "4"}, "jokers",
     "Jokers: one deck holds at most 2 jokers, not 4; choose 0 to 2, or play with 2 decks"),
    ("classic", {"jokers": "9"}, "jokers", "less than or equal to 6"),
    ("school-scum", {"decks": "1"}, "decks", "Jokers: one deck holds at most 2 jokers, not 4"),
    ("classic", {"decks": "7"}, "decks", "Select a valid choice"),
    ("wild-jokers", {"blind": True}, "jokers_wild", "blind cannot be combined with wild jokers"),
    ("classic", {"scoring_system": "fixed-rounds"}, "scoring_deals",
     "fixed-rounds needs a number of deals"),
    ("classic", {"scoring_limit": "101"}, "scoring_limit", "less than or equal to 100"),
    ("classic", {"scoring_limit": "0"}, "scoring_limit", "greater than or equal to 1"),
    ("classic", {"name": "  "}, "name", "This field is required"),
    ("classic", {"name": "Spring\u200b"}, "name", "U+200B ZERO WIDTH SPACE"),
    ("classic", {"ends_on": "2026-01-01"}, "ends_on", "cannot end before it starts"),
    ("classic", {"starts_on": "soon"}, "starts_on", "Enter a valid date"),
])
def test_a_bad_season_is_refused_naming_the_field_and_nothing_is_stored(
        signed_in, club, preset, changes, field, words):
    answer = signed_in.post(reverse("league:organise_season_create", args=[club.pk]),
                            season_post(preset, **changes))
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "Nothing was saved." in page
    form = answer.context["form"]
    assert field in form.errors, form.errors
    assert words in " ".join(form.errors[field])
    assert f'href="#id_{field}"' in page  # the summary links to the field
    assert not Season.objects.exists()
    assert not AuditEntry.objects.filter(action="season created").exists()


def test_a_season_name_taken_in_the_club_is_refused_at_the_name(signed_in, club):
    make_season(club=club, name="Spring")
    answer = signed_in.post(reverse("league:organise_season_create", args=[club.pk]),
                            season_post())
    assert answer.status_code == 400
    assert "already has a season called 'Spring'" in " ".join(answer.context["form"].errors["name"])
    assert Season.objects.filter(club=club).count() == 1


def test_a_taken_name_is_said_as_the_club_has_it(signed_in, club):
    """The refusal quoted what was typed ('SPRING'), not the season the club has."""
    make_season(club=club, name="Spring")
    answer = signed_in.post(reverse("league:organise_season_create", args=[club.pk]),
                            season_post(name="SPRING"))
    assert answer.status_code == 400
    assert answer.context["form"].errors["name"] == [
        "Thursday Club already has a season called 'Spring' (names are compared in any case)"]


def test_every_refusal_of_a_season_is_said_at_its_field_at_once(signed_in, club):
    """The form said one refusal at a time: each mistake found only once the one before it was
    put right. Name, dates, options and scoring are refused together, each at its field."""
    make_season(club=club, name="Spring")
    answer = signed_in.post(reverse("league:organise_season_create", args=[club.pk]),
                            season_post(jokers="4", ends_on="2026-01-01"))
    assert answer.status_code == 400
    errors = answer.context["form"].errors
    assert "already has a season called 'Spring'" in " ".join(errors["name"])
    assert errors["ends_on"] == ["a season cannot end before it starts"]
    assert errors["jokers"] == [
        "Jokers: one deck holds at most 2 jokers, not 4; choose 0 to 2, or play with 2 decks"]
    page = answer.content.decode()
    assert "no table can play" not in page
    assert Season.objects.filter(club=club).count() == 1


def test_refusals_of_the_form_and_of_the_league_are_said_together(signed_in, club):
    """A field the form refuses (a date it cannot read) hid the league's refusals of the others
    (a name taken, options no table plays) until it was put right."""
    make_season(club=club, name="Spring")
    answer = signed_in.post(reverse("league:organise_season_create", args=[club.pk]),
                            season_post(starts_on="soon", jokers="4"))
    assert answer.status_code == 400
    errors = answer.context["form"].errors
    assert set(errors) == {"starts_on", "name", "jokers", "decks"}, errors
    assert "Enter a valid date" in " ".join(errors["starts_on"])
    assert Season.objects.filter(club=club).count() == 1


def test_an_options_refusal_and_a_scoring_refusal_are_said_together(signed_in, club):
    answer = signed_in.post(reverse("league:organise_season_create", args=[club.pk]),
                            season_post("wild-jokers", blind=True, scoring_system="fixed-rounds"))
    assert answer.status_code == 400
    errors = answer.context["form"].errors
    assert "blind cannot be combined with wild jokers" in " ".join(errors["jokers_wild"])
    assert "fixed-rounds needs a number of deals" in " ".join(errors["scoring_deals"])
    assert not Season.objects.exists()


def test_an_edit_says_every_refusal_at_once(signed_in, club):
    make_season(club=club, name="Spring")
    season = make_season(club=club, name="Autumn")
    answer = signed_in.post(reverse("league:organise_season_edit", args=[season.pk]),
                            season_post(name="spring", jokers="4", ends_on="2026-01-01"))
    assert answer.status_code == 400
    assert set(answer.context["form"].errors) >= {"name", "ends_on", "jokers"}
    assert Season.objects.get(pk=season.pk).name == "Autumn"


def test_picking_another_preset_without_the_script_shows_its_options_and_saves_nothing(
        signed_in, club):
    post = season_post("classic", preset="school-scum")  # the controls still show classic's
    answer = signed_in.post(reverse("league:organise_season_create", args=[club.pk]), post)
    assert answer.status_code == 200
    assert not Season.objects.exists()
    page = answer.content.decode()
    assert "Nothing saved yet: you picked school-scum" in page
    form = answer.context["form"]
    assert form.initial["consec"] is True and form.initial["decks"] == 2
    assert form.initial["name"] == "Spring"
    # sent again as shown, it is saved with school-scum's own rules
    answer = signed_in.post(reverse("league:organise_season_create", args=[club.pk]),
                            season_post("school-scum"))
    assert answer.status_code == 302
    assert Season.objects.get().options == {}


def test_a_season_is_edited_and_its_rules_stay_once_deals_are_recorded(signed_in, club):
    season = make_season(club=club, name="Spring", preset="classic")
    url = reverse("league:organise_season_edit", args=[season.pk])
    page = signed_in.get(url).content.decode()
    assert 'value="Spring"' in page
    answer = signed_in.post(url, season_post("modern", name="Spring 26",
                                             scoring_system="first-to-eleven",
                                             scoring_target="15"))
    assert answer.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.preset, season.scoring) == \
        ("Spring 26", "modern", {"system": "first-to-eleven", "target": 15})
    game = make_game(season=season)
    services.deal_record(game=game, finishing_order=list(
        game.seats.order_by("number").values_list("player_id", flat=True)))
    page = signed_in.get(url).content.decode()
    assert "Deals have been recorded in this season" in page
    # a post that tries to change the rules changes only the name and dates
    answer = signed_in.post(url, season_post("friday", name="Spring 2026",
                                             ends_on="2026-06-30"))
    assert answer.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.preset, season.ends_on) == \
        ("Spring 2026", "modern", datetime.date(2026, 6, 30))


def test_an_edit_refused_changes_nothing(signed_in, club):
    season = make_season(club=club, name="Spring", preset="classic")
    url = reverse("league:organise_season_edit", args=[season.pk])
    answer = signed_in.post(url, season_post("classic", name="Autumn", jokers="5"))
    assert answer.status_code == 400
    season.refresh_from_db()
    assert (season.name, season.options) == ("Spring", {})


# The words agree with the engine


def test_every_preset_option_and_system_has_words():
    assert set(PRESET_LINES) == set(PRESETS)
    assert set(OPTION_LABELS) == set(PUBLIC_OPTIONS)
    for system in systems():
        assert system.description and system.time_called_rule
        assert all(p.title and p.label and p.help for p in system.parameters)


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_system_takes_the_parameters_the_form_offers_and_no_other(system):
    for name in parameters():
        if any(p.name == name for p in systems()[SYSTEMS.index(system)].parameters):
            Scoring(system, **{name: 5, **({"deals": 5} if system == "fixed-rounds" else {})})
        else:
            with pytest.raises(PresidentError):
                Scoring(system, **{name: 5})


def test_the_numbered_deck_offers_no_standard_deck_option():
    assert not set(option_fields("presidents-deck")) & set(STANDARD_DECK_OPTIONS)
    assert option_fields("classic") == PUBLIC_OPTIONS


@pytest.mark.parametrize(("refused", "options"), [
    (lambda: preset("wild-jokers", blind=True).validate(2), ("blind", "jokers_wild")),
    (lambda: preset("classic", jokers=7), ("jokers",)),
    (lambda: preset("presidents-deck", consec=True, kkk=True).validate(4), ("consec", "kkk")),
    (lambda: preset("classic", jokers=4).validate(4), ("jokers", "decks")),
])
def test_option_refusals_name_their_options_and_the_form_its_fields(refused, options):
    """The engine's refusal carries the options it is about (no words to read), and the form
    shows it at their fields."""
    with pytest.raises(PresidentError) as refusal:
        refused()
    assert refusal.value.options == options
    form = SeasonForm(season_post("classic"))
    assert form.is_valid(), form.errors
    form.refuse(refusal.value.message, refusal.value.options)
    assert set(form.errors) == set(options)


# Players


def test_a_player_is_added_and_renamed_in_place(signed_in, club):
    answer = signed_in.post(reverse("league:organise_player_add", args=[club.pk]),
                            {"name": "  Ann  "})
    assert answer.status_code == 302
    player = Player.objects.get(name="Ann")
    assert list(player.clubs.all()) == [club]
    page = signed_in.get(answer["Location"]).content.decode()
    assert "Ann added to Thursday Club." in page
    answer = signed_in.post(reverse("league:organise_player_rename", args=[club.pk, player.pk]),
                            {"name": "Anne"})
    assert answer.status_code == 302
    assert answer["Location"].endswith(f"#player-{player.pk}")
    player.refresh_from_db()
    assert player.name == "Anne"
    assert AuditEntry.objects.filter(action="player changed", actor__username="olga").exists()


def test_a_name_taken_in_the_club_is_refused_but_another_club_may_use_it(signed_in, club,
                                                                          organiser):
    PlayerFactory(name="Tom", clubs=[club])
    ann = PlayerFactory(name="Ann", clubs=[club])
    add = reverse("league:organise_player_add", args=[club.pk])
    answer = signed_in.post(add, {"name": "tom"})
    assert answer.status_code == 400
    assert "Thursday Club already has a player called 'Tom'" in unescape(answer.content.decode())
    assert Player.objects.filter(name__iexact="tom").count() == 1
    answer = signed_in.post(reverse("league:organise_player_rename", args=[club.pk, ann.pk]),
                            {"name": "TOM"})
    assert answer.status_code == 400
    page = unescape(answer.content.decode())
    assert "Thursday Club already has a player called 'Tom'" in page
    assert 'value="TOM"' in page  # the refused name stays in its row to correct
    ann.refresh_from_db()
    assert ann.name == "Ann"
    # another club of the same organiser has its own Tom
    other = ClubFactory(name="Friday Club")
    other.organisers.add(organiser)
    answer = signed_in.post(reverse("league:organise_player_add", args=[other.pk]),
                            {"name": "Tom"})
    assert answer.status_code == 302
    assert Player.objects.filter(name="Tom").count() == 2


@pytest.mark.parametrize(("name", "words"), [
    ("", "This field is required"),
    ("   ", "a player needs a name"),
    ("\u202eevil\u202c Ann", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("x" * 101, "at most 100 characters"),
])
def test_a_bad_name_is_refused_in_words_and_nothing_is_stored(signed_in, club, name, words):
    answer = signed_in.post(reverse("league:organise_player_add", args=[club.pk]),
                            {"name": name})
    assert answer.status_code == 400
    assert words in unescape(answer.content.decode())
    assert not Player.objects.exists()


def test_a_player_of_a_club_the_organiser_does_not_organise_too_is_not_renamed(signed_in,
                                                                                club):
    other = ClubFactory(name="Other Club")
    shared = PlayerFactory(name="Bea", clubs=[club, other])
    answer = signed_in.post(reverse("league:organise_player_rename", args=[club.pk, shared.pk]),
                            {"name": "Beatrice"})
    assert answer.status_code == 400
    assert "only an organiser of every club they play or played in may rename them" in \
        answer.content.decode()
    shared.refresh_from_db()
    assert shared.name == "Bea"


def test_a_player_of_another_club_cannot_be_renamed_through_this_club(signed_in, club):
    stranger = PlayerFactory(name="Zed", clubs=[ClubFactory()])
    answer = signed_in.post(reverse("league:organise_player_rename",
                                    args=[club.pk, stranger.pk]), {"name": "Zee"})
    assert answer.status_code == 404
    stranger.refresh_from_db()
    assert stranger.name == "Zed"


def test_an_unknown_preset_or_shown_preset_is_refused_in_words(signed_in, club):
    url = reverse("league:organise_season_create", args=[club.pk])
    answer = signed_in.post(url, season_post("classic", preset="poker"))
    assert answer.status_code == 400
    assert "Select a valid choice. poker is not one of the available choices." in \
        answer.context["form"].errors["preset"]
    answer = signed_in.post(url, season_post("classic", shown_preset="poker"))
    assert answer.status_code == 302  # the controls' preset is only a hint to the page
    assert not Season.objects.get().options


def test_a_tournaments_season_is_not_edited_here(client, organiser):
    from tests.tournaments.helpers import small_tournament

    tournament = small_tournament("Cup")
    tournament.club.organisers.add(organiser)
    client.force_login(organiser)
    answer = client.get(reverse("league:organise_season_edit", args=[tournament.season.pk]))
    assert answer.status_code == 400
    assert "is the season of the tournament Cup" in unescape(answer.content.decode())
    page = client.get(reverse("league:organise_club", args=[tournament.club.pk]))
    assert page.status_code == 200
    assert reverse("league:organise_season_edit", args=[tournament.season.pk]) not in \
        page.content.decode()


FIELDS = ["name", "starts_on", "ends_on", "preset", "shown_preset", *PUBLIC_OPTIONS,
          "scoring_system", "scoring_limit", "scoring_target", "scoring_deals"]
junk = st.one_of(st.text(st.characters(codec="utf-8"), max_size=20),
                 st.integers(min_value=-(10**12), max_value=10**12).map(str),
                 st.sampled_from(["", "0", "1", "2", "7", "101", "on", "true", "²",
                                  "2026-02-30", "2026-03-01", *PRESETS, *SYSTEMS]))


@given(preset=st.sampled_from(list(PRESETS)),
       changes=st.dictionaries(st.sampled_from(FIELDS), junk, max_size=4))
@settings(max_examples=examples(80), deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_junk_in_the_season_form_is_refused_in_words_or_stored_playable(
        django_user_model, preset, changes):
    """Any post gets a page, never a server error; a refused one stores nothing, a stored one
    is a season the engine can play."""
    club = ClubFactory()
    user = django_user_model.objects.create(username=f"o{club.pk}")
    club.organisers.add(user)
    client = Client()
    client.force_login(user)
    answer = client.post(reverse("league:organise_season_create", args=[club.pk]),
                         {**season_post(preset), **changes})
    assert answer.status_code in (200, 302, 400), answer.content[:300]
    seasons = list(Season.objects.filter(club=club))
    if answer.status_code == 302:
        (season,) = seasons
        options_of(season).validate(4 if not options_of(season).blind else 2)
        scoring_of(season)
    else:
        assert seasons == []


def test_players_come_a_hundred_a_page_and_a_rename_lands_on_its_page(signed_in, club,
                                                                      monkeypatch):
    from league.web import organiser

    monkeypatch.setattr(organiser, "PLAYERS_PER_PAGE", 3)
    players = [PlayerFactory(name=name, clubs=[club]) for name in
               ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")]
    url = reverse("league:organise_club", args=[club.pk])
    first = signed_in.get(url).content.decode()
    assert "Ann" in first and "Dan" not in first and "players 1–3 of 7" in first
    third = signed_in.get(url + "?players=3").content.decode()
    assert 'value="Gus"' in third and 'value="Ann"' not in third
    assert signed_in.get(url + "?players=²").status_code == 200
    eve = players[4]
    answer = signed_in.post(reverse("league:organise_player_rename", args=[club.pk, eve.pk]),
                            {"name": "Eva"})
    assert answer["Location"] == url + f"?players=2#player-{eve.pk}"
    answer = signed_in.post(reverse("league:organise_player_rename", args=[club.pk, eve.pk]),
                            {"name": "gus"})
    assert answer.status_code == 400
    page = unescape(answer.content.decode())
    assert 'value="gus"' in page and "already has a player called 'Gus'" in page


@pytest.mark.usefixtures("toy_option")
def test_an_option_in_the_engines_table_alone_reaches_the_form_and_the_kernels_refusal(
        signed_in, club):
    """tests/toy_option.py registers ``toy_rule`` (a specification and a field), friday's:
    the season form labels it, hides it for another preset, saves it as an override, and the
    playout kernel refuses the season's rules."""
    create = reverse("league:organise_season_create", args=[club.pk])
    page = signed_in.get(create + "?preset=friday").content.decode()
    assert f'<span>{TOY.label}</span>' in page
    assert 'aria-describedby="id_toy_rule_helptext"' in page  # the spec's help, shown
    assert f'<p class="hint" id="id_toy_rule_helptext">{TOY.help}</p>' in page
    classic = signed_in.get(create + "?preset=classic").content.decode()
    assert re.search(r'<div class="field check-field" data-presets="school-scum friday"'
                     r'[^>]* hidden>\s*<label class="check" for="id_toy_rule">', classic)
    answer = signed_in.post(create, season_post("friday", toy_rule=True))
    assert answer.status_code == 302
    season = Season.objects.get(name="Spring")
    assert season.options == {"toy_rule": True}
    rules = Rules(options_of(season), 4)
    assert kernel.refused(rules) == ["toy_rule"]
    assert not kernel.supports(rules)
