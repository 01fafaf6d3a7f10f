# The login and sign-up limits' tables move from the scoring app to this one in
# Django's books only: the tables were made by scoring (0002, 0006, 0008) and keep
# their names, so no statement runs against the database.

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("scoring", "0012_money_fits"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LoginAttempt",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("username", models.CharField(db_index=True, max_length=150)),
                        ("ip", models.GenericIPAddressField(blank=True, db_index=True, null=True)),
                        ("at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                    ],
                    options={"db_table": "scoring_loginattempt"},
                ),
                migrations.CreateModel(
                    name="LoginLock",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("key", models.CharField(max_length=200, unique=True)),
                        ("at", models.DateTimeField(db_index=True)),
                    ],
                    options={"db_table": "scoring_loginlock"},
                ),
                migrations.CreateModel(
                    name="SignupAttempt",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("ip", models.GenericIPAddressField(blank=True, db_index=True, null=True)),
                        ("at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                    ],
                    options={"db_table": "scoring_signupattempt"},
                ),
            ],
            database_operations=[],
        ),
    ]
