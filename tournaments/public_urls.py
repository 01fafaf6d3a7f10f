"""Pages opened by a link without an account: a table's link (the scorer and
those watching) and the page its short code is typed on, the tournament's board
(players' phones), the hall screen's own link, and the registration link at the
door with the player card it shows."""

from django.urls import URLPattern, URLResolver, path

from plumbing.converters import IdConverter as IdConverter  # registers <id:…>
from tournaments.views import board, door, me, table

urlpatterns: list[URLPattern | URLResolver] = [
    path("t/", table.table_code, name="tournament_table_code"),
    path("t/<str:token>/", table.table_page, name="tournament_table"),
    path("t/<str:token>/hands/new/", table.hand_new, name="tournament_table_hand_new"),
    path("t/<str:token>/hands/preview/", table.hand_preview, name="tournament_table_hand_preview"),
    path("t/<str:token>/hands/<id:hand_id>/", table.hand_detail, name="tournament_table_hand"),
    path("t/<str:token>/hands/<id:hand_id>/edit/", table.hand_edit, name="tournament_table_hand_edit"),
    path(
        "t/<str:token>/hands/<id:hand_id>/edit/preview/",
        table.hand_preview,
        name="tournament_table_hand_edit_preview",
    ),
    path("t/<str:token>/hands/<id:hand_id>/delete/", table.hand_delete, name="tournament_table_hand_delete"),
    path(
        "t/<str:token>/hands/<id:hand_id>/restore/", table.hand_restore, name="tournament_table_hand_restore"
    ),
    path("t/<str:token>/seats/", table.seats, name="tournament_table_seats"),
    path("t/<str:token>/handover/", table.handover, name="tournament_table_handover"),
    path("t/<str:token>/signoff/", table.signoff, name="tournament_table_signoff"),
    path("b/<str:token>/", board.board, name="tournament_board"),
    path("b/<str:token>/me/", me.my_day, name="tournament_my_day"),
    path("b/<str:token>/me/season/", me.my_season, name="tournament_my_season"),
    path("b/<str:token>/season/", me.cup_season, name="tournament_cup_season"),
    path("b/<str:token>/teams/", board.board_teams, name="tournament_board_teams"),
    path("b/<str:token>/players/<int:number>/", board.player_card, name="tournament_player_card"),
    path("h/<str:token>/", board.screen, name="tournament_screen"),
    path("r/<str:token>/", door.door_page, name="tournament_door_page"),
    path("r/<str:token>/card/", door.door_card, name="tournament_door_card"),
]
