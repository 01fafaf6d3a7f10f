"""Tournaments, cups and their seasons (``TOURNAMENTS.md`` §8).

A tournament ties many table-rounds together; each table-round is one ordinary
``scoring.Session`` (created when the table is first opened), so hands, their
history, the sheet, sharing and the PDF work there as for any evening. What the
ranking reads is ``RoundResult``: one row per entrant and round, rewritten in
the same transaction as every change to its table, never the hands themselves.
The pure rules (draw, ranking, cup points, the tournament file) are
``tournaments.core``; these models hold what was decided and played.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.models import NAME_LENGTH, Player, Session, variant_choices


class Cup(models.Model):
    """A series of tournaments over a season, ranked by cup points (§5)."""

    class Scheme(models.TextChoices):
        FIXED = "fixed", _("fixed table")
        HEINE = "heine", _("Heine points")
        TIROL_FORMULA = "tirol_formula", _("Tirol formula")
        CUSTOM = "custom", _("own table")

    class FinalMode(models.TextChoices):
        EXTRA = "extra", _("on top of the best results")
        REGULAR = "regular", _("as one more tournament")
        NONE = "none", _("not counted")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cups")
    group = models.ForeignKey(
        "club.Group", null=True, blank=True, on_delete=models.SET_NULL, related_name="cups"
    )
    name = models.CharField(_("name"), max_length=80)
    season = models.CharField(_("season"), max_length=40)
    starts_on = models.DateField(_("first day"), null=True, blank=True)
    ends_on = models.DateField(_("last day"), null=True, blank=True)
    scheme = models.CharField(_("cup points"), max_length=16, choices=Scheme.choices, default=Scheme.FIXED)
    points_table = models.JSONField(default=list, blank=True)  # custom: points of places 1, 2, …
    best_n = models.CharField(_("results counted"), max_length=8, default="6")  # a number, "all" or "half"
    final_mode = models.CharField(
        _("the final"), max_length=8, choices=FinalMode.choices, default=FinalMode.EXTRA
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    # The circuit the cup belongs to (§14.1: at most one); its register entries are
    # linked to the circuit's register when it joins (``circuit.cup_join``).
    circuit = models.ForeignKey(
        "Circuit", null=True, blank=True, on_delete=models.SET_NULL, related_name="cups"
    )
    # What the circuit's organisers set for this cup's season (§14.7): its table of
    # Vorrundenpunkte (``A``, ``B``, ``C`` or ``custom`` with ``circuit_tier_table``),
    # the participations that qualify, and whether it qualifies for the final at all.
    circuit_tier = models.CharField(max_length=8, default="B")
    circuit_tier_table = models.JSONField(default=list, blank=True)
    circuit_min_events = models.PositiveSmallIntegerField(default=4)
    circuit_qualifies = models.BooleanField(default=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"


class CupPlayer(models.Model):
    """One name in a cup's player register; merged entries point at the one kept."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    place = models.CharField(_("place or club"), max_length=60, blank=True)
    roster = models.ForeignKey(
        "club.GroupPlayer", null=True, blank=True, on_delete=models.SET_NULL, related_name="cup_players"
    )
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The circuit's register entry this name is, once the cup joined a circuit: the
    # cup's entrants and results stay where they are and reach the circuit through it.
    circuit_player = models.ForeignKey(
        "CircuitPlayer", null=True, blank=True, on_delete=models.SET_NULL, related_name="cup_entries"
    )

    class Meta:
        ordering = ["name", "place", "id"]

    def __str__(self) -> str:
        return self.name


class TeamKind(models.TextChoices):
    """What teams a tournament plays (§14.6, ``core.circuit.TEAM_KINDS``)."""

    NONE = "none", _("no teams")
    PAIRS = "pairs", _("pairs")
    FOURS = "fours", _("fours")
    CLUBS = "clubs", _("clubs")


class Tournament(models.Model):
    """A tournament day: one game and house rules for every table, its settings (§11)."""

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        PROVISIONAL = "provisional", _("provisional")
        FINAL = "final", _("final")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournaments")
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_tournaments"
    )
    name = models.CharField(_("name"), max_length=80)
    played_on = models.DateField(_("day"))
    variant = models.CharField(_("game"), max_length=20, choices=variant_choices)
    options = models.JSONField(default=dict)  # the house rules, as in a session file
    money_rate = models.DecimalField(
        _("money per point"), null=True, blank=True, max_digits=9, decimal_places=4
    )
    settings = models.JSONField(default=dict)  # every setting of §11 with the value in force
    seed = models.CharField(max_length=6)  # the draw number, six digits
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    group = models.ForeignKey(
        "club.Group", null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    cup = models.ForeignKey(Cup, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments")
    cup_final = models.BooleanField(default=False)
    cup_factor = models.PositiveSmallIntegerField(default=1)
    # The venue's region ("Wien", "Niederösterreich"): what a cup's ``venue`` side
    # ranking keeps or leaves out (§14.4, "Out-of-Vienna").
    region = models.CharField(_("venue region"), max_length=60, blank=True, default="")
    # Teams (§14.6): ``none``, ``pairs``, ``fours`` or ``clubs``, named before round 1
    # (``Team``); a ``clubs`` team counts its best ``team_best`` members.
    # ``team_prizes``: the prize texts of the team ranking's places 1, 2, … (§4.5).
    teams = models.CharField(_("teams"), max_length=6, choices=TeamKind.choices, default=TeamKind.NONE)
    team_best = models.PositiveSmallIntegerField(_("best members counted"), default=4)
    team_prizes = models.JSONField(default=list, blank=True)
    board_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # The hall screen's own link (``/h/<token>/``), shown to the organisers only:
    # never counted with the public board's phones. Given and taken with the board.
    screen_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # The registration link at the door (``/r/<token>/``, §14.2): given and taken by
    # the organisers on the control page, only for a tournament of a cup in a circuit.
    door_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # Bumped with every change the board and the hall screen compare their polls
    # with: a table locked or opened again, an organiser's change; never a hand at
    # a running table (its hands are read from its session where a page shows them).
    version = models.PositiveIntegerField(default=1)
    # Bumped only when what the ranking counts may have changed (a table locked,
    # opened or corrected while counted; any organiser's change).
    results_version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)  # made final
    # The last raffle of the material prizes (§4.5, ``services.raffle``): who was
    # present, who had won money then, and each prize with the start number drawn.
    raffle = models.JSONField(null=True, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-played_on", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(money_rate__isnull=True) | Q(money_rate__gt=Decimal(0)),
                name="tournament_money_rate_positive",
            ),
            models.CheckConstraint(condition=Q(cup_factor__in=[1, 2]), name="tournament_cup_factor_1_or_2"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def ranking_key(self) -> str:
        """This version of the tournament's board, for cache keys (as ``Session.sheet_key``)."""
        return f"{self.pk}.{self.version}.{self.created_at.timestamp():.6f}"

    @property
    def results_key(self) -> str:
        """This version of what the ranking counts, for cache keys: the standings and
        the ranking's HTML are built once per results version, however many hands
        the running tables record meanwhile."""
        return f"{self.pk}.r{self.results_version}.{self.created_at.timestamp():.6f}"


class Entrant(models.Model):
    """Someone registered for a tournament, with a start number (§1.2)."""

    class Kind(models.TextChoices):
        PLAYER = "player", _("player")
        FILLER = "filler", _("filler")

    class Status(models.TextChoices):
        ACTIVE = "active", _("playing")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    number = models.PositiveIntegerField()  # the start number, 1, 2, …
    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    place = models.CharField(_("place or club"), max_length=60, blank=True)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    roster = models.ForeignKey(
        "club.GroupPlayer", null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    cup_player = models.ForeignKey(
        CupPlayer, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PLAYER)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    left_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_round = models.PositiveSmallIntegerField(default=1)  # a late entry's first round
    fee_paid = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entrant_number_unique"),
            models.UniqueConstraint(fields=["tournament", "name"], name="entrant_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    """Round k of a tournament: planned → drawn → released → complete (§1.3)."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        DRAWN = "drawn", _("drawn")
        RELEASED = "released", _("released")
        COMPLETE = "complete", _("complete")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    draw = models.JSONField(default=dict)  # seed, method, byes, changes
    drawn_at = models.DateTimeField(null=True, blank=True)
    released_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"{self.tournament_id} R{self.number}"


class TableRound(models.Model):
    """One table in one round; its hands are an ordinary session (§1.5)."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")  # round not released
        OPEN = "open", _("open")  # released, no hand yet
        PLAYING = "playing", _("playing")
        COMPLETE = "complete", _("complete")  # target reached, not signed
        SIGNED = "signed", _("signed")
        ENDED = "ended", _("ended early")
        DESK = "desk", _("entered at the desk")

    # Signed, ended or typed in: its link is read-only and its sums are in the ranking.
    LOCKED = frozenset({Status.SIGNED, Status.ENDED, Status.DESK})

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    size = models.PositiveSmallIntegerField()
    hands_target = models.PositiveSmallIntegerField()
    first_dealer = models.PositiveSmallIntegerField(default=1)  # seat position, 1-based
    session = models.OneToOneField(
        Session, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_table"
    )
    link_token = models.CharField(max_length=64, unique=True)
    short_code = models.CharField(max_length=8)  # typed when the QR code cannot be read
    claim_digest = models.CharField(max_length=64, blank=True, default="")
    claimed_at = models.DateTimeField(null=True, blank=True)
    handover_digest = models.CharField(max_length=64, blank=True, default="")
    handover_until = models.DateTimeField(null=True, blank=True)
    # Wrong codes tried against the current hand-over code, counted under the table's
    # row lock, so however many arrive at once only ``tables.HANDOVER_TRIES`` are compared.
    handover_wrong = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    signed_at = models.DateTimeField(null=True, blank=True)
    scorer_name = models.CharField(max_length=NAME_LENGTH, blank=True)
    checker_name = models.CharField(max_length=NAME_LENGTH, blank=True)
    end_reason = models.CharField(max_length=200, blank=True)
    desk_sums = models.JSONField(null=True, blank=True)  # {start number: points}, a paper sheet typed in
    # Opened again by the organiser for corrections (§3.5): until it is locked
    # again only the organiser changes it; its link shows the table read-only.
    opened_by_organiser = models.BooleanField(default=False)
    # Hands played toward the target (redeals and deleted hands not counted), written
    # with the table's results when it locks (``results.table_changed``); a running
    # table's are read from its session (``results.live_played``).
    played = models.PositiveSmallIntegerField(default=0)
    # Minutes the organiser gave this table beyond the round's clock (§3.6,
    # ``desk.table_give_minutes``): shown on its phone and the control page.
    extra_minutes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique_per_round"),
            models.CheckConstraint(condition=Q(size__in=[4, 5]), name="table_size_4_or_5"),
        ]

    def __str__(self) -> str:
        return f"R{self.round_id} T{self.number}"

    @property
    def link_writes(self) -> bool:
        """Whether the table's link may record: not locked, not opened by the
        organiser for corrections (the tournament's state is the caller's)."""
        return not self.is_locked and not self.opened_by_organiser

    @property
    def is_locked(self) -> bool:
        """Signed, ended or typed in: its link is read-only and its sums are in the ranking."""
        return self.status in self.LOCKED


class TableSeat(models.Model):
    """An entrant's seat at a table of a round; one seat per entrant and round."""

    table = models.ForeignKey(TableRound, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()  # 1-based, playing order

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="one_seat_per_entrant_and_round"),
            models.UniqueConstraint(fields=["table", "position"], name="one_entrant_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}.{self.position}"


class RoundResult(models.Model):
    """An entrant's result in one round, as the ranking reads it (§4.1)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="results")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="results")
    table = models.ForeignKey(
        TableRound, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    points = models.DecimalField(max_digits=12, decimal_places=1, default=Decimal(0))
    counted = models.BooleanField(default=False)  # the table is signed, ended or typed in
    money = models.DecimalField(null=True, blank=True, max_digits=15, decimal_places=2)
    kontra_cash = models.DecimalField(null=True, blank=True, max_digits=15, decimal_places=2)
    table_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    hands_played = models.PositiveSmallIntegerField(default=0)
    bye = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "entrant"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="one_result_per_entrant_and_round")
        ]

    def __str__(self) -> str:
        return f"{self.round_id}: {self.entrant_id} {self.points}"


class RankingSnapshot(models.Model):
    """The standings as last built, one row per tournament, for the version of what
    the ranking counts (``Tournament.results_version``): every server process reads
    this row after a change instead of building the ranking again
    (``results.standings``)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="ranking_snapshot"
    )
    results_version = models.PositiveIntegerField()
    standings = models.JSONField()

    def __str__(self) -> str:
        return f"{self.tournament_id} r{self.results_version}"


class RankedPart(models.Model):
    """A ranked part of the hall's pages as drawn from the standings' snapshot, one
    row per tournament, part and language, for the snapshot's results version: the
    hall screen's ranked rows (``HALL``) and the board's ranked part (``BOARD``: the
    ranking, the side rankings, the seating plan), drawn once after a change and read
    by every server process instead of drawing them again (``services.hall``, the
    hall's fast path). ``pages``, ``final``, ``provisional``: what the hall screen
    shows around its rows. Drawn again for a new results version and by a new release."""

    class Part(models.TextChoices):
        HALL = "hall", "hall screen"
        BOARD = "board", "board"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ranked_parts")
    part = models.CharField(max_length=5, choices=Part.choices)
    language = models.CharField(max_length=8)
    results_version = models.PositiveIntegerField()
    # The release that drew it (``plumbing.offline.cache_version``, the fingerprint of
    # the code, templates and translations): a new release draws it again.
    release = models.CharField(max_length=16)
    html = models.TextField()
    pages = models.PositiveIntegerField()
    final = models.BooleanField()
    provisional = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "part", "language"], name="ranked_part_one_per_language"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.part} {self.language} r{self.results_version}"


class SideRanking(models.Model):
    """A side ranking of a cup or of a tournament (§14.4): a name, a filter and
    optional prizes; it never changes the main ranking. ``kind``: ``category``
    (entrants whose register entry has the category ``value``), ``region`` /
    ``region_not`` (a cup's: the tournaments whose venue region is / is not
    ``value``), ``home`` (a tournament's: entrants whose place is the town
    ``value``). ``prizes``: the prize texts of its places 1, 2, …"""

    class Kind(models.TextChoices):
        CATEGORY = "category", _("category")
        REGION = "region", _("venue region is")
        REGION_NOT = "region_not", _("venue region is not")
        HOME = "home", _("home town")

    cup = models.ForeignKey(
        Cup, null=True, blank=True, on_delete=models.CASCADE, related_name="side_rankings"
    )
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="side_rankings"
    )
    name = models.CharField(_("name"), max_length=60)
    kind = models.CharField(_("filter"), max_length=12, choices=Kind.choices)
    value = models.CharField(_("value"), max_length=NAME_LENGTH)
    prizes = models.JSONField(default=list, blank=True)
    one_prize_per_player = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(cup__isnull=True, tournament__isnull=False)
                | Q(cup__isnull=False, tournament__isnull=True),
                name="side_ranking_of_a_cup_or_a_tournament",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """A team of a tournament (§14.6): a name and its members, entrants of the
    tournament, each in one team at most (``TeamMember``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="team_rows")
    name = models.CharField(_("name"), max_length=60)
    members: models.ManyToManyField[Entrant, TeamMember] = models.ManyToManyField(
        Entrant, through="TeamMember", related_name="teams"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """An entrant in a team: one team per entrant, by the database."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="memberships")

    class Meta:
        ordering = ["team", "id"]
        constraints = [models.UniqueConstraint(fields=["entrant"], name="one_team_per_entrant")]

    def __str__(self) -> str:
        return f"{self.team_id}: {self.entrant_id}"


class TournamentPlace(models.Model):
    """An entrant's place, written when the ranking is provisional and again when final."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="places")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="places")
    place = models.PositiveIntegerField()
    total = models.DecimalField(max_digits=12, decimal_places=1)
    tie_note = models.CharField(max_length=80, blank=True)
    cup_points = models.DecimalField(max_digits=9, decimal_places=2, default=Decimal(0))
    final = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "place"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "entrant"], name="one_place_per_entrant")
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.entrant_id}"


class TournamentChange(models.Model):
    """The audit: every draw, redraw, swap, move, withdrawal, end, opening, sign-off, reopening."""

    class Action(models.TextChoices):
        CREATE = "create", _("created")
        ENTER = "enter", _("entrant added")
        DRAW = "draw", _("drawn")
        REDRAW = "redraw", _("drawn again")
        RELEASE = "release", _("released")
        SWAP = "swap", _("swapped")
        MOVE = "move", _("moved")
        WITHDRAW = "withdraw", _("withdrawn")
        END = "end", _("ended early")
        OPEN = "open", _("table opened")
        SIGN = "sign", _("signed")
        DESK = "desk", _("typed in at the desk")
        CLAIM = "claim", _("table claimed")
        REISSUE = "reissue", _("link reissued")
        PROVISIONAL = "provisional", _("provisional")
        FINAL = "final", _("made final")
        REOPEN = "reopen", _("reopened")
        SETTINGS = "settings", _("settings changed")
        RAFFLE = "raffle", _("prizes drawn")
        TIME = "time", _("extra minutes given")
        DOOR = "door", _("registration at the door")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=12, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    device = models.CharField(max_length=40, blank=True)  # a table phone's label
    at = models.DateTimeField(auto_now_add=True)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    client_token = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.action}"


class CupChange(models.Model):
    """The cup's audit: two register entries merged into one, with who and when."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=12)  # "merge"
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.cup_id} {self.action}"


# -- the circuit (§14) --------------------------------------------------------------------
#
# The circuit lives in the tournaments app, beside the cups: its register is what
# the cups' registers (``CupPlayer``) are linked to, its cups are ``Cup`` rows with
# a circuit, and its final will be a ``Tournament``. An app of its own would reach
# into these tables from the other side of every relation; the rules stay apart all
# the same, in ``tournaments.core.circuit``.


class Circuit(models.Model):
    """Many cups with one register of players known by number (§14.1). Its
    organisers (the owner and the accounts named) see and keep the register; the
    owners of its cups see the circuit and its cups, never the register's list."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="circuits")
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_circuits"
    )
    name = models.CharField(_("name"), max_length=80)
    season = models.CharField(_("season"), max_length=40)
    # The register's categories in order (``circuit_create`` gives §14.1's three).
    categories = models.JSONField(default=list)
    # The season's final (§14.7): a tournament of a cup of the circuit that does not
    # qualify itself; ``open_final`` off, only qualified players are entered in it.
    final = models.ForeignKey(
        "Tournament", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    open_final = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"


class CircuitPlayer(models.Model):
    """A register entry: a player known by a number across the circuit's cups
    (§14.1). A merged entry keeps its row and number (an alias that still finds
    the player, never given again) and points at the entry kept."""

    class PublicName(models.TextChoices):
        FULL = "full", _("full name")
        SHORT = "short", _("given name shortened")

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveIntegerField()
    family = models.CharField(_("family name"), max_length=NAME_LENGTH)
    given = models.CharField(_("given name"), max_length=NAME_LENGTH, blank=True)
    place = models.CharField(_("place"), max_length=NAME_LENGTH, blank=True)
    # ``core.circuit.register_key`` joined by U+001F: what two entries are matched by.
    match_key = models.CharField(max_length=3 * 4 * NAME_LENGTH + 2)
    categories = models.JSONField(default=list, blank=True)
    public_name = models.CharField(max_length=8, choices=PublicName.choices, default=PublicName.FULL)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="aliases"
    )
    # Django's password hash of the four-digit PIN (§14.2); "" until one is given.
    pin_hash = models.CharField(max_length=200, blank=True, default="")
    pin_set_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["circuit", "number"]
        constraints = [
            models.UniqueConstraint(fields=["circuit", "number"], name="circuit_player_number_unique"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=999_999), name="circuit_player_number_range"
            ),
        ]
        indexes = [models.Index(fields=["circuit", "match_key"], name="circuit_player_by_key")]

    def __str__(self) -> str:
        return f"{self.number} {self.family} {self.given}"


class CircuitPinTry(models.Model):
    """A wrong PIN typed for a register entry: three within 15 minutes and the
    number registers only at the desk (§14.2, ``core.circuit.pin_blocked``)."""

    entry = models.ForeignKey(CircuitPlayer, on_delete=models.CASCADE, related_name="pin_tries")
    at = models.DateTimeField()

    class Meta:
        ordering = ["entry", "at"]
        indexes = [models.Index(fields=["entry", "at"], name="circuit_pin_try_by_entry")]

    def __str__(self) -> str:
        return f"{self.entry_id} {self.at}"


class CircuitImport(models.Model):
    """A register import shown as a preview and waiting for its confirmation
    (§14.1: nothing is written to the register before). ``result``: what the
    confirmation wrote, so a second confirmation writes nothing again."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="imports")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    data = models.BinaryField()
    preview_digest = models.CharField(max_length=64)  # what the preview showed
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.circuit_id} import {self.pk}"


class CircuitChange(models.Model):
    """The circuit's audit: created, entries added, an import, a cup joining with
    how each of its names was matched, merges with before and after, PINs given."""

    class Action(models.TextChoices):
        CREATE = "create", _("created")
        ADD = "add", _("player added")
        IMPORT = "import", _("register imported")
        JOIN = "join", _("cup joined")
        MERGE = "merge", _("entries merged")
        PIN = "pin", _("PIN given")
        DOOR = "door", _("registered at the door")
        TIER = "tier", _("cup's tier set")
        FINAL = "final", _("final set")
        FILE = "file", _("circuit file imported")
        PUBLIC = "public", _("name on public pages set")

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=8, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    client_token = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.circuit_id} {self.action}"


class DoorEntry(models.Model):
    """A player registered at the door on her phone through the tournament's
    registration link (§14.2): her register entry and the phone it came from,
    waiting for the desk. Only the desk's acceptance makes her an entrant (its
    ``entrant``), so only accepted players are drawn; one entry per phone and one
    per register entry in each tournament. Struck by the desk, the row goes."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="door_entries")
    player = models.ForeignKey(CircuitPlayer, on_delete=models.CASCADE, related_name="door_entries")
    phone = models.CharField(max_length=64)  # a digest of the phone's registration cookie
    new = models.BooleanField(default=False)  # registered as new at the door (number and PIN given)
    created_at = models.DateTimeField(auto_now_add=True)
    entrant = models.OneToOneField(
        Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="door_entry"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "phone"], name="door_entry_one_per_phone"),
            models.UniqueConstraint(fields=["tournament", "player"], name="door_entry_one_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} door {self.player_id}"
