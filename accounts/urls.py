from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/token/", views.token_rotate, name="token_rotate"),
    path("bots/", views.bot_list, name="bot_list"),
    path("bots/new/", views.bot_create, name="bot_create"),
    path("bots/<int:bot_id>/", views.bot_edit, name="bot_edit"),
    path("bots/<int:bot_id>/delete/", views.bot_delete, name="bot_delete"),
    path("bots/<int:bot_id>/secret/", views.bot_secret_rotate, name="bot_secret_rotate"),
]
