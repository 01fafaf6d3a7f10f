from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0017_session_target"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="device",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
    ]
