# The login and sign-up limits now belong to the accounts app (its 0001 takes
# them over in Django's books): only the scoring app's idea of them goes, the
# tables stay as they are.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0012_money_fits"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="LoginAttempt"),
                migrations.DeleteModel(name="LoginLock"),
                migrations.DeleteModel(name="SignupAttempt"),
            ],
            database_operations=[],
        ),
    ]
