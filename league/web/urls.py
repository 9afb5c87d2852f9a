from django.urls import path

from league.web import (
    clubs,
    corrections,
    entry,
    games,
    night_actions,
    nights,
    organiser,
    pages,
    players,
    seasons,
    table_links,
)

# Result entry (league.web.entry, league.web.corrections): each thing posted from the entry page
# has its own view and address, under the page's (the service worker's scope); the URL name is
# the view's name.
ENTRY_ACTIONS = (
    ("preview/", entry.deal_preview),
    ("deal/", entry.deal_record),
    ("undo/", entry.deal_undo),
    ("seats/preview/", entry.seat_change_preview),
    ("seats/", entry.seat_change),
    ("same-table/", entry.same_table),
    ("correct/preview/", corrections.correct_preview),
    ("correct/", corrections.correct),
    ("delete/", corrections.deal_delete),
    ("reopen/", corrections.game_reopen),
)

app_name = "league"
urlpatterns = [
    path("", clubs.club_list, name="club_list"),
    path("clubs/<int:club_id>/", clubs.club_detail, name="club_detail"),
    path("seasons/<int:season_id>/", seasons.season_detail, name="season_detail"),
    path("seasons/<int:season_id>/standings.csv", seasons.export_standings,
         name="export_standings"),
    path("seasons/<int:season_id>/results.csv", seasons.export_results, name="export_results"),
    path("seasons/<int:season_id>/transcripts.jsonl", seasons.export_transcripts,
         name="export_transcripts"),
    path("seasons/<int:season_id>/night/", nights.night, name="night"),
    path("seasons/<int:season_id>/night/plan/", nights.night_plan, name="night_plan"),
    path("seasons/<int:season_id>/night/confirm/", nights.night_confirm, name="night_confirm"),
    path("seasons/<int:season_id>/night/table-cards/", table_links.table_cards_sheet,
         name="table_cards"),
    path("table-links/<int:link_id>/revoke/", table_links.table_link_revoke,
         name="table_link_revoke"),
    path("games/<int:game_id>/table-link/new/", table_links.table_link_new,
         name="table_link_new"),
    # A table link (league.web.table_links): its token is the whole of its secret.
    path("t/<str:token>/", table_links.table_link_open, name="table_link_open"),
    path("seasons/<int:season_id>/night/games/<int:game_id>/cancel/",
         night_actions.night_cancel_game, name="night_cancel_game"),
    path("seasons/<int:season_id>/night/rounds/<int:number>/cancel/",
         night_actions.night_cancel_round, name="night_cancel_round"),
    path("seasons/<int:season_id>/night/end/", night_actions.night_end, name="night_end"),
    path("seasons/<int:season_id>/tonight/", nights.tonight, name="tonight"),
    path("seasons/<int:season_id>/tonight.json", nights.tonight_json, name="tonight_json"),
    path("seasons/<int:season_id>/recap/", nights.recap, name="night_recap"),
    path("games/<int:game_id>/", games.game_detail, name="game_detail"),
    path("games/<int:game_id>/time-called/", games.game_time_called, name="game_time_called"),
    path("games/<int:game_id>/enter/", entry.game_enter, name="game_enter"),
    *(path(f"games/<int:game_id>/enter/{address}", view, name=view.__name__)
      for address, view in ENTRY_ACTIONS),
    # Served here, not under static/, so that its scope covers the entry pages.
    path("games/entry-sw.js", entry.entry_service_worker, name="entry_service_worker"),
    path("players/", players.player_search, name="player_search"),
    path("players/<int:player_id>/", players.player_detail, name="player_detail"),
    path("deals/<int:deal_id>/replay/", games.deal_replay, name="deal_replay"),
    path("replay/", games.replay_upload, name="replay_upload"),
    path("rules/", pages.rules, name="rules_index"),
    path("rules/<slug:page>/", pages.rules, name="rules"),
    path("help/ratings/", pages.rating_help, name="rating_help"),
    path("help/par/", pages.par_help, name="par_help"),
    # The organisers' pages (league.web.organiser)
    path("clubs/<int:club_id>/organise/", organiser.club, name="organise_club"),
    path("clubs/<int:club_id>/organise/players/", organiser.player_add,
         name="organise_player_add"),
    path("clubs/<int:club_id>/organise/players/<int:player_id>/", organiser.player_rename,
         name="organise_player_rename"),
    path("clubs/<int:club_id>/organise/seasons/new/", organiser.season_create,
         name="organise_season_create"),
    path("seasons/<int:season_id>/edit/", organiser.season_edit, name="organise_season_edit"),
]
