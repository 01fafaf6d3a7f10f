"""Illustriertes Tarock's words and house rules, a hand as played, the fields that read it
and the cards counted (docs/rules.md §2): the data the rest of the game reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .schema import Field, Kind
from .tarock54 import CARD_LIMIT, CARD_VALUE, POINTS, card_thirds, kontra_field
from .types import HandType, gettext_noop, invalid

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
