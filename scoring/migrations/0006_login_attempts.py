# Failed logins become attempts, recorded before the password is checked, and each
# user name and address gets a row to lock while its attempts are counted.

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0005_session_played_on'),
    ]

    operations = [
        migrations.RenameModel(
            old_name='LoginFailure',
            new_name='LoginAttempt',
        ),
        migrations.AlterField(
            model_name='loginattempt',
            name='at',
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now),
        ),
        migrations.CreateModel(
            name='LoginLock',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=200, unique=True)),
                ('at', models.DateTimeField(db_index=True)),
            ],
        ),
    ]
