from django.urls import path

from league.web import pages, views

app_name = "league"
urlpatterns = [
    path("", views.club_list, name="club_list"),
    path("clubs/<int:club_id>/", pages.club_detail, name="club_detail"),
    path("seasons/<int:season_id>/", views.season_detail, name="season_detail"),
    path("seasons/<int:season_id>/standings.csv", views.export_standings,
         name="export_standings"),
    path("seasons/<int:season_id>/results.csv", views.export_results, name="export_results"),
    path("seasons/<int:season_id>/transcripts.jsonl", views.export_transcripts,
         name="export_transcripts"),
    path("games/<int:game_id>/", views.game_detail, name="game_detail"),
    path("games/<int:game_id>/enter/", views.game_enter, name="game_enter"),
    path("games/<int:game_id>/time-called/", views.game_time_called, name="game_time_called"),
    # Served here, not under static/, so that its scope covers the entry pages.
    path("games/entry-sw.js", views.entry_service_worker, name="entry_service_worker"),
    path("players/", pages.player_search, name="player_search"),
    path("players/<int:player_id>/", views.player_detail, name="player_detail"),
    path("deals/<int:deal_id>/replay/", views.deal_replay, name="deal_replay"),
    path("replay/", views.replay_upload, name="replay_upload"),
    path("rules/", pages.rules, name="rules_index"),
    path("rules/<slug:page>/", pages.rules, name="rules"),
    path("help/ratings/", pages.rating_help, name="rating_help"),
]
