"""The regular table's links to its evenings move to the club's side: an evening's
group (``scoring.Session.group``) becomes a ``GroupSession`` row and a seat's roster
player (``scoring.Seat.roster``) a ``RosterSeat`` row, each copied as it was;
``scoring/migrations/0003`` then drops the old columns. Backwards, the rows are
copied back into those columns (put back first by reversing scoring's 0003)."""

import django.db.models.deletion
from django.db import migrations, models


def links_to_club(apps, schema_editor):
    Session = apps.get_model("scoring", "Session")
    Seat = apps.get_model("scoring", "Seat")
    GroupSession = apps.get_model("club", "GroupSession")
    RosterSeat = apps.get_model("club", "RosterSeat")
    GroupSession.objects.bulk_create(
        GroupSession(session_id=session_id, group_id=group_id)
        for session_id, group_id in Session.objects.filter(group__isnull=False)
        .values_list("pk", "group_id")
        .iterator()
    )
    RosterSeat.objects.bulk_create(
        RosterSeat(seat_id=seat_id, player_id=player_id)
        for seat_id, player_id in Seat.objects.filter(roster__isnull=False)
        .values_list("pk", "roster_id")
        .iterator()
    )


def links_to_scoring(apps, schema_editor):
    Session = apps.get_model("scoring", "Session")
    Seat = apps.get_model("scoring", "Seat")
    GroupSession = apps.get_model("club", "GroupSession")
    RosterSeat = apps.get_model("club", "RosterSeat")
    for session_id, group_id in GroupSession.objects.values_list("session_id", "group_id").iterator():
        Session.objects.filter(pk=session_id).update(group_id=group_id)
    for seat_id, player_id in RosterSeat.objects.values_list("seat_id", "player_id").iterator():
        Seat.objects.filter(pk=seat_id).update(roster_id=player_id)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0002_initial"),
        ("scoring", "0002_hand_played_index"),
    ]

    operations = [
        migrations.CreateModel(
            name="GroupSession",
            fields=[
                (
                    "session",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="group_link",
                        serialize=False,
                        to="scoring.session",
                    ),
                ),
                (
                    "group",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="group_sessions",
                        to="club.group",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="RosterSeat",
            fields=[
                (
                    "seat",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="roster_link",
                        serialize=False,
                        to="scoring.seat",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seats",
                        to="club.groupplayer",
                    ),
                ),
            ],
        ),
        migrations.RunPython(links_to_club, links_to_scoring),
    ]
