"""The hall's stored rows become one of two ranked parts: the board's ranked part is
drawn once per change and stored beside them (``services.hall``)."""

import django.db.models.deletion
from django.db import migrations, models


def drop_board_parts(apps, schema_editor):
    apps.get_model("tournaments", "RankedPart").objects.filter(part="board").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_teams"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="hallrows", name="hall_rows_one_per_language"),
        migrations.RenameModel(old_name="HallRows", new_name="RankedPart"),
        migrations.AlterField(
            model_name="rankedpart",
            name="tournament",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ranked_parts",
                to="tournaments.tournament",
            ),
        ),
        migrations.AddField(
            model_name="rankedpart",
            name="part",
            field=models.CharField(
                choices=[("hall", "hall screen"), ("board", "board")], default="hall", max_length=5
            ),
            preserve_default=False,
        ),
        # Rows drawn before this change are drawn again by this release (an empty release never matches).
        migrations.AddField(
            model_name="rankedpart",
            name="release",
            field=models.CharField(default="", max_length=16),
            preserve_default=False,
        ),
        # Going back: the hall's rows stay, one per language again.
        migrations.RunPython(migrations.RunPython.noop, drop_board_parts),
        migrations.AddConstraint(
            model_name="rankedpart",
            constraint=models.UniqueConstraint(
                fields=("tournament", "part", "language"), name="ranked_part_one_per_language"
            ),
        ),
    ]
