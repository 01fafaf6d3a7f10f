"""Illustriertes Tarock for three players, 54 cards (docs/rules.md §2).

Players write only what they win: a won game gives the declarer
``(G + (points − 35)) · M · K``, a lost one gives each opponent
``(G + (35 − points)) · M · K``; each premium is worth
``base · announcement factor · M · K`` to whoever made it, or, announced and
failed, to each player of the other side. A valat adds to (``beck_additive``)
or multiplies (``beck_factor``, ``graz``) what its side is credited. Trischaken
and the Mondfang are the only scores below zero. Scores run in series; the
game becomes zero-sum only at settlement, pair by pair within each series.

Profile ``beck`` (Fritz Beck) lets one Kontra level double every value of the
hand; profile ``graz`` gives the game, each announced premium and the valat
their own level, knows the Mondfang, and allows fewer announcements.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .schema import Field, Kind, clean, label_at
from .settlement import pairwise_net
from .tarock54 import (
    CARD_LIMIT,
    CARD_VALUE,
    KONTRA_LABEL,
    POINTS,
    card_thirds,
    kontra_factor,
    kontra_field,
)
from .types import (
    Arg,
    Formula,
    HandScore,
    HandType,
    Join,
    Line,
    Signed,
    Table,
    deltas_line,
    gettext_noop,
    invalid,
    labels,
    names,
    zero_deltas,
)
from .variant import (
    SERIES,
    CardCounter,
    HandRecord,
    HandStats,
    Section,
    StoredHand,
    Summary,
    VariantOf,
    seat_stats,
)

TOTAL = POINTS  # the card points of the whole deck
TO_WIN = 36
RENONCE_SURPLUS = 10
MONDFANG = 5
# Illustriertes' own kind of hand: everyone passed and the hand is played as Trischaken.
TRISCHAKEN = HandType("trischaken", gettext_noop("Trischaken"))
TRISCHAKEN_LOSS = -10
TRISCHAKEN_WIN = 5
TRISCHAKEN_NO_TRICK = 5
TALON = 6


class Profile(StrEnum):
    BECK = "beck"
    GRAZ = "graz"


class ValatScoring(StrEnum):
    BECK_ADDITIVE = "beck_additive"
    BECK_FACTOR = "beck_factor"
    GRAZ = "graz"


class AllPass(StrEnum):
    REDEAL = "redeal"
    TRISCHAKEN = "trischaken"
    TALON_KEEP = "talon_keep"


class Game(StrEnum):
    DREIBLATT = "dreiblatt"
    ZWEIBLATT = "zweiblatt"
    EINBLATT = "einblatt"
    SOLO = "solo"


class Bid(StrEnum):
    ANNOUNCED = "announced"
    UNTERER = "unterer"
    HELD = "held"


class Announced(StrEnum):
    SILENT = "silent"
    AFTER_TALON = "after_talon"
    BEFORE_TALON = "before_talon"


class PremiumType(StrEnum):
    KOENIGSTRULL = "koenigstrull"
    TAROCKTRULL = "tarocktrull"
    KOEPFE = "koepfe"
    OHNE_KOENIGE = "ohne_koenige"
    OHNE_TRULL = "ohne_trull"
    VIERZIG = "vierzig"
    FUENFZIG = "fuenfzig"
    PAGAT = "pagat"
    UHU = "uhu"


class ValatBy(StrEnum):
    DECLARER = "declarer"
    OPPONENTS = "opponents"


MULTIPLIER = {Game.DREIBLATT: 1, Game.ZWEIBLATT: 2, Game.EINBLATT: 3, Game.SOLO: 4}
TALON_TAKEN = {Game.DREIBLATT: 3, Game.ZWEIBLATT: 2, Game.EINBLATT: 1, Game.SOLO: 0}
GAME_LABEL = {
    Game.DREIBLATT: gettext_noop("Dreiblatt"),
    Game.ZWEIBLATT: gettext_noop("Zweiblatt"),
    Game.EINBLATT: gettext_noop("Einblatt"),
    Game.SOLO: gettext_noop("Solo"),
}
# The game's own words in every language, short enough to sit side by side as
# buttons; the field's help says what each means in the reader's language.
BID_LABEL = {
    Bid.ANNOUNCED: gettext_noop("angesagt"),
    Bid.UNTERER: gettext_noop("Unterer"),
    Bid.HELD: gettext_noop("gehalten"),
}
# What a held game counted in a breakdown: the number differs between the rule books.
HELD_POINTS = gettext_noop(
    "gehalten counts {points}: Beck 5, the Wikipedia example 4, set under “Game points by bid”"
)
ANNOUNCED_LABEL = {
    Announced.SILENT: gettext_noop("silent"),
    Announced.AFTER_TALON: gettext_noop("after the talon"),
    Announced.BEFORE_TALON: gettext_noop("before the talon"),
}
# How a premium (or the valat) reads with its announcement.
ANNOUNCED_TEMPLATE = {
    Announced.SILENT: gettext_noop("silent {premium}"),
    Announced.AFTER_TALON: gettext_noop("{premium} after the talon"),
    Announced.BEFORE_TALON: gettext_noop("{premium} before the talon"),
}

PREMIUM_BASE = {
    PremiumType.KOENIGSTRULL: 5,
    PremiumType.TAROCKTRULL: 4,
    PremiumType.KOEPFE: 2,
    PremiumType.OHNE_KOENIGE: 5,
    PremiumType.OHNE_TRULL: 4,
    PremiumType.VIERZIG: 5,
    PremiumType.FUENFZIG: 10,
    PremiumType.PAGAT: 5,
    PremiumType.UHU: 5,
}
PREMIUM_LABEL = {
    PremiumType.KOENIGSTRULL: gettext_noop("Königstrull"),
    PremiumType.TAROCKTRULL: gettext_noop("Tarocktrull"),
    PremiumType.KOEPFE: gettext_noop("Köpfe"),
    PremiumType.OHNE_KOENIGE: gettext_noop("Ohne Könige"),
    PremiumType.OHNE_TRULL: gettext_noop("Ohne Trull"),
    PremiumType.VIERZIG: gettext_noop("Vierzig"),
    PremiumType.FUENFZIG: gettext_noop("Fünfzig"),
    PremiumType.PAGAT: gettext_noop("Pagat"),
    PremiumType.UHU: gettext_noop("Uhu"),
}
PROFILE_LABEL = {Profile.BECK: gettext_noop("Beck"), Profile.GRAZ: gettext_noop("Graz")}
VALAT_SCORING_LABEL = {
    ValatScoring.BECK_ADDITIVE: gettext_noop("Beck: added"),
    ValatScoring.BECK_FACTOR: gettext_noop("Beck: multiplied"),
    ValatScoring.GRAZ: gettext_noop("Graz"),
}
CARD_COMBINATIONS = frozenset({PremiumType.KOENIGSTRULL, PremiumType.TAROCKTRULL, PremiumType.KOEPFE})
OHNE = frozenset({PremiumType.OHNE_KOENIGE, PremiumType.OHNE_TRULL})
# The points the declarer must reach for Mit Vierzig / Mit Fünfzig.
POINT_PREMIUMS = {PremiumType.VIERZIG: 40, PremiumType.FUENFZIG: 50}
ULTIMOS = frozenset({PremiumType.PAGAT, PremiumType.UHU})
CANNOT_FAIL = CARD_COMBINATIONS | OHNE
DECLARER_ONLY = OHNE | frozenset(POINT_PREMIUMS)
# What a graz valat multiplies besides the game: card combinations (Ohne … among
# them, as the source lists them) and the ultimos; never Fünfzig or a Mondfang.
GRAZ_VALAT_MULTIPLIES = CARD_COMBINATIONS | OHNE | ULTIMOS

VALAT_VALUE = {Announced.SILENT: 12, Announced.AFTER_TALON: 24, Announced.BEFORE_TALON: 48}
GRAZ_VALAT_FACTOR = {Announced.SILENT: 6, Announced.AFTER_TALON: 12}
VALAT_SCORING_BY_PROFILE = {
    Profile.BECK: (ValatScoring.BECK_ADDITIVE, ValatScoring.BECK_FACTOR),
    Profile.GRAZ: (ValatScoring.GRAZ,),
}


def announcement_factor(premium: PremiumType, announced: Announced) -> int:
    """Ultimos: silent ×1, after the talon ×2, before ×4; the others ×1, ×1, ×2."""
    if premium in ULTIMOS:
        return {Announced.SILENT: 1, Announced.AFTER_TALON: 2, Announced.BEFORE_TALON: 4}[announced]
    return 2 if announced is Announced.BEFORE_TALON else 1


# --------------------------------------------------------------------------
# House rules


@dataclass(frozen=True)
class GamePoints:
    """The game points of each bid (house rule ``game_points``)."""

    announced: int = 3
    unterer: int = 4
    held: int = 5

    def of(self, bid: Bid) -> int:
        return {Bid.ANNOUNCED: self.announced, Bid.UNTERER: self.unterer, Bid.HELD: self.held}[bid]


@dataclass(frozen=True)
class IllustratedOptions:
    profile: Profile = Profile.BECK
    game_points: GamePoints = GamePoints()
    valat_scoring: ValatScoring = ValatScoring.BECK_ADDITIVE
    uhu: bool = False
    silent_ultimo_loss_counts: bool = True
    all_pass: AllPass = AllPass.REDEAL
    series_target: int = 100
    series_bonus: int = 10


def default_valat_scoring(profile: Profile) -> ValatScoring:
    """The valat scoring a profile implies when the session does not name one."""
    return VALAT_SCORING_BY_PROFILE[profile][0]


def premium_types(options: IllustratedOptions) -> tuple[PremiumType, ...]:
    """The premiums these house rules know (Uhu only when on; graz has no Vierzig)."""
    return tuple(
        t
        for t in PremiumType
        if (t is not PremiumType.UHU or options.uhu)
        and not (t is PremiumType.VIERZIG and options.profile is Profile.GRAZ)
    )


def announcement_levels(premium: PremiumType, profile: Profile) -> tuple[Announced, ...]:
    """How a premium may be announced: graz only silently, ultimos also after the talon."""
    if profile is Profile.BECK:
        return tuple(Announced)
    if premium in ULTIMOS:
        return (Announced.SILENT, Announced.AFTER_TALON)
    return (Announced.SILENT,)


def valat_levels(profile: Profile) -> tuple[Announced, ...]:
    """Graz announces a valat only after the talon."""
    if profile is Profile.GRAZ:
        return (Announced.SILENT, Announced.AFTER_TALON)
    return tuple(Announced)


OPTION_FIELDS = (
    Field(
        "profile",
        Kind.CHOICE,
        gettext_noop("Rules"),
        help=gettext_noop(
            "Beck: Fritz Beck's rules, one Kontra doubles the whole hand; "
            "Graz: the Graz rules, own Kontra per announcement, Mondfang, fewer announcements."
        ),
        choices=tuple(Profile),
        choice_labels=PROFILE_LABEL,
        default=Profile.BECK,
    ),
    Field(
        "game_points",
        Kind.RECORD,
        gettext_noop("Game points by bid"),
        help=gettext_noop(
            "What the game itself is worth: angesagt 3, Unterer 4, gehalten 5 as Beck counts (the default). "
            "The Wikipedia example counts gehalten 4: set that in the evening's settings."
        ),
        fields=tuple(
            Field(
                bid.value,
                Kind.INT,
                BID_LABEL[bid],
                minimum=Fraction(1),
                maximum=Fraction(20),
                default=GamePoints().of(bid),
            )
            for bid in Bid
        ),
        default={bid.value: GamePoints().of(bid) for bid in Bid},
    ),
    Field(
        "valat_scoring",
        Kind.CHOICE,
        gettext_noop("Valat scoring"),
        help=gettext_noop(
            "Added: a valat adds 12/24/48; multiplied: it multiplies by 12/24/48; "
            "Graz: ×6 silent, ×12 announced (the Graz rules' own)."
        ),
        choices=tuple(ValatScoring),
        choice_labels=VALAT_SCORING_LABEL,
        default=ValatScoring.BECK_ADDITIVE,
        shown_when=("profile", (Profile.BECK.value,)),
    ),
    UHU := Field(
        "uhu",
        Kind.BOOL,
        gettext_noop("Play Uhu"),
        help=gettext_noop("Uhu (second-to-last trick won with Tarock II) counts as a premium."),
        default=False,
    ),
    Field(
        "silent_ultimo_loss_counts",
        Kind.BOOL,
        gettext_noop("A lost silent Pagat or Uhu counts for the other side"),
        help=gettext_noop("When the Tarock I (or II) is played in its trick and the trick is lost."),
        default=True,
    ),
    ALL_PASS := Field(
        "all_pass",
        Kind.CHOICE,
        gettext_noop("When everyone passes"),
        help=gettext_noop(
            "Redeal: deal again; Trischaken: everyone for himself, most points lose; "
            "Keep the talon: no score, the next declarer plays at least Dreiblatt."
        ),
        choices=tuple(AllPass),
        choice_labels={
            AllPass.REDEAL: gettext_noop("Redeal"),
            AllPass.TRISCHAKEN: gettext_noop("Trischaken"),
            AllPass.TALON_KEEP: gettext_noop("Keep the talon (Graz)"),
        },
        default=AllPass.REDEAL,
    ),
    Field(
        "series_target",
        Kind.INT,
        gettext_noop("A series ends at"),
        help=gettext_noop("The series ends after the hand in which someone reaches this total."),
        minimum=Fraction(1),
        maximum=Fraction(10000),
        default=100,
    ),
    Field(
        "series_bonus",
        Kind.INT,
        gettext_noop("Series bonus"),
        help=gettext_noop(
            "Added for each player at or above the target when a series ends (not after a renonce)."
        ),
        minimum=Fraction(0),
        maximum=Fraction(1000),
        default=10,
    ),
)


# --------------------------------------------------------------------------
# Hands


@dataclass(frozen=True)
class Premium:
    type: PremiumType
    player: str
    announced: Announced = Announced.SILENT
    made: bool = True
    kontra: int = 0  # profile graz only, on an announced premium


@dataclass(frozen=True)
class Valat:
    by: ValatBy
    announced: Announced = Announced.SILENT
    made: bool = True
    kontra: int = 0  # profile graz only, on an announced valat


@dataclass(frozen=True)
class Mondfang:
    captured_by: str  # took the XXI with the Sküs
    played_by: str  # played the XXI


@dataclass(frozen=True)
class IllustratedHand:
    declarer: str
    game: Game
    bid: Bid
    points: int | None  # the declarer's card points; may be left out in a renonce hand
    kontra: int = 0
    premiums: tuple[Premium, ...] = ()
    valat: Valat | None = None
    talon_rest: int = 0
    mondfang: Mondfang | None = None
    renonce: str | None = None


@dataclass(frozen=True)
class TrischakenHand:
    points: Mapping[str, int]
    no_trick: tuple[str, ...] = ()


ANNOUNCED_FIELD_ARGS: dict[str, Any] = {
    "choices": tuple(Announced),
    "choice_labels": ANNOUNCED_LABEL,
    "default": Announced.SILENT,
}

PLAYED_FIELDS = (
    Field("declarer", Kind.PLAYER, gettext_noop("Declarer (Spieler)"), required=True),
    Field(
        "game",
        Kind.CHOICE,
        gettext_noop("Game"),
        help=gettext_noop("Dreiblatt ×1, Zweiblatt ×2, Einblatt ×3, Solo ×4."),
        choices=tuple(Game),
        choice_labels=GAME_LABEL,
        required=True,
    ),
    Field(
        "bid",
        Kind.CHOICE,
        gettext_noop("How the game came about"),
        help=gettext_noop(
            "angesagt: the declarer announced the game (3 game points); Unterer: taken over from the one "
            "who announced (4); gehalten: the one who announced kept it against a Unterer (Beck counts 5, "
            "the Wikipedia example 4). The evening's settings set them (house rule “Game points by bid”)."
        ),
        choices=tuple(Bid),
        choice_labels=BID_LABEL,
        required=True,
    ),
    Field(
        "points",
        Kind.POINTS,
        gettext_noop("Points"),
        help=gettext_noop(
            "The declarer's points, or the opponents': tap the side you counted. "
            "Whole points, 36 win; left out in a renonce hand."
        ),
        minimum=Fraction(0),
        maximum=Fraction(TOTAL),
        nullable=True,
        ask=True,
        asked_unless="renonce",
        complement=Fraction(TOTAL),
        side_labels=(gettext_noop("Declarer"), gettext_noop("Opponents")),
    ),
    kontra_field(
        "kontra",
        gettext_noop("Kontra on the game"),
        gettext_noop("Kontra doubles, Rekontra ×4, Subkontra ×8 (beck: the whole hand)."),
    ),
    Field(
        "premiums",
        Kind.LIST,
        gettext_noop("Premiums"),
        fields=(
            Field(
                "type",
                Kind.CHOICE,
                gettext_noop("Premium"),
                choices=tuple(PremiumType),
                choice_labels=PREMIUM_LABEL,
                required=True,
            ),
            Field("player", Kind.PLAYER, gettext_noop("Player"), required=True),
            Field("announced", Kind.CHOICE, gettext_noop("Announced"), **ANNOUNCED_FIELD_ARGS),
            Field(
                "made",
                Kind.BOOL,
                gettext_noop("Made"),
                help=gettext_noop("Card combinations and Ohne … cannot fail."),
                default=True,
            ),
            kontra_field(
                "kontra",
                gettext_noop("Kontra on this premium"),
                gettext_noop("Profile graz only, on an announced premium."),
            ),
        ),
        default=(),
        max_items=len(PremiumType),
    ),
    Field(
        "valat",
        Kind.RECORD,
        gettext_noop("Valat"),
        help=gettext_noop("All tricks to one side."),
        fields=(
            Field(
                "by",
                Kind.CHOICE,
                gettext_noop("Made or announced by"),
                choices=tuple(ValatBy),
                choice_labels={
                    ValatBy.DECLARER: gettext_noop("the declarer"),
                    ValatBy.OPPONENTS: gettext_noop("the opponents"),
                },
                required=True,
            ),
            Field("announced", Kind.CHOICE, gettext_noop("Announced"), **ANNOUNCED_FIELD_ARGS),
            Field("made", Kind.BOOL, gettext_noop("Made"), default=True),
            kontra_field(
                "kontra",
                gettext_noop("Kontra on the valat"),
                gettext_noop("Profile graz only, when announced."),
            ),
        ),
        nullable=True,
        null_label=gettext_noop("none"),
        rare=True,
    ),
    Field(
        "talon_rest",
        Kind.POINTS,
        gettext_noop("Points left in the talon"),
        help=gettext_noop("The talon cards nobody took; they decide an announced valat that failed."),
        minimum=Fraction(0),
        maximum=Fraction(TOTAL),
        default=Fraction(0),
        rare=True,
    ),
    Field(
        "mondfang",
        Kind.RECORD,
        gettext_noop("Mondfang"),
        help=gettext_noop("Profile graz: the XXI taken by the Sküs, +5 and −5."),
        fields=(
            Field("captured_by", Kind.PLAYER, gettext_noop("Sküs played by"), required=True),
            Field("played_by", Kind.PLAYER, gettext_noop("XXI played by"), required=True),
        ),
        nullable=True,
        null_label=gettext_noop("none"),
        rare=True,
    ),
    Field(
        "renonce",
        Kind.PLAYER,
        gettext_noop("Renonce by"),
        help=gettext_noop(
            "A revoke or other breach: only the game (+10) and the declarer's announcements count."
        ),
        nullable=True,
        null_label=gettext_noop("none"),
        rare=True,
    ),
)

TRISCHAKEN_FIELDS = (
    Field(
        "points",
        Kind.PLAYER_POINTS,
        gettext_noop("Points of each player"),
        help=gettext_noop("Whole points; the talon is not played, so they add up to 44 to 68."),
        minimum=Fraction(0),
        maximum=Fraction(TOTAL),
        required=True,
    ),
    NO_TRICK := Field(
        "no_trick",
        Kind.PLAYER_LIST,
        gettext_noop("Took no trick"),
        help=gettext_noop("Each of them writes 5 more when not losing."),
        default=(),
    ),
)


class Illustrated(VariantOf[IllustratedOptions, IllustratedHand | TrischakenHand]):
    key = "illustrated"
    name = gettext_noop("Illustriertes Tarock")
    table_sizes = (3,)
    hand_types = (HandType.PLAYED, HandType.REDEAL, TRISCHAKEN)
    zero_sum = False
    section_kind = SERIES
    options_type = IllustratedOptions
    notation_help = gettext_noop(
        "As the paper block writes a series: each player's running total after every hand "
        "that changed it; after the bar, the total with the series bonus."
    )
    option_fields = OPTION_FIELDS

    # -- house rules ---------------------------------------------------------

    def parse_options(self, raw: Any, players: Sequence[str]) -> IllustratedOptions:
        """Validated house rules. ``valat_scoring`` left out follows the profile
        (``graz`` for profile graz), so a graz session needs to name only its profile."""
        raw = {} if raw is None else raw
        values = clean(self.option_fields, raw, (), "options.")
        profile = Profile(values["profile"])
        given = "valat_scoring" in raw
        options = IllustratedOptions(
            profile=profile,
            game_points=GamePoints(**values["game_points"]),
            valat_scoring=ValatScoring(values["valat_scoring"]) if given else default_valat_scoring(profile),
            uhu=values["uhu"],
            silent_ultimo_loss_counts=values["silent_ultimo_loss_counts"],
            all_pass=AllPass(values["all_pass"]),
            series_target=values["series_target"],
            series_bonus=values["series_bonus"],
        )
        self.check_options(options, players)
        return options

    def check_options(self, options: IllustratedOptions, players: Sequence[str]) -> None:
        allowed = VALAT_SCORING_BY_PROFILE[options.profile]
        if options.valat_scoring not in allowed:
            raise invalid(
                "options.valat_scoring",
                gettext_noop("under the {profile} rules the valat scoring is {allowed} (got {got})"),
                profile=Line(PROFILE_LABEL[options.profile]),
                allowed=labels(VALAT_SCORING_LABEL[v] for v in allowed),
                got=Line(VALAT_SCORING_LABEL[options.valat_scoring]),
            )

    # -- hands ---------------------------------------------------------------

    def allowed_hand_types(self, options: IllustratedOptions) -> tuple[HandType, ...]:
        if options.all_pass is AllPass.TRISCHAKEN:
            return self.hand_types
        return (HandType.PLAYED, HandType.REDEAL)

    def check_hand_type(self, hand_type: HandType, options: IllustratedOptions) -> None:
        if hand_type is TRISCHAKEN:
            check_trischaken_allowed(options)

    def hand_fields(
        self, hand_type: HandType, table: Table, options: IllustratedOptions
    ) -> tuple[Field, ...]:
        return TRISCHAKEN_FIELDS if hand_type is TRISCHAKEN else PLAYED_FIELDS

    def form_fields(
        self, hand_type: HandType, table: Table, options: IllustratedOptions
    ) -> tuple[Field, ...]:
        if hand_type is TRISCHAKEN:
            return TRISCHAKEN_FIELDS
        return played_form_fields(options)

    def card_counter(
        self,
        hand_type: HandType,
        table: Table,
        options: IllustratedOptions,
        values: Mapping[str, Any] | None = None,
    ) -> CardCounter:
        if hand_type is TRISCHAKEN:
            return CardCounter((COUNTER_PLAYER, *COUNTER_FIELDS), "points.{player}", count_cards)
        if values is not None and opponents_valat(values):
            return discard_counter(values.get("game"))
        return CardCounter(COUNTER_FIELDS, "points", count_cards)

    def build_hand(
        self, hand_type: HandType, values: dict[str, Any], table: Table, options: IllustratedOptions
    ) -> IllustratedHand | TrischakenHand:
        if hand_type is TRISCHAKEN:
            return build_trischaken(values, options)
        return build_played(values, table, options)

    def score(self, record: HandRecord, options: IllustratedOptions) -> HandScore:
        if record.type is TRISCHAKEN:
            return score_trischaken(record.play, record.table)
        return score_played(record.play, record.table, options)

    def describe(self, record: HandRecord) -> Line:
        if record.type is HandType.REDEAL:
            return Line(gettext_noop("Redeal"))
        if record.type is TRISCHAKEN:
            return describe_trischaken(record.play, record.table)
        return describe_played(record.play)

    def played_stats(self, record: HandRecord, options: IllustratedOptions) -> HandStats:
        """The game; declarer and opponents, and which side won it (a valat or a
        renonce decides, else the declarer's points); each premium made, to its
        player; a made valat to each player of its side; the Mondfang to its
        capturer; the renonce to the player who revoked. A Trischaken: who lost it
        and who took no trick."""
        if isinstance(record.play, TrischakenHand):
            hand: TrischakenHand = record.play
            most = max(hand.points.values())
            return seat_stats(
                record.table,
                TRISCHAKEN.value,
                won=lambda p: hand.points[p] != most,
                marks=lambda p: (
                    (["trischaken_lost"] if hand.points[p] == most else [])
                    + (["no_trick"] if p in hand.no_trick else [])
                ),
            )
        played: IllustratedHand = record.play
        won = declarer_won(played)
        valat_side: set[str] = set()
        if played.valat is not None and played.valat.made and played.renonce is None:
            declarers = {played.declarer}
            valat_side = (
                declarers if played.valat.by is ValatBy.DECLARER else set(record.table.players) - declarers
            )

        def marks(player: str) -> list[str]:
            found: list[str] = []
            if played.renonce is None:
                found += [p.type.value for p in played.premiums if p.made and p.player == player]
            if player in valat_side:
                found.append("valat")
            if played.mondfang is not None and played.mondfang.captured_by == player:
                found.append("mondfang")
            if played.renonce == player:
                found.append("renonce")
            return found

        return seat_stats(
            record.table,
            played.game.value,
            role=lambda p: "declarer" if p == played.declarer else "opponent",
            won=lambda p: won if p == played.declarer else not won,
            marks=marks,
        )

    stat_labels = {
        **{f"kind.{game.value}": label for game, label in GAME_LABEL.items()},
        "kind.trischaken": gettext_noop("Trischaken"),
        "role.declarer": gettext_noop("Declarer"),
        "role.opponent": gettext_noop("Opponent"),
        **{f"mark.{premium.value}": label for premium, label in PREMIUM_LABEL.items()},
        "mark.valat": gettext_noop("Valat"),
        "mark.mondfang": gettext_noop("Mondfang"),
        "mark.renonce": gettext_noop("Renonce"),
        "mark.trischaken_lost": gettext_noop("Trischaken lost"),
        "mark.no_trick": gettext_noop("Trischaken without a trick"),
    }

    def section_winners(self, section: Section, options: IllustratedOptions) -> tuple[str, ...]:
        """A series is won by whoever ended it at or above the target."""
        if not section.complete:
            return ()
        return tuple(name for name, total in section.totals.items() if total >= options.series_target)

    # -- a whole session ------------------------------------------------------

    def section_notation(
        self, players: Sequence[str], deltas: Sequence[Mapping[str, Fraction]], section: Section
    ) -> dict[str, Line]:
        return series_notation(players, deltas, section)

    def section_net(self, section: Section) -> Mapping[str, Fraction]:
        return pairwise_net(section.totals)

    def hand_facts(self, record: HandRecord) -> frozenset[str]:
        return frozenset({NO_SERIES_BONUS}) if is_renonce(record) else frozenset()

    def summarize(
        self, players: Sequence[str], hands: Sequence[StoredHand], options: IllustratedOptions
    ) -> Summary:
        """Series (docs/rules.md §2.9): totals include each series' bonus; the net is
        settled pair by pair within each series and summed; each series is paid
        on its own (its money rounded to cents by itself)."""
        sections = series(players, hands, options)
        totals = zero_deltas(players)
        net = zero_deltas(players)
        parts = []
        for section in sections:
            part = self.section_net(section)
            parts.append(part)
            for name, value in part.items():
                net[name] += value
            for name, value in section.totals.items():
                totals[name] += value
        return Summary(totals=totals, net=net, sections=tuple(sections), parts=tuple(parts))


# A renonce hand ends a series without its bonus (docs/rules.md §2.9).
NO_SERIES_BONUS = "no_series_bonus"


def declarer_won(hand: IllustratedHand) -> bool:
    """Whether the declarer's side won the game: a renonce loses it for the side
    that revoked; a valat made wins it for its side, one that failed loses it for
    the side that announced it; otherwise 36 points win (docs/rules.md §2.3, 2.6, 2.7)."""
    if hand.renonce is not None:
        return hand.renonce != hand.declarer
    if hand.valat is not None:
        by_declarer = hand.valat.by is ValatBy.DECLARER
        return by_declarer if hand.valat.made else not by_declarer
    return (hand.points or 0) >= TO_WIN


def is_renonce(record: HandRecord) -> bool:
    return isinstance(record.play, IllustratedHand) and record.play.renonce is not None


def series(players: Sequence[str], hands: Sequence[StoredHand], options: IllustratedOptions) -> list[Section]:
    """The series of a session: each ends after the hand in which someone reaches
    the target; those at or above it get the bonus unless that hand was a renonce."""
    sections: list[Section] = []
    running = zero_deltas(players)
    first = 0
    for index, hand in enumerate(hands):
        for name, value in hand.deltas.items():
            running[name] += value
        reached = [name for name in players if running[name] >= options.series_target]
        if not reached:
            continue
        bonus: dict[str, Fraction] = {}
        if options.series_bonus and NO_SERIES_BONUS not in hand.facts:
            bonus = {name: Fraction(options.series_bonus) for name in reached}
        totals = {name: running[name] + bonus.get(name, 0) for name in players}
        sections.append(Section(SERIES.key, first, index, totals, bonus, complete=True))
        running = zero_deltas(players)
        first = index + 1
    if first < len(hands):
        sections.append(Section(SERIES.key, first, len(hands) - 1, dict(running), {}, complete=False))
    return sections


def series_notation(
    players: Sequence[str], deltas: Sequence[Mapping[str, Fraction]], section: Section
) -> dict[str, Line]:
    """The classic notation of one series: each player's running totals that
    changed, the total with the bonus after a bar (``18, 26, 110 | 120``)."""
    rows: dict[str, Line] = {}
    for name in players:
        running = Fraction(0)
        written: list[Arg] = []
        for hand in deltas[section.first : section.last + 1]:
            if hand.get(name, 0):
                running += hand[name]
                written.append(running)
        if name in section.bonus:
            rows[name] = Line(
                gettext_noop("{totals} | {total}"),
                {"totals": Join(tuple(written)), "total": section.totals[name]},
            )
        else:
            rows[name] = Line("{totals}", {"totals": Join(tuple(written))})
    return rows


# --------------------------------------------------------------------------
# Building and checking a played hand


def build_played(values: Mapping[str, Any], table: Table, options: IllustratedOptions) -> IllustratedHand:
    points = values["points"]
    valat = values["valat"]
    mondfang = values["mondfang"]
    hand = IllustratedHand(
        declarer=values["declarer"],
        game=Game(values["game"]),
        bid=Bid(values["bid"]),
        points=None if points is None else int(points),
        kontra=values["kontra"],
        premiums=tuple(
            Premium(
                type=PremiumType(p["type"]),
                player=p["player"],
                announced=Announced(p["announced"]),
                made=p["made"],
                kontra=p["kontra"],
            )
            for p in values["premiums"]
        ),
        valat=None
        if valat is None
        else Valat(ValatBy(valat["by"]), Announced(valat["announced"]), valat["made"], valat["kontra"]),
        talon_rest=int(values["talon_rest"]),
        mondfang=None if mondfang is None else Mondfang(mondfang["captured_by"], mondfang["played_by"]),
        renonce=values["renonce"],
    )
    check_played(hand, table, options)
    return hand


def max_talon_rest(game: Game) -> int:
    """The most the talon cards the declarer leaves can count (all worth 5)."""
    left = TALON - TALON_TAKEN[game]
    return card_points(CardCount(fives=left)) if left else 0


def check_played(hand: IllustratedHand, table: Table, options: IllustratedOptions) -> None:
    """The cross-field rules of docs/rules.md §2.2–2.7; each refusal names its field."""
    if hand.points is None and hand.renonce is None:
        raise invalid("points", gettext_noop("missing (only a renonce hand may leave out the points)"))
    most = max_talon_rest(hand.game)
    if hand.talon_rest > most:
        raise invalid(
            "talon_rest",
            gettext_noop("in a {game} {left} talon cards are left: at most {most} points (got {got})"),
            game=GAME_LABEL[hand.game],
            left=TALON - TALON_TAKEN[hand.game],
            most=most,
            got=hand.talon_rest,
        )
    if hand.points is not None and hand.points + hand.talon_rest > TOTAL:
        raise invalid(
            "talon_rest",
            gettext_noop(
                "the declarer's {points} points and the talon's {rest} add up to more than 70; "
                "at most {most} here"
            ),
            points=hand.points,
            rest=hand.talon_rest,
            most=TOTAL - hand.points,
        )
    for index, premium in enumerate(hand.premiums, 1):
        check_premium(hand, premium, f"premiums[{index}].", options)
    check_premium_combinations(hand)
    if hand.valat is not None:
        check_valat(hand, hand.valat, options)
    if hand.mondfang is not None:
        check_mondfang(hand, hand.mondfang, table, options)


def check_premium(hand: IllustratedHand, premium: Premium, path: str, options: IllustratedOptions) -> None:
    label = PREMIUM_LABEL[premium.type]
    known = premium_types(options)
    if premium.type not in known:
        if premium.type is PremiumType.UHU:
            text = gettext_noop("Uhu counts only with the house rule “{rule}”; premiums here: {allowed}")
        else:
            text = gettext_noop("the Graz rules have no Vierzig; premiums here: {allowed}")
        raise invalid(
            f"{path}type", text, rule=Line(UHU.label), allowed=labels(PREMIUM_LABEL[t] for t in known)
        )
    if premium.type in DECLARER_ONLY and premium.player != hand.declarer:
        raise invalid(
            f"{path}player",
            gettext_noop("only the declarer ({declarer}) can score {premium}"),
            declarer=hand.declarer,
            premium=label,
        )
    levels = announcement_levels(premium.type, options.profile)
    if premium.announced not in levels:
        raise invalid(
            f"{path}announced",
            gettext_noop("under the {profile} rules {premium} may be announced: {allowed} (got {got})"),
            profile=Line(PROFILE_LABEL[options.profile]),
            premium=Line(label),
            allowed=labels(ANNOUNCED_LABEL[level] for level in levels),
            got=Line(ANNOUNCED_LABEL[premium.announced]),
        )
    if premium.kontra:
        if options.profile is Profile.BECK:
            raise invalid(
                f"{path}kontra",
                gettext_noop(
                    "under the Beck rules a premium has no Kontra of its own: the Kontra on the game doubles it"
                ),
            )
        if premium.announced is Announced.SILENT:
            raise invalid(
                f"{path}kontra",
                gettext_noop("a silent premium cannot be kontra'd"),
            )
    if premium.type in CANNOT_FAIL and not premium.made:
        raise invalid(
            f"{path}made",
            gettext_noop("{premium} cannot fail: it is recorded only when held"),
            premium=Line(label),
        )
    if premium.type in POINT_PREMIUMS and hand.renonce is None and hand.points is not None:
        needed = POINT_PREMIUMS[premium.type]
        reached = hand.points >= needed
        if premium.made != reached:
            text = (
                gettext_noop("the declarer has {points} points, so {premium} ({needed}) was made")
                if reached
                else gettext_noop("the declarer has {points} points, so {premium} ({needed}) failed")
            )
            raise invalid(f"{path}made", text, points=hand.points, premium=Line(label), needed=needed)
    valat = hand.valat
    if (
        premium.type in ULTIMOS
        and premium.made
        and valat is not None
        and valat.made
        and hand.renonce is None
        and (premium.player == hand.declarer) != (valat.by is ValatBy.DECLARER)
    ):
        raise invalid(
            f"{path}made",
            gettext_noop("the other side took every trick (valat), so {player} cannot make {premium}"),
            player=premium.player,
            premium=label,
        )


def check_premium_combinations(hand: IllustratedHand) -> None:
    """Each premium once per hand, and no two premiums that the cards rule out together."""
    first: dict[PremiumType, int] = {}
    for index, premium in enumerate(hand.premiums, 1):
        path = f"premiums[{index}].type"
        label = PREMIUM_LABEL[premium.type]
        if premium.type in first:
            raise invalid(
                path,
                gettext_noop("{premium} is already listed ({row}); it counts once per hand"),
                premium=Line(label),
                row=label_at(PLAYED_FIELDS, f"premiums[{first[premium.type]}]") or Line(""),
            )
        first[premium.type] = index
        clash = _ruled_out_by(hand.declarer, premium, hand.premiums[: index - 1])
        if clash is not None:
            raise invalid(
                path,
                gettext_noop("{premium} and {other} cannot both be held in one deal"),
                premium=label,
                other=PREMIUM_LABEL[clash],
            )


# Premiums whose cards the declarer cannot hold together with an Ohne ….
OHNE_EXCLUDES = {
    PremiumType.OHNE_KOENIGE: frozenset({PremiumType.KOENIGSTRULL}),
    PremiumType.OHNE_TRULL: frozenset({PremiumType.TAROCKTRULL, PremiumType.KOEPFE, PremiumType.PAGAT}),
}
TRULL_HOLDINGS = frozenset({PremiumType.TAROCKTRULL, PremiumType.KOEPFE})


def _ruled_out_by(declarer: str, premium: Premium, listed: Sequence[Premium]) -> PremiumType | None:
    """An earlier premium whose cards exclude those behind ``premium``: all three
    Trull cards cannot be in one hand while two are in another (or counted twice),
    and the declarer's Ohne … excludes his holding those cards."""
    earlier = {p.type: p for p in listed}
    if premium.type in TRULL_HOLDINGS:
        for other in TRULL_HOLDINGS - {premium.type}:
            if other in earlier:
                return other
    for ohne, holdings in OHNE_EXCLUDES.items():
        if premium.type is ohne:
            for other in holdings:
                if other in earlier and earlier[other].player == declarer:
                    return other
        elif premium.type in holdings and premium.player == declarer and ohne in earlier:
            return ohne
    return None


def check_valat(hand: IllustratedHand, valat: Valat, options: IllustratedOptions) -> None:
    if valat.announced is Announced.SILENT and not valat.made:
        raise invalid(
            "valat.made",
            gettext_noop("a silent valat is recorded only when made"),
        )
    levels = valat_levels(options.profile)
    if valat.announced not in levels:
        raise invalid(
            "valat.announced",
            gettext_noop("under the {profile} rules a valat may be announced: {allowed} (got {got})"),
            profile=Line(PROFILE_LABEL[options.profile]),
            allowed=labels(ANNOUNCED_LABEL[level] for level in levels),
            got=Line(ANNOUNCED_LABEL[valat.announced]),
        )
    if valat.kontra:
        if options.profile is Profile.BECK:
            raise invalid(
                "valat.kontra",
                gettext_noop(
                    "under the Beck rules the valat has no Kontra of its own: the Kontra on the game doubles it"
                ),
            )
        if valat.announced is Announced.SILENT:
            raise invalid("valat.kontra", gettext_noop("a silent valat cannot be kontra'd"))
    if not valat.made or hand.renonce is not None or hand.points is None:
        return
    if valat.by is ValatBy.DECLARER:
        expected = TOTAL - hand.talon_rest
        if hand.points != expected:
            raise invalid(
                "points",
                gettext_noop(
                    "the declarer took every trick (valat): his points are 70 less the points "
                    "left in the talon ({rest}): {expected} (got {got})"
                ),
                rest=hand.talon_rest,
                expected=expected,
                got=hand.points,
            )
        return
    # The declarer took no trick: all he has is his own discard (docs/rules.md §2.6).
    low, high = discard_points(hand.game)
    if not low <= hand.points <= high:
        if high == 0:
            text = gettext_noop(
                "the opponents took every trick (valat) and a {game} has no discard: points must be 0 (got {got})"
            )
        else:
            text = gettext_noop(
                "the opponents took every trick (valat): the declarer's points are his discard of "
                "{cards} in this {game}, from {low} to {high} (got {got})"
            )
        raise invalid(
            "points",
            text,
            game=GAME_LABEL[hand.game],
            cards=discard_cards(hand.game),
            low=low,
            high=high,
            got=hand.points,
        )


def discard_cards(game: Game) -> Line:
    """``3 cards``: how many the declarer discards, as many as he took from the talon."""
    cards = TALON_TAKEN[game]
    return Line(gettext_noop("{n} card") if cards == 1 else gettext_noop("{n} cards"), {"n": cards})


def discard_points(game: Game) -> tuple[int, int]:
    """The fewest and the most points the declarer's discard can count (docs/rules.md §2.1, 2.6):
    as many cards as he took from the talon, all plain cards or all worth 5."""
    cards = TALON_TAKEN[game]
    return card_points(CardCount(others=cards)), card_points(CardCount(fives=cards))


def check_mondfang(
    hand: IllustratedHand, mondfang: Mondfang, table: Table, options: IllustratedOptions
) -> None:
    if options.profile is not Profile.GRAZ:
        raise invalid("mondfang", gettext_noop("a Mondfang counts only under the Graz rules"))
    if mondfang.captured_by == mondfang.played_by:
        raise invalid(
            "mondfang.played_by",
            gettext_noop("the XXI and the Sküs were played by two players; not {player} twice"),
            player=mondfang.played_by,
        )
    valat = hand.valat
    if valat is not None and valat.made and hand.renonce is None:
        # The other side took no trick, so it cannot have taken the XXI (docs/rules.md §2.5).
        side = (
            (hand.declarer,)
            if valat.by is ValatBy.DECLARER
            else tuple(p for p in table.players if p != hand.declarer)
        )
        if mondfang.captured_by not in side:
            raise invalid(
                "mondfang.captured_by",
                gettext_noop(
                    "the side that made the valat took every trick, so the XXI was taken by one of "
                    "{allowed} (got {got})"
                ),
                allowed=names(side),
                got=mondfang.captured_by,
            )
    for index, premium in enumerate(hand.premiums, 1):
        holds_both = premium.type is PremiumType.TAROCKTRULL
        holds_neither = premium.type is PremiumType.OHNE_TRULL and hand.declarer in (
            mondfang.captured_by,
            mondfang.played_by,
        )
        if holds_both or holds_neither:
            raise invalid(
                "mondfang",
                gettext_noop("{row} ({premium} of {player}) rules out this Mondfang"),
                row=label_at(PLAYED_FIELDS, f"premiums[{index}]") or Line(""),
                premium=Line(PREMIUM_LABEL[premium.type]),
                player=premium.player,
            )


# --------------------------------------------------------------------------
# Building and checking a Trischaken hand


def check_trischaken_allowed(options: IllustratedOptions) -> None:
    if options.all_pass is not AllPass.TRISCHAKEN:
        labels = ALL_PASS.choice_labels
        raise invalid(
            "type",
            gettext_noop("a Trischaken hand needs the house rule “{rule}: {value}” (this session: {got})"),
            rule=Line(ALL_PASS.label),
            value=Line(labels[AllPass.TRISCHAKEN]),
            got=Line(labels[options.all_pass]),
        )


def trischaken_total() -> tuple[int, int]:
    """What the three players' points add up to in a Trischaken (docs/rules.md §2.8): all
    but the untouched talon, whose six cards hold 2 (all plain) to 26 (all worth 5)."""
    return TOTAL - card_points(CardCount(fives=TALON)), TOTAL - card_points(CardCount(others=TALON))


def build_trischaken(values: Mapping[str, Any], options: IllustratedOptions) -> TrischakenHand:
    check_trischaken_allowed(options)
    hand = TrischakenHand(
        points={name: int(value) for name, value in values["points"].items()},
        no_trick=tuple(values["no_trick"]),
    )
    for index, name in enumerate(hand.no_trick, 1):
        if hand.points[name]:
            raise invalid(
                f"no_trick[{index}]",
                gettext_noop("{player} has {points} points, so took a trick; a player without a trick has 0"),
                player=name,
                points=hand.points[name],
            )
    if len(hand.no_trick) == len(hand.points):
        raise invalid(
            "no_trick", gettext_noop("someone took the tricks: at most {n} players"), n=len(hand.points) - 1
        )
    for name, points in hand.points.items():
        if points == 0 and name not in hand.no_trick:
            # Every trick counts at least 1 point by threes, so 0 points means no trick.
            raise invalid(
                f"points.{name}",
                gettext_noop("{player} has 0 points, so took no trick: add {player} to “{where}”"),
                player=name,
                where=Line(NO_TRICK.label),
            )
    total = sum(hand.points.values())
    low, high = trischaken_total()
    if not low <= total <= high:
        raise invalid(
            "points",
            gettext_noop(
                "the talon is not played and holds {talon_low} to {talon_high} points, so the three "
                "players' points add up to {low} to {high} (got {got})"
            ),
            talon_low=TOTAL - high,
            talon_high=TOTAL - low,
            low=low,
            high=high,
            got=total,
        )
    return hand


# --------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True)
class Credit:
    """What each of ``players`` writes for one item of the hand, and why.
    No players: a line that explains why something counts nothing."""

    players: tuple[str, ...]
    value: int
    line: Line


def note(text: str, **args: Arg) -> Credit:
    return Credit((), 0, Line(text, args))


@dataclass(frozen=True)
class ValatEffect:
    """A made valat under ``beck_factor`` or ``graz``: what its side is credited
    is multiplied by ``factor``. No valat (or another scoring): factor 1."""

    side: tuple[str, ...] = ()
    factor: int = 1


@dataclass(frozen=True)
class Scoring:
    """A played hand with what every item of its score needs."""

    hand: IllustratedHand
    options: IllustratedOptions
    opponents: tuple[str, ...]

    @property
    def g(self) -> int:
        return self.options.game_points.of(self.hand.bid)

    @property
    def m(self) -> int:
        return MULTIPLIER[self.hand.game]

    def other_side(self, player: str) -> tuple[str, ...]:
        return self.opponents if player == self.hand.declarer else (self.hand.declarer,)

    def kontra_level(self, own: int) -> int:
        """The kontra on a premium or the valat: the hand's in beck, its own in graz."""
        return self.hand.kontra if self.options.profile is Profile.BECK else own

    def game(
        self,
        players: tuple[str, ...],
        surplus: int,
        what: Sequence[Arg],
        talon_rest: int = 0,
        factor: int = 1,
    ) -> Credit:
        """``(G + surplus − talon_rest) · M · K`` (times a valat factor) for each of ``players``."""
        k = kontra_factor(self.hand.kontra)
        head: list[str | int] = ["(", self.g, " + ", surplus]
        head += [" − ", talon_rest, ")"] if talon_rest else [")"]
        value = (self.g + surplus - talon_rest) * self.m * k * factor
        # The game's own kontra right after what the game came to, before any valat.
        kontra = [KONTRA_LABEL[self.hand.kontra]] if self.hand.kontra else []
        items = [*what[:1], *kontra, *what[1:]]
        if self.hand.bid is Bid.HELD:  # what a held game counts is a house rule: say which
            items.append(Line(HELD_POINTS, {"points": self.g}))
        line = Line(
            gettext_noop("{formula} = {value} {who} ({what})"),
            {
                "formula": _product(head, [self.m, *_beyond_one(k, factor)]),
                "value": value,
                "who": _for(players),
                "what": Join(tuple(items)),
            },
        )
        return Credit(players, value, line)

    def premium(self, premium: Premium, receivers: tuple[str, ...], text: str, factor: int = 1) -> Credit:
        """``base · announcement factor · M · K`` (times a valat factor) for each of ``receivers``."""
        base = PREMIUM_BASE[premium.type]
        announce = announcement_factor(premium.type, premium.announced)
        level = self.kontra_level(premium.kontra)
        k = kontra_factor(level)
        value = base * announce * self.m * k * factor
        what: list[Arg] = [_announced(PREMIUM_LABEL[premium.type], premium.announced)]
        if level:
            what.append(KONTRA_LABEL[level])
        if factor > 1:
            what.append(Line(gettext_noop("Valat ×{factor}"), {"factor": factor}))
        # The announcement factor is shown when it counts; M always, as for the game.
        factors = [*_beyond_one(announce), self.m, *_beyond_one(k, factor)]
        line = Line(
            text,
            {
                "what": Join(tuple(what)),
                "formula": _product([base], factors),
                "value": value,
                "who": _for(receivers),
                "player": premium.player,
            },
        )
        return Credit(receivers, value, line)


def _for(players: Sequence[str]) -> Line:
    if len(players) == 1:
        return Line(gettext_noop("for {player}"), {"player": players[0]})
    first, second = players
    return Line(gettext_noop("each for {first} and {second}"), {"first": first, "second": second})


def _product(head: Sequence[str | int], factors: Sequence[int]) -> Formula:
    tokens: list[str | int | Fraction] = list(head)
    for factor in factors:
        tokens += [" × ", factor]
    return Formula(tuple(tokens))


def _beyond_one(*factors: int) -> list[int]:
    """Factors worth showing: those other than 1."""
    return [factor for factor in factors if factor != 1]


def _announced(label: str, announced: Announced) -> Line:
    return Line(ANNOUNCED_TEMPLATE[announced], {"premium": label})


def score_played(hand: IllustratedHand, table: Table, options: IllustratedOptions) -> HandScore:
    scoring = Scoring(hand, options, tuple(p for p in table.players if p != hand.declarer))
    if hand.renonce is not None:
        credits = renonce_credits(scoring, hand.renonce)
    else:
        credits, valat = game_credits(scoring)
        credits += [premium_credit(scoring, premium, valat) for premium in hand.premiums]
    if hand.mondfang is not None:
        credits += mondfang_credits(hand.mondfang)
    return collect(table, credits)


def collect(table: Table, credits: Sequence[Credit]) -> HandScore:
    """The deltas and the breakdown: each credit's line, then each player's sum."""
    deltas = zero_deltas(table.players)
    parts: dict[str, list[int]] = {name: [] for name in table.players}
    for credit in credits:
        for name in credit.players:
            deltas[name] += credit.value
            parts[name].append(credit.value)
    explain: dict[str, Arg] = {}
    for name, values in parts.items():
        if len(values) > 1:
            tokens: list[str | int | Fraction] = [values[0]]
            for value in values[1:]:
                tokens += [" + " if value >= 0 else " − ", abs(value)]
            explain[name] = Formula(tuple(tokens))
    written = {name: value for name, value in deltas.items() if value}
    lines = [credit.line for credit in credits]
    lines.append(deltas_line(written, explain) if written else Line(gettext_noop("Nobody writes anything")))
    return HandScore(deltas, tuple(lines))


def game_credits(scoring: Scoring) -> tuple[list[Credit], ValatEffect]:
    """The game, and the valat with it (docs/rules.md §2.3, 2.6)."""
    hand, options = scoring.hand, scoring.options
    assert hand.points is not None
    game = GAME_LABEL[hand.game]
    won = Line(gettext_noop("{game} won with {points}"), {"game": game, "points": hand.points})
    lost = Line(
        gettext_noop("{game} lost by {declarer} with {points}"),
        {"game": game, "declarer": hand.declarer, "points": hand.points},
    )
    valat = hand.valat
    if valat is None:
        if hand.points >= TO_WIN:
            return [scoring.game((hand.declarer,), hand.points - 35, [won])], ValatEffect()
        return [scoring.game(scoring.opponents, 35 - hand.points, [lost])], ValatEffect()

    by_declarer = valat.by is ValatBy.DECLARER
    described = _announced("Valat", valat.announced)
    talon_rest = 0
    if valat.made:
        # The side that took every trick scores its game as the declarer would his:
        # the opponents then have 70 − 0 points.
        side = (hand.declarer,) if by_declarer else scoring.opponents
        surplus = hand.points - 35 if by_declarer else 35 - hand.points
        verdict = Line(gettext_noop("{valat} made"), {"valat": described})
        what: list[Arg] = [won if by_declarer else lost, verdict]
    else:
        side = scoring.opponents if by_declarer else (hand.declarer,)
        surplus, talon_rest = 35, hand.talon_rest
        verdict = Line(gettext_noop("{valat} failed"), {"valat": described})
        what = [
            Line(
                gettext_noop("{verdict}: the game goes to the other side with the {points} points in play"),
                {"verdict": verdict, "points": TOTAL - hand.talon_rest},
            )
        ]

    if options.valat_scoring is ValatScoring.BECK_ADDITIVE:
        k = kontra_factor(hand.kontra)
        value = VALAT_VALUE[valat.announced] * scoring.m * k
        kontra = [KONTRA_LABEL[hand.kontra]] if hand.kontra else []
        line = Line(
            gettext_noop("{what}: {formula} = {value} {who}"),
            {
                "what": Join((verdict, *kontra)),
                "formula": _product([VALAT_VALUE[valat.announced]], [scoring.m, *_beyond_one(k)]),
                "value": value,
                "who": _for(side),
            },
        )
        return [scoring.game(side, surplus, what, talon_rest), Credit(side, value, line)], ValatEffect()

    if options.valat_scoring is ValatScoring.BECK_FACTOR:
        factor = VALAT_VALUE[valat.announced]
    else:
        factor = GRAZ_VALAT_FACTOR[valat.announced] * kontra_factor(valat.kontra)
        if valat.kontra:
            what.append(Line(gettext_noop("{kontra} on the valat"), {"kontra": KONTRA_LABEL[valat.kontra]}))
    what.append(Line(gettext_noop("Valat ×{factor}"), {"factor": factor}))
    credit = scoring.game(side, surplus, what, talon_rest, factor)
    # A failed valat multiplies only the game; a made one also what its side is credited.
    return [credit], ValatEffect(side, factor) if valat.made else ValatEffect()


def valat_multiplies(options: IllustratedOptions, premium: PremiumType) -> bool:
    if options.valat_scoring is ValatScoring.GRAZ:
        return premium in GRAZ_VALAT_MULTIPLIES
    return options.valat_scoring is ValatScoring.BECK_FACTOR


def premium_credit(scoring: Scoring, premium: Premium, valat: ValatEffect) -> Credit:
    """docs/rules.md §2.4: made, to its player; announced and failed (or a lost silent
    ultimo, by house rule), to each player of the other side."""
    options = scoring.options
    described = _announced(PREMIUM_LABEL[premium.type], premium.announced)
    if premium.made:
        receivers: tuple[str, ...] = (premium.player,)
        text = gettext_noop("{what}: {formula} = {value} {who}")
    elif premium.announced is not Announced.SILENT:
        receivers = scoring.other_side(premium.player)
        text = gettext_noop("{what}, lost by {player}: {formula} = {value} {who}")
    elif premium.type not in ULTIMOS:
        return note(
            gettext_noop("{what}: not reached with {points} points, counts nothing"),
            what=described,
            points=scoring.hand.points or 0,
        )
    elif options.silent_ultimo_loss_counts:
        receivers = scoring.other_side(premium.player)
        text = gettext_noop(
            "{what}, lost by {player}: {formula} = {value} {who} (house rule silent_ultimo_loss_counts)"
        )
    else:
        return note(
            gettext_noop(
                "{what}, lost by {player}: counts nothing (house rule silent_ultimo_loss_counts off)"
            ),
            what=described,
            player=premium.player,
        )
    multiplied = receivers[0] in valat.side and valat_multiplies(options, premium.type)
    return scoring.premium(premium, receivers, text, valat.factor if multiplied else 1)


def renonce_credits(scoring: Scoring, offender: str) -> list[Credit]:
    """docs/rules.md §2.7: the game at ``(G + 10) · M · K`` and the declarer's announced
    premiums go to the side that did not revoke; nothing else counts."""
    hand = scoring.hand
    game = GAME_LABEL[hand.game]
    if offender == hand.declarer:
        receivers = scoring.opponents
        what = Line(gettext_noop("{game} lost by renonce of {player}"), {"game": game, "player": offender})
        text = gettext_noop("{what}, lost by renonce: {formula} = {value} {who}")
    else:
        receivers = (hand.declarer,)
        what = Line(gettext_noop("{game} won by renonce of {player}"), {"game": game, "player": offender})
        text = gettext_noop("{what}, counted as made (renonce): {formula} = {value} {who}")
    credits = [scoring.game(receivers, RENONCE_SURPLUS, [what])]
    for premium in hand.premiums:
        if premium.player == hand.declarer and premium.announced is not Announced.SILENT:
            credits.append(scoring.premium(premium, receivers, text))
    credits.append(note(gettext_noop("Renonce: nothing else of this hand counts")))
    return credits


def mondfang_credits(mondfang: Mondfang) -> list[Credit]:
    """Flat, whatever the game and the kontra."""
    return [
        Credit(
            (mondfang.captured_by,),
            MONDFANG,
            Line(
                gettext_noop("Mondfang: {value} for {player} (took the XXI with the Sküs)"),
                {"value": Signed(Fraction(MONDFANG)), "player": mondfang.captured_by},
            ),
        ),
        Credit(
            (mondfang.played_by,),
            -MONDFANG,
            Line(
                gettext_noop("Mondfang: {value} for {player} (played the XXI)"),
                {"value": Signed(Fraction(-MONDFANG)), "player": mondfang.played_by},
            ),
        ),
    ]


def score_trischaken(hand: TrischakenHand, table: Table) -> HandScore:
    """The most points lose 10 (all of them when tied); the others win 5, and 5
    more without a trick."""
    most = max(hand.points.values())
    losers = [name for name, points in hand.points.items() if points == most]
    credits: list[Credit] = []
    for name in table.players:
        points = hand.points[name]
        if name in losers:
            text = (
                gettext_noop("Trischaken lost: {player} has the most points ({points}): {value}")
                if len(losers) == 1
                else gettext_noop("Trischaken lost: {player} is tied for the most points ({points}): {value}")
            )
            args: dict[str, Arg] = {
                "player": name,
                "points": points,
                "value": Signed(Fraction(TRISCHAKEN_LOSS)),
            }
            credits.append(Credit((name,), TRISCHAKEN_LOSS, Line(text, args)))
        elif name in hand.no_trick:
            value = TRISCHAKEN_WIN + TRISCHAKEN_NO_TRICK
            line = Line(
                gettext_noop("Trischaken won without a trick: {player} {formula} = {value}"),
                {
                    "player": name,
                    "formula": Formula((TRISCHAKEN_WIN, " + ", TRISCHAKEN_NO_TRICK)),
                    "value": Signed(Fraction(value)),
                },
            )
            credits.append(Credit((name,), value, line))
        else:
            line = Line(
                gettext_noop("Trischaken won: {player} with {points} points: {value}"),
                {"player": name, "points": points, "value": Signed(Fraction(TRISCHAKEN_WIN))},
            )
            credits.append(Credit((name,), TRISCHAKEN_WIN, line))
    return collect(table, credits)


# --------------------------------------------------------------------------
# Describing a hand for the score sheet


def describe_played(hand: IllustratedHand) -> Line:
    pieces: list[Arg] = [hand.declarer, GAME_LABEL[hand.game]]
    if hand.kontra:
        pieces.append(KONTRA_LABEL[hand.kontra])
    if hand.points is not None:
        pieces.append(hand.points)
    for premium in hand.premiums:
        label: Arg = PREMIUM_LABEL[premium.type]
        if premium.player != hand.declarer:
            label = Line(gettext_noop("{premium} ({player})"), {"premium": label, "player": premium.player})
        if not premium.made:
            label = Line(gettext_noop("{premium} lost"), {"premium": label})
        pieces.append(label)
    if hand.valat is not None:
        if hand.valat.by is ValatBy.OPPONENTS:
            valat: Arg = Line(gettext_noop("Valat by the opponents"))
        else:
            valat = "Valat"
        pieces.append(valat if hand.valat.made else Line(gettext_noop("{valat} failed"), {"valat": valat}))
    if hand.mondfang is not None:
        pieces.append("Mondfang")
    if hand.renonce is not None:
        pieces.append(Line(gettext_noop("Renonce {player}"), {"player": hand.renonce}))
    return Line("{pieces}", {"pieces": Join(tuple(pieces), " · ")})


def describe_trischaken(hand: TrischakenHand, table: Table) -> Line:
    pieces: list[Arg] = ["Trischaken"]
    for name in table.players:
        pieces.append(Line("{player} {points}", {"player": name, "points": hand.points[name]}))
    return Line("{pieces}", {"pieces": Join(tuple(pieces), " · ")})


# --------------------------------------------------------------------------
# Counting card points (for the web form's counter)

# Kings, Tarock I (Pagat), XXI (Mond), Sküs: 5; queens 4; cavalls 3; jacks 2; the rest 1
# (CARD_VALUE and CARD_LIMIT of the 54-card deck, shared with Königrufen).
# The 54 cards by value: 7 fives, 4 queens, 4 cavalls, 4 jacks, 19 plain tarocks and 16 pip cards.
DECK = tuple(value for kind, value in CARD_VALUE.items() for _ in range(CARD_LIMIT[kind]))


@dataclass(frozen=True)
class CardCount:
    """Cards by kind, as the counter on the form asks for them."""

    fives: int = 0  # kings, Tarock I, XXI and Sküs
    queens: int = 0
    cavalls: int = 0
    jacks: int = 0
    others: int = 0  # every other tarock and pip card

    def by_kind(self) -> dict[str, int]:
        return {
            "fives": self.fives,
            "queens": self.queens,
            "cavalls": self.cavalls,
            "jacks": self.jacks,
            "others": self.others,
        }

    @property
    def cards(self) -> int:
        return sum(self.by_kind().values())


def card_points(cards: CardCount) -> int:
    """The points of these cards counted by threes (docs/rules.md §2.1):
    ``round(sum of values − 2/3 · number of cards)``; the whole deck counts 70.

    Raises ``InvalidInput`` naming ``cards.<kind>`` for a count the deck cannot have.
    """
    for kind, number in cards.by_kind().items():
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= CARD_LIMIT[kind]:
            raise invalid(
                f"cards.{kind}",
                gettext_noop("a whole number from 0 to {limit} (got {got})"),
                limit=CARD_LIMIT[kind],
                got=str(number),
            )
    # 3·Σ − 2·n thirds; the fraction is a third or two thirds, never a half:
    # rounding to whole points is unambiguous.
    return round(Fraction(card_thirds(cards.by_kind()), 3))


def count_by_threes(values: Sequence[int]) -> int:
    """Count cards as the players do: in groups of three, each group 2 less;
    a last one or two cards lose 2/3 each; round to the nearest point."""
    total = Fraction(0)
    for start in range(0, len(values), 3):
        group = values[start : start + 3]
        if len(group) == 3:
            total += sum(group) - 2
        else:
            total += sum(group) - Fraction(2, 3) * len(group)
    return round(total)


# --------------------------------------------------------------------------
# What the hand form offers


def played_form_fields(options: IllustratedOptions) -> tuple[Field, ...]:
    """The played-hand fields with only the choices these house rules allow:
    the premiums known here, the announcement levels of the profile, per-item
    kontra only in graz, Mondfang only in graz."""
    graz = options.profile is Profile.GRAZ
    levels = (Announced.SILENT, Announced.AFTER_TALON) if graz else tuple(Announced)

    def narrowed(field: Field) -> Field:
        if field.name == "premiums":
            items = []
            for item in field.fields:
                if item.name == "type":
                    item = replace(item, choices=premium_types(options))
                elif item.name == "announced":
                    # Graz announces only an ultimo; every other premium is silent.
                    ultimo = ("type", tuple(t.value for t in PremiumType if t in ULTIMOS)) if graz else None
                    item = replace(item, choices=levels, shown_when=ultimo)
                elif item.name == "kontra":
                    if not graz:
                        continue
                    # A silent premium cannot be kontra'd.
                    item = replace(item, shown_when=("announced", (Announced.AFTER_TALON.value,)))
                items.append(item)
            # Drawn as a grid: a premium's player, then how it went, as these rules allow.
            states = {
                t: tuple(
                    (level, made)
                    for made in (True, False)
                    for level in announcement_levels(t, options.profile)
                    if made or t not in CANNOT_FAIL
                )
                for t in premium_types(options)
            }
            return replace(field, fields=tuple(items), grid=True, states=states)
        if field.name == "valat":
            items = [
                replace(item, choices=valat_levels(options.profile)) if item.name == "announced" else item
                for item in field.fields
                if graz or item.name != "kontra"
            ]
            return replace(field, fields=tuple(items))
        return field

    return tuple(narrowed(f) for f in PLAYED_FIELDS if graz or f.name != "mondfang")


def _count_field(kind: str, label: str) -> Field:
    return Field(kind, Kind.INT, label, minimum=Fraction(0), maximum=Fraction(CARD_LIMIT[kind]), default=0)


COUNTER_FIELDS = (
    _count_field("fives", gettext_noop("Kings, Pagat, Mond, Sküs (5)")),
    _count_field("queens", gettext_noop("Queens (4)")),
    _count_field("cavalls", gettext_noop("Cavalls (3)")),
    _count_field("jacks", gettext_noop("Jacks (2)")),
    _count_field("others", gettext_noop("Other cards (1)")),
)
COUNTER_PLAYER = Field("player", Kind.PLAYER, gettext_noop("Whose cards"), required=True)


def count_cards(values: Mapping[str, Any]) -> int:
    return card_points(CardCount(**{kind: values[kind] for kind in CARD_VALUE}))


def opponents_valat(values: Mapping[str, Any]) -> bool:
    """Whether a hand's inputs so far record a valat the opponents made (outside a renonce)."""
    valat = values.get("valat")
    return (
        isinstance(valat, Mapping)
        and valat.get("by") == ValatBy.OPPONENTS
        and valat.get("made", True) is not False
        and not values.get("renonce")
    )


def discard_counter(game: Any) -> CardCounter:
    """docs/rules.md §2.6: the opponents took every trick, so the declarer's points are his
    own discard, as many cards as he took from the talon; count those. The help
    says how many cards and what they can count (Dreiblatt 1 to 13)."""
    if game not in tuple(Game):
        return CardCounter(
            COUNTER_FIELDS,
            "points",
            count_cards,
            Line(
                gettext_noop(
                    "The opponents took every trick: the declarer's points are his own discard. "
                    "Choose the game to see how many cards to count."
                )
            ),
        )
    game = Game(game)
    cards = TALON_TAKEN[game]
    low, high = discard_points(game)

    def count(values: Mapping[str, Any]) -> int:
        counted = CardCount(**{kind: values[kind] for kind in CARD_VALUE})
        if counted.cards != cards:
            raise invalid(
                "cards",
                gettext_noop("the declarer's discard in this {game} is {cards} (counted: {got})"),
                game=GAME_LABEL[game],
                cards=discard_cards(game),
                got=counted.cards,
            )
        return card_points(counted)

    if not cards:
        help_line = Line(
            gettext_noop("The opponents took every trick and a {game} has no discard: the declarer has 0."),
            {"game": GAME_LABEL[game]},
        )
    else:
        help_line = Line(
            gettext_noop(
                "The opponents took every trick: count the declarer's discard, {cards} in this {game}; "
                "his points are {low} to {high}."
            ),
            {"cards": discard_cards(game), "game": GAME_LABEL[game], "low": low, "high": high},
        )
    return CardCounter(COUNTER_FIELDS, "points", count, help_line)
