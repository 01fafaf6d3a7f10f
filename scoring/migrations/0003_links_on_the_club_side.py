"""An evening's group and a seat's roster player are the club's rows now
(``club/migrations/0003``, which copied them): the columns go from the evenings'
tables. A change of the seats gets its own line in the session's history."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_hand_played_index"),
        ("club", "0003_evening_links"),
    ]

    operations = [
        migrations.RemoveField(model_name="session", name="group"),
        migrations.RemoveField(model_name="seat", name="roster"),
        migrations.AlterField(
            model_name="sessionchange",
            name="action",
            field=models.CharField(
                choices=[
                    ("renamed", "renamed"),
                    ("date", "date changed"),
                    ("money_rate", "money per point changed"),
                    ("player", "player's name corrected"),
                    ("rules", "house rules changed"),
                    ("closed", "closed"),
                    ("reopened", "reopened"),
                    ("deleted", "deleted"),
                    ("restored", "restored"),
                    ("reseated", "seats changed"),
                ],
                max_length=12,
            ),
        ),
    ]
