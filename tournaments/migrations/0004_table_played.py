from typing import Any

from django.db import migrations, models
from django.db.models import Count, Q


def count_played(apps: Any, schema_editor: Any) -> None:
    """Existing tables: their hands played toward the target (not deleted, not redeals)."""
    TableRound = apps.get_model("tournaments", "TableRound")
    tables = (
        TableRound.objects.filter(session__isnull=False)
        .annotate(
            counted=Count(
                "session__hands",
                filter=Q(session__hands__deleted_at__isnull=True) & ~Q(session__hands__type="redeal"),
            )
        )
        .only("pk")
    )
    for table in tables:
        if table.counted:
            TableRound.objects.filter(pk=table.pk).update(played=table.counted)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_table_opened_by_organiser"),
    ]

    operations = [
        migrations.AddField(
            model_name="tableround",
            name="played",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(count_played, migrations.RunPython.noop),
    ]
