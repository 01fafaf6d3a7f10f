"""The hall screen's own link: a tournament whose board is shared gets one now,
as ``results.board_share`` gives it from now on."""

import secrets
from typing import Any

from django.db import migrations, models


def give_screen_links(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.filter(board_token__isnull=False, screen_token__isnull=True):
        tournament.screen_token = secrets.token_urlsafe(24)
        tournament.save(update_fields=["screen_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_raffle"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="screen_token",
            field=models.CharField(blank=True, max_length=64, null=True, unique=True),
        ),
        migrations.RunPython(give_screen_links, migrations.RunPython.noop),
    ]
