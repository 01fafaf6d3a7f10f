# The regular table's models move from the scoring app to this one in Django's
# books only: the tables were made by scoring (0008, 0011, 0012) and keep their
# names (db_table), constraints and indexes, so no statement runs against the
# database. Scoring's 0014 then lets go of them.

import django.db.models.deletion
from decimal import Decimal
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('scoring', '0013_login_limits_to_accounts'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Group',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('money_rate', models.DecimalField(blank=True, decimal_places=4, max_digits=8, null=True, verbose_name='money per point')),
                        ('presets', models.JSONField(default=dict)),
                        ('min_hands', models.PositiveIntegerField(default=30, verbose_name='hands for the ranking by average')),
                        ('currency', models.CharField(default='€', max_length=3, verbose_name='currency')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('version', models.PositiveIntegerField(default=1)),
                    ],
                    options={
                        'db_table': 'scoring_group',
                        'ordering': ['name', 'id'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('money_rate__isnull', True), ('money_rate__gt', Decimal('0')), _connector='OR'), name='group_money_rate_positive'), models.CheckConstraint(condition=models.Q(('min_hands__gte', 1)), name='group_min_hands_positive')],
                    },
                ),
                migrations.CreateModel(
                    name='Booking',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('evening', 'evening'), ('payment', 'payment'), ('reversal', 'reversal')], max_length=10)),
                        ('note', models.CharField(blank=True, max_length=200)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('client_token', models.CharField(blank=True, default='', max_length=64)),
                        ('client_digest', models.CharField(blank=True, default='', max_length=32)),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('reverses', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reversed_by', to='club.booking')),
                        ('session', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='bookings', to='scoring.session')),
                        ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='bookings', to='club.group')),
                    ],
                    options={
                        'db_table': 'scoring_booking',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='GroupPlayer',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=40, verbose_name='name')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('hidden_at', models.DateTimeField(blank=True, null=True)),
                        ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='roster', to='club.group')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'scoring_groupplayer',
                        'ordering': ['name', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='EveningResult',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('played_on', models.DateField()),
                        ('variant', models.CharField(max_length=20)),
                        ('hands', models.PositiveIntegerField(default=0)),
                        ('total', models.DecimalField(decimal_places=1, default=Decimal('0'), max_digits=15)),
                        ('money', models.DecimalField(blank=True, decimal_places=2, max_digits=15, null=True)),
                        ('won', models.BooleanField(default=False)),
                        ('best', models.DecimalField(blank=True, decimal_places=1, max_digits=10, null=True)),
                        ('worst', models.DecimalField(blank=True, decimal_places=1, max_digits=10, null=True)),
                        ('counts', models.JSONField(default=dict)),
                        ('best_hand', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.hand')),
                        ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='evening_results', to='scoring.session')),
                        ('worst_hand', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.hand')),
                        ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='evening_results', to='club.group')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='evening_results', to='club.groupplayer')),
                    ],
                    options={
                        'db_table': 'scoring_eveningresult',
                        'ordering': ['played_on', 'session_id'],
                    },
                ),
                migrations.CreateModel(
                    name='BookingLine',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('amount', models.DecimalField(decimal_places=2, max_digits=15)),
                        ('booking', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='lines', to='club.booking')),
                        ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.group')),
                        ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='booking_lines', to='club.groupplayer')),
                    ],
                    options={
                        'db_table': 'scoring_bookingline',
                        'ordering': ['id'],
                    },
                ),
                migrations.CreateModel(
                    name='Invitation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('token', models.CharField(max_length=64, unique=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('expires_at', models.DateTimeField()),
                        ('max_uses', models.PositiveSmallIntegerField(default=1)),
                        ('uses', models.PositiveSmallIntegerField(default=0)),
                        ('revoked_at', models.DateTimeField(blank=True, null=True)),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations', to='club.group')),
                    ],
                    options={
                        'db_table': 'scoring_invitation',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='Membership',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('owner', 'owner'), ('member', 'member')], default='member', max_length=10)),
                        ('joined_at', models.DateTimeField(auto_now_add=True)),
                        ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='club.group')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'scoring_membership',
                        'ordering': ['joined_at', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='RosterChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('action', models.CharField(choices=[('hide', 'hidden'), ('unhide', 'shown again'), ('merge', 'merged')], max_length=10)),
                        ('player_id_was', models.PositiveIntegerField()),
                        ('name', models.CharField(max_length=40)),
                        ('into_name', models.CharField(blank=True, max_length=40)),
                        ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='roster_changes', to='club.group')),
                        ('into', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='club.groupplayer')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'scoring_rosterchange',
                        'ordering': ['-at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='Season',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('starts_on', models.DateField(verbose_name='from')),
                        ('ends_on', models.DateField(verbose_name='to')),
                        ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='club.group')),
                    ],
                    options={
                        'db_table': 'scoring_season',
                        'ordering': ['-starts_on', 'name'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='booking',
                    constraint=models.UniqueConstraint(condition=models.Q(('client_token', ''), _negated=True), fields=('group', 'client_token'), name='booking_client_token_unique'),
                ),
                migrations.AddConstraint(
                    model_name='groupplayer',
                    constraint=models.UniqueConstraint(fields=('group', 'name'), name='group_player_name_unique'),
                ),
                migrations.AddConstraint(
                    model_name='groupplayer',
                    constraint=models.UniqueConstraint(condition=models.Q(('user__isnull', False)), fields=('group', 'user'), name='group_player_user_unique'),
                ),
                migrations.AddIndex(
                    model_name='eveningresult',
                    index=models.Index(fields=['group', 'played_on'], name='evening_result_by_day'),
                ),
                migrations.AddIndex(
                    model_name='eveningresult',
                    index=models.Index(fields=['player', 'played_on'], name='evening_result_by_player'),
                ),
                migrations.AddConstraint(
                    model_name='eveningresult',
                    constraint=models.UniqueConstraint(fields=('session', 'player'), name='evening_result_unique'),
                ),
                migrations.AddConstraint(
                    model_name='invitation',
                    constraint=models.CheckConstraint(condition=models.Q(('uses__lte', models.F('max_uses'))), name='invitation_uses_bounded'),
                ),
                migrations.AddConstraint(
                    model_name='invitation',
                    constraint=models.CheckConstraint(condition=models.Q(('max_uses__gte', 1)), name='invitation_max_uses_positive'),
                ),
                migrations.AddConstraint(
                    model_name='membership',
                    constraint=models.UniqueConstraint(fields=('group', 'user'), name='membership_unique'),
                ),
                migrations.AddConstraint(
                    model_name='season',
                    constraint=models.UniqueConstraint(fields=('group', 'name'), name='season_name_unique'),
                ),
                migrations.AddConstraint(
                    model_name='season',
                    constraint=models.CheckConstraint(condition=models.Q(('ends_on__gte', models.F('starts_on'))), name='season_ends_after_start'),
                ),
            ],
            database_operations=[],
        ),
    ]
