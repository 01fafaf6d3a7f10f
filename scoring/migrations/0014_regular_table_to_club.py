# The regular table now belongs to the club app (its 0001 takes the models over
# in Django's books): scoring lets go of them, and an evening's group and a seat's
# roster player point at club's models. State only: the tables, their columns and
# foreign keys stay exactly as they are.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0001_initial'),
        ('scoring', '0013_login_limits_to_accounts'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='bookingline',
                    name='booking',
                ),
                migrations.RemoveField(
                    model_name='bookingline',
                    name='group',
                ),
                migrations.RemoveField(
                    model_name='bookingline',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='eveningresult',
                    name='best_hand',
                ),
                migrations.RemoveField(
                    model_name='eveningresult',
                    name='group',
                ),
                migrations.RemoveField(
                    model_name='eveningresult',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='eveningresult',
                    name='session',
                ),
                migrations.RemoveField(
                    model_name='eveningresult',
                    name='worst_hand',
                ),
                migrations.RemoveField(
                    model_name='season',
                    name='group',
                ),
                migrations.RemoveField(
                    model_name='rosterchange',
                    name='group',
                ),
                migrations.AlterField(
                    model_name='session',
                    name='group',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='sessions', to='club.group'),
                ),
                migrations.RemoveField(
                    model_name='membership',
                    name='group',
                ),
                migrations.RemoveField(
                    model_name='groupplayer',
                    name='group',
                ),
                migrations.RemoveField(
                    model_name='invitation',
                    name='group',
                ),
                migrations.RemoveField(
                    model_name='groupplayer',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='rosterchange',
                    name='into',
                ),
                migrations.AlterField(
                    model_name='seat',
                    name='roster',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='club.groupplayer'),
                ),
                migrations.RemoveField(
                    model_name='invitation',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='membership',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='rosterchange',
                    name='user',
                ),
                migrations.DeleteModel(
                    name='Booking',
                ),
                migrations.DeleteModel(
                    name='BookingLine',
                ),
                migrations.DeleteModel(
                    name='EveningResult',
                ),
                migrations.DeleteModel(
                    name='Season',
                ),
                migrations.DeleteModel(
                    name='Group',
                ),
                migrations.DeleteModel(
                    name='GroupPlayer',
                ),
                migrations.DeleteModel(
                    name='Invitation',
                ),
                migrations.DeleteModel(
                    name='Membership',
                ),
                migrations.DeleteModel(
                    name='RosterChange',
                ),
            ],
            database_operations=[],
        ),
    ]
