from django.db import migrations, models


class Migration(migrations.Migration):
    # A hand's money beside its deltas (Königrufen without Kontra in the Schrift):
    # hands stored before it pay what they write, so null is right for each of them.
    dependencies = [
        ('scoring', '0015_session_variant_any_game'),
    ]

    operations = [
        migrations.AddField(
            model_name='hand',
            name='money',
            field=models.JSONField(blank=True, default=None, null=True),
        ),
    ]
