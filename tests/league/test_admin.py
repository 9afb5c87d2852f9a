"""The admin as the organisers' tool: own clubs only, a link to deal entry, leave/join preview."""

import pytest
from django.urls import reverse

from league import services
from league.models import AuditEntry, Deal, SeatChange
from tests.league.factories import ClubFactory, PlayerFactory, UserFactory, make_game, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="org")


@pytest.fixture
def game(organiser):
    club = ClubFactory(name="Mine")
    club.organisers.add(organiser)
    return make_game(season=make_season(club=club, preset="friday", scoring_limit=6), players=5)


def ids(game):
    return list(game.seats.order_by("number").values_list("player_id", flat=True))


def test_organisers_see_and_change_only_their_own_clubs(client, organiser, game):
    other = make_game()
    client.force_login(organiser)

    listing = client.get(reverse("admin:league_game_changelist"))
    assert listing.status_code == 200
    assert str(game) in listing.text and str(other) not in listing.text
    assert client.get(reverse("admin:league_game_change", args=[other.pk])).status_code == 302
    services.deal_record(game=other, finishing_order=ids(other))
    response = client.post(reverse("admin:league_game_seat_change", args=[other.pk]),
                           {"leaving": ids(other)[0], "confirm": "Confirm"})
    assert response.status_code == 404
    assert not SeatChange.objects.exists()
    clubs = client.get(reverse("admin:league_club_changelist")).text
    assert "Mine" in clubs and other.season.club.name not in clubs


def test_staff_who_organise_nothing_cannot_use_the_league_admin(client, game):
    client.force_login(UserFactory(username="bystander"))

    assert client.get(reverse("admin:league_game_changelist")).status_code == 403


def test_the_games_page_sends_deal_entry_to_the_entry_page(client, organiser, game):
    """Deals are entered in one UI, the entry page; the admin's game page links to it and
    shows what was recorded there."""
    client.force_login(organiser)
    page = client.get(reverse("admin:league_game_change", args=[game.pk]))
    entry = reverse("league:game_enter", args=[game.pk])
    assert f'<a href="{entry}" class="button">Enter deal 1 on the entry page</a>' in page.text
    assert 'name="position_1"' not in page.text
    a, b, c, d, e = ids(game)

    client.post(reverse("league:deal_record", args=[game.pk]),
                {"token": "t", "number": 1, "place_1": c, "place_2": a, "place_3": b,
                 "place_4": d, "place_5": e})

    page = client.get(reverse("admin:league_game_change", args=[game.pk]))
    deal = Deal.objects.get(game=game)
    assert list(deal.places.values_list("player_id", flat=True)) == [c, a, b, d, e]
    assert AuditEntry.objects.filter(action="deal recorded", actor=organiser).exists()
    assert "Enter deal 2 on the entry page" in page.text
    assert "Idiot" in page.text  # friday's word for the Scum, in the next deal's roles


def test_leaving_shows_the_shifted_roles_before_confirming(client, organiser, game):
    client.force_login(organiser)
    a, b, c, d, e = ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d, e])
    url = reverse("admin:league_game_seat_change", args=[game.pk])

    preview = client.get(url, {"leaving": a})

    assert preview.status_code == 200
    names = {s.player_id: s.player.name for s in game.seats.select_related("player")}
    assert f"<li>{names[b]} – President</li>" in preview.text
    assert f"<li>{names[c]} – Vice President</li>" in preview.text
    # said as the entry page says it, under the admin's one heading (a walk-through found it
    # twice, and no words)
    assert f"<bdi>{names[b]}</bdi> moves up from Vice President to President" in preview.text
    assert preview.text.count("<h1>") == 1
    assert not SeatChange.objects.exists()

    client.post(url, {"leaving": a, "confirm": "Confirm"})

    assert SeatChange.objects.get().player_id == a
    assert AuditEntry.objects.filter(action="seat change", actor=organiser).exists()


def test_joining_through_the_admin(client, organiser, game):
    client.force_login(organiser)
    services.deal_record(game=game, finishing_order=ids(game))
    newcomer = PlayerFactory(clubs=[game.season.club])

    client.post(reverse("admin:league_game_seat_change", args=[game.pk]),
                {"joining": newcomer.pk, "confirm": "Confirm"})

    assert game.seats.filter(player=newcomer, joined_before=2).exists()


def test_the_admin_offers_no_joiner_seated_at_another_open_table(client, organiser, game):
    """One person, one table (services.seat_change_apply refuses them): the admin's join list
    leaves out who sits at another open game of the club, as the entry page does."""
    other = make_game(season=game.season, players=4)
    client.force_login(organiser)

    page = client.get(reverse("admin:league_game_change", args=[game.pk]))

    joinable = page.context["joinable"]
    assert not set(joinable.values_list("pk", flat=True)) & set(ids(other))


def test_a_season_with_impossible_scoring_is_a_form_error(client, organiser, game):
    client.force_login(organiser)

    response = client.post(reverse("admin:league_season_add"), {
        "club": game.season.club.pk, "name": "Bad", "preset": "classic", "options": "{}",
        "scoring": '{"system": "fixed-rounds"}', "starts_on": "2025-01-01"})

    assert response.status_code == 200
    assert "fixed-rounds needs a number of deals" in response.text
    assert not game.season.club.seasons.filter(name="Bad").exists()


def test_a_season_added_in_the_admin_goes_through_the_service(client, organiser, game):
    client.force_login(organiser)

    client.post(reverse("admin:league_season_add"), {
        "club": game.season.club.pk, "name": "Spring", "preset": "classic", "options": "{}",
        "scoring": '{"system": "penalty", "limit": 5}', "starts_on": "2025-03-01"})

    season = game.season.club.seasons.get(name="Spring")
    assert season.scoring == {"system": "penalty", "limit": 5}
    assert season.rating_job is not None
    assert AuditEntry.objects.filter(action="season created", actor=organiser).exists()


def test_the_audit_trail_is_searchable_and_read_only(client, organiser, game):
    client.force_login(organiser)
    services.deal_record(game=game, finishing_order=ids(game), by=organiser)
    other_club_entry = AuditEntry.objects.create(action="deal recorded", target="elsewhere")

    listing = client.get(reverse("admin:league_auditentry_changelist"), {"q": "deal"})

    assert listing.status_code == 200
    assert "deal recorded" in listing.text and "elsewhere" not in listing.text
    assert other_club_entry.pk
    entry = AuditEntry.objects.filter(club=game.season.club).first()
    response = client.post(reverse("admin:league_auditentry_change", args=[entry.pk]),
                           {"action": "forged"})
    assert AuditEntry.objects.get(pk=entry.pk).action != "forged"
    assert response.status_code == 403


# Clubs and players save through the services (issue 17): their checks, audit and caches.


def test_a_club_renamed_to_another_clubs_name_shows_the_services_error(client, organiser, game):
    ClubFactory(name="Rivals")
    client.force_login(organiser)
    club = game.season.club

    page = client.post(reverse("admin:league_club_change", args=[club.pk]), {"name": "rivals"})

    assert page.status_code == 200
    assert "there is already a club called &#x27;rivals&#x27;" in page.text
    club.refresh_from_db()
    assert club.name == "Mine"


def test_a_club_renamed_in_the_admin_is_audited_by_the_service(client, organiser, game):
    client.force_login(organiser)
    club = game.season.club

    client.post(reverse("admin:league_club_change", args=[club.pk]), {"name": "  Ours "})

    club.refresh_from_db()
    assert club.name == "Ours"
    entry = AuditEntry.objects.get(action="club changed")
    assert entry.actor == organiser and entry.details == {"name": ["Mine", "Ours"]}


def test_a_player_renamed_in_the_admin_shows_at_once_in_the_standings(client, organiser, game):
    client.force_login(organiser)
    services.deal_record(game=game, finishing_order=ids(game))
    season = game.season
    version = type(season).objects.get(pk=season.pk).results_version
    player = game.seats.get(number=0).player

    client.post(reverse("admin:league_player_change", args=[player.pk]),
                {"name": "Renamed", "kind": "person", "clubs": [season.club.pk]})

    assert type(season).objects.get(pk=season.pk).results_version > version
    assert "Renamed" in client.get(reverse("league:season_detail", args=[season.pk])).text
    assert AuditEntry.objects.filter(action="player changed", actor=organiser).exists()


def test_a_player_added_in_the_admin_is_created_by_the_service(client, organiser, game):
    client.force_login(organiser)
    club = game.season.club
    taken = game.seats.get(number=0).player.name

    clash = client.post(reverse("admin:league_player_add"),
                        {"name": taken.upper(), "kind": "person", "clubs": [club.pk]})
    client.post(reverse("admin:league_player_add"),
                {"name": "Newcomer", "kind": "bot", "clubs": [club.pk]})

    assert clash.status_code == 200
    assert f"Mine already has a player called &#x27;{taken}&#x27;" in clash.text
    added = club.players.get(name="Newcomer")
    assert added.kind == "bot"
    assert AuditEntry.objects.filter(action="player created", target="Newcomer").count() == 1


def test_clubs_joined_and_left_in_the_admin_go_through_the_services(client, organiser, game):
    client.force_login(organiser)
    mine = game.season.club
    second = ClubFactory(name="Second")
    second.organisers.add(organiser)
    player = PlayerFactory(name="Mover", clubs=[mine])

    client.post(reverse("admin:league_player_change", args=[player.pk]),
                {"name": "Mover", "kind": "person", "clubs": [second.pk]})

    assert list(player.clubs.all()) == [second]
    actions = set(AuditEntry.objects.filter(target="Mover").values_list("action", "club__name"))
    assert actions == {("player joined club", "Second"), ("player left club", "Mine")}


def test_the_seat_change_form_as_sent_with_one_choice_left_blank(client, organiser):
    """The game page's form sends both selects; "—" is an empty value, not a player."""
    game = make_game(players=4)  # classic: no exchange, so none is shown
    game.season.club.organisers.add(organiser)
    client.force_login(organiser)
    services.deal_record(game=game, finishing_order=ids(game))
    newcomer = PlayerFactory(name="Nina", clubs=[game.season.club])

    preview = client.get(reverse("admin:league_game_seat_change", args=[game.pk]),
                         {"leaving": "", "joining": newcomer.pk})

    assert preview.status_code == 200
    assert "<li>Nina – Citizen</li>" in preview.text
    assert "Exchanges:" not in preview.text


# Found walking the admin as a club's organiser (staff, not a superuser).


def test_an_organiser_sees_no_other_clubs_names_in_the_admin(client, organiser, game):
    """The lists' filters offered every club and every season of the site, and adding a game
    offered every club's players: an organiser sees only their own clubs' names."""
    theirs = make_game(season=make_season(club=ClubFactory(name="Theirs"), name="Their winter"),
                       players=4)
    hidden = ["Theirs", "Their winter"] + [s.player.name for s in theirs.seats.all()]
    client.force_login(organiser)

    for page in ("game_changelist", "deal_changelist", "season_changelist",
                 "player_changelist", "auditentry_changelist", "game_add"):
        text = client.get(reverse(f"admin:league_{page}")).text
        assert [name for name in hidden if name in text] == [], page
    players = client.get(reverse("admin:league_game_add")).text
    assert all(s.player.name in players for s in game.seats.all())


def test_a_game_added_in_the_admin_seats_no_one_still_at_an_open_table(client, organiser, game):
    """One person sits at one table: the night's confirm and a joiner are refused while
    they sit at an open game, but the admin's "Add game" seated them at a second one."""
    client.force_login(organiser)
    newcomers = [PlayerFactory(clubs=[game.season.club]) for _ in range(3)]
    seated = game.seats.get(number=0).player

    answer = client.post(reverse("admin:league_game_add"), {
        "season": game.season.pk, "dealer": 1,
        "players": [seated.pk] + [p.pk for p in newcomers]})

    assert answer.status_code == 200  # the form again, its choices kept, the refusal at it
    assert f'<option value="{seated.pk}" selected>' in answer.text
    assert game.season.games.count() == 1
    assert (f"{seated.name} is still playing at round 1, table 1 (game 1): call time on it "
            "or enter their leaving there first") in answer.text


def test_a_season_change_the_service_refuses_is_not_said_to_be_saved(client, organiser, game):
    """Changing the scoring of a season with deals showed the refusal and, below it, "was
    changed successfully"; the refusal alone is shown and nothing is changed."""
    services.deal_record(game=game, finishing_order=ids(game))
    season = game.season
    client.force_login(organiser)

    answer = client.post(reverse("admin:league_season_change", args=[season.pk]), {
        "club": season.club.pk, "name": "Renamed", "preset": season.preset, "options": "{}",
        "scoring": '{"system": "penalty", "limit": 9}', "starts_on": "2025-01-01",
        "ends_on": ""}, follow=True)

    assert "season with recorded deals cannot change" in answer.text
    assert "successfully" not in answer.text
    season.refresh_from_db()
    assert season.name != "Renamed" and season.scoring["limit"] == 6


def test_a_tournaments_season_is_not_changed_by_hand_in_the_admin(client, organiser):
    """The organiser's pages refuse to edit a bot tournament's season (its rules are the
    tournament's); the admin renamed it."""
    from tests.tournaments.helpers import small_tournament

    season = small_tournament(scoring={"system": "fixed-rounds", "deals": 2}).season
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    change = reverse("admin:league_season_change", args=[season.pk])

    page = client.get(change)
    answer = client.post(change, {
        "club": season.club.pk, "name": "Renamed", "preset": season.preset, "options": "{}",
        "scoring": '{"system": "fixed-rounds", "deals": 2}', "starts_on": "2025-01-01",
        "ends_on": ""})

    assert page.status_code == 200
    assert "its rules are the tournament&#x27;s" in page.text and 'name="name"' not in page.text
    assert answer.status_code == 403
    season.refresh_from_db()
    assert season.name != "Renamed"


def test_a_seasons_club_is_not_offered_as_changeable(client, organiser, game):
    """A season's club could be chosen again on its admin page, and "changed successfully"
    said while the season stayed where it was (no service moves a season): its club is
    shown, not offered."""
    second = ClubFactory(name="Second")
    second.organisers.add(organiser)
    season = game.season
    client.force_login(organiser)
    change = reverse("admin:league_season_change", args=[season.pk])

    assert 'name="club"' not in client.get(change).text
    client.post(change, {
        "club": second.pk, "name": "Moved", "preset": season.preset, "options": "{}",
        "scoring": '{"system": "penalty", "limit": 6}', "starts_on": "2025-01-01",
        "ends_on": ""})

    season.refresh_from_db()
    assert season.club.name == "Mine" and season.name == "Moved"


def test_a_games_admin_page_offers_no_save_for_what_cannot_change(client, organiser, game):
    """Every field of a game's admin page is read-only (deals and seats change through the
    entry page and the seat change), yet it offered three save buttons and, pressed, said
    "changed successfully"."""
    client.force_login(organiser)
    change = reverse("admin:league_game_change", args=[game.pk])

    page = client.get(change).text

    assert 'name="_save"' not in page and 'name="_continue"' not in page
    assert 'name="_addanother"' not in page
    assert 'id="seat-change"' in page or "Enter deal 1 on the entry page" in page


def test_a_deals_admin_page_shows_its_finishing_order_and_where_to_correct_it(client, organiser,
                                                                             game):
    """A deal's admin page showed its game, number and dealer but not who finished where,
    and offered save buttons for fields that are all read-only; it shows the finishing
    order with roles and links the entry page's correction of that deal."""
    deal = services.deal_record(game=game, finishing_order=ids(game)[::-1])
    names = [game.seats.get(player_id=i).player.name for i in ids(game)[::-1]]
    client.force_login(organiser)

    page = client.get(reverse("admin:league_deal_change", args=[deal.pk])).text

    assert ", ".join(names) in page
    assert 'name="_save"' not in page and 'name="_continue"' not in page
    correct = reverse("league:game_enter", args=[game.pk]) + f"?correct={deal.pk}"
    assert f'href="{correct}"' in page


def test_the_admin_numbers_seats_from_1_as_the_pages_do(client, organiser):
    """The admin asked for the first dealer's seat counted from 0 and showed seats 0 to 3,
    where every page says seat 1 first: "Dealer: 1" made the second player deal. Seats count
    from 1 and the dealer is named."""
    club = ClubFactory(name="Mine")
    club.organisers.add(organiser)
    season = make_season(club=club)
    ada, ben, cleo, dev = (PlayerFactory(name=n, clubs=[club]) for n in ("Ada", "Ben", "Cleo",
                                                                        "Dev"))
    client.force_login(organiser)

    form = client.get(reverse("admin:league_game_add")).text
    client.post(reverse("admin:league_game_add"), {
        "season": season.pk, "players": [dev.pk, ben.pk, ada.pk, cleo.pk], "dealer": 1})

    assert "seat 1 first" in form and "seat 0" not in form
    game = season.games.get()
    assert game.dealer == 0 and game.seats.get(number=0).player == ada
    services.deal_record(game=game, finishing_order=[ben.pk, ada.pk, cleo.pk, dev.pk])
    page = client.get(reverse("admin:league_game_change", args=[game.pk])).text
    assert "<td>1</td><td>Ada" in page.replace("\n", "").replace("        ", "")
    assert "Ada (seat 1)" in page
    deal = client.get(reverse("admin:league_deal_change",
                              args=[game.deal_set.get().pk])).text
    assert "Ada (seat 1)" in deal
