"""Königrufen for four players, five with the dealer sitting out (docs/rules.md §4).

A hand is settled item by item ("Posten"): the game — or the Valat that replaces
it —, each premium, and a fixed Valat. Each item has a value ``v`` per opponent,
the side that wins it and a Kontra factor ``k`` (1, 2, 4, 8). With a partner
(2 v 2) each winner gets ``v·k`` and each loser pays it; otherwise (1 v 3) the
declarer gets or pays ``3·v·k`` and each opponent the opposite ``v·k``. Negative
games settle each opponent's Kontra with the declarer alone; Trischaken is
everyone for himself under one of five schemes.

The values come in tariff sets, one per cup (``TARIFFS``). With the house rule
``kontra_in_score`` off (the cups' way), a hand's deltas are the Kontra-free
Schrift and its ``money`` carries every Kontra; the session settles the money.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .form_input import grid_side
from .schema import (
    Field,
    Kind,
    clean,
    clean_value,
    in_field_order,
    label_at,
    renamed,
    thirds_json,
    thirds_text,
)
from .tarock54 import (
    CARD_LIMIT,
    CARD_VALUE,
    KONTRA_CHOICE_LABELS,
    KONTRA_LABEL,
    MAX_KONTRA,
    THIRDS,
    Side,
    card_thirds,
    kontra_factor,
    kontra_field,
    premium_winner,
)
from .types import (
    Arg,
    Formula,
    HandScore,
    HandType,
    InvalidInput,
    Join,
    Line,
    Table,
    allowed_list,
    deltas_line,
    gettext_noop,
    invalid,
    labels,
    names,
    zero_deltas,
)
from .variant import (
    CardCounter,
    FixedOption,
    HandRecord,
    HandStats,
    StoredHand,
    Summary,
    TournamentTerms,
    Variant,
    seat_stats,
    sum_deltas,
)

# --------------------------------------------------------------------------
# The games


class Game(StrEnum):
    TRISCHAKEN = "trischaken"
    RUFER = "rufer"
    PICCOLO = "piccolo"
    ZWICCOLO = "zwiccolo"
    BETTEL = "bettel"
    SOLORUFER = "solorufer"
    BESSERRUFER = "besserrufer"
    PAGATRUFER = "pagatrufer"
    UHURUFER = "uhurufer"
    KAKADURUFER = "kakadurufer"
    QUAPILRUFER = "quapilrufer"
    FARBENDREIER = "farbendreier"
    SECHSERDREIER = "sechserdreier"
    DREIER = "dreier"
    FARBENSOLO = "farbensolo"
    PICCOLO_OUVERT = "piccolo_ouvert"
    ZWICCOLO_OUVERT = "zwiccolo_ouvert"
    BETTEL_OUVERT = "bettel_ouvert"
    SOLODREIER = "solodreier"


GAME_LABEL = {
    Game.TRISCHAKEN: gettext_noop("Trischaken"),
    Game.RUFER: gettext_noop("Rufer"),
    Game.PICCOLO: gettext_noop("Piccolo"),
    Game.ZWICCOLO: gettext_noop("Zwiccolo"),
    Game.BETTEL: gettext_noop("Bettel"),
    Game.SOLORUFER: gettext_noop("Solorufer"),
    Game.BESSERRUFER: gettext_noop("Besserrufer"),
    Game.PAGATRUFER: gettext_noop("Pagatrufer"),
    Game.UHURUFER: gettext_noop("Uhurufer"),
    Game.KAKADURUFER: gettext_noop("Kakadurufer"),
    Game.QUAPILRUFER: gettext_noop("Quapilrufer"),
    Game.FARBENDREIER: gettext_noop("Farbendreier"),
    Game.SECHSERDREIER: gettext_noop("Sechserdreier"),
    Game.DREIER: gettext_noop("Dreier"),
    Game.FARBENSOLO: gettext_noop("Farbensolo"),
    Game.PICCOLO_OUVERT: gettext_noop("Piccolo ouvert"),
    Game.ZWICCOLO_OUVERT: gettext_noop("Zwiccolo ouvert"),
    Game.BETTEL_OUVERT: gettext_noop("Bettel ouvert"),
    Game.SOLODREIER: gettext_noop("Solodreier"),
}


class Bird(StrEnum):
    PAGAT = "pagat"
    UHU = "uhu"
    KAKADU = "kakadu"
    QUAPIL = "quapil"


class PremiumType(StrEnum):
    TRULL = "trull"
    VIER_KOENIGE = "vier_koenige"
    PAGAT = "pagat"
    UHU = "uhu"
    KAKADU = "kakadu"
    QUAPIL = "quapil"
    KOENIG_ULTIMO = "koenig_ultimo"
    MONDFANG = "mondfang"
    SACK_1 = "sack_1"
    SACK_2 = "sack_2"


PREMIUM_LABEL = {
    PremiumType.TRULL: gettext_noop("Trull"),
    PremiumType.VIER_KOENIGE: gettext_noop("Vier Könige"),
    PremiumType.PAGAT: gettext_noop("Pagat"),
    PremiumType.UHU: gettext_noop("Uhu"),
    PremiumType.KAKADU: gettext_noop("Kakadu"),
    PremiumType.QUAPIL: gettext_noop("Quapil"),
    PremiumType.KOENIG_ULTIMO: gettext_noop("König ultimo"),
    PremiumType.MONDFANG: gettext_noop("Mondfang"),
    PremiumType.SACK_1: gettext_noop("1. Sack"),
    PremiumType.SACK_2: gettext_noop("2. Sack"),
}
BIRD_LABEL = {bird: PREMIUM_LABEL[PremiumType(bird.value)] for bird in Bird}


class KingInTalon(StrEnum):
    PLAYED = "played"
    CONCEDED = "conceded"


class Tariff(StrEnum):
    OOE_2023 = "ooe_2023"
    SAUWALD_2019 = "sauwald_2019"
    WTC_2020 = "wtc_2020"
    TIROL_2020 = "tirol_2020"
    TAROCKAPP = "tarockapp"


class Scheme(StrEnum):
    """How a Trischaken is paid (docs/rules.md §4.13)."""

    OOE = "ooe"
    SAUWALD = "sauwald"
    WTC = "wtc"
    TIROL = "tirol"
    TAROCKAPP = "tarockapp"


class ValatModel(StrEnum):
    MULTIPLIER = "multiplier"  # the Valat replaces the game item: game value × 4 / × 8
    FIXED = "fixed"  # the Valat is a premium worth 10 / 20 beside the game item


class WinThreshold(StrEnum):
    P35_2 = "35/2"
    P35_1 = "35/1"


THRESHOLD_THIRDS = {WinThreshold.P35_2: 107, WinThreshold.P35_1: 106}

BIRD_CALLERS = {
    Game.PAGATRUFER: Bird.PAGAT,
    Game.UHURUFER: Bird.UHU,
    Game.KAKADURUFER: Bird.KAKADU,
    Game.QUAPILRUFER: Bird.QUAPIL,
}
BIRD_GAMES = frozenset({Game.BESSERRUFER, *BIRD_CALLERS})
RUFER_GAMES = frozenset({Game.RUFER, Game.SOLORUFER, *BIRD_GAMES})
SOLO_GAMES = frozenset({Game.SOLORUFER, Game.SOLODREIER, Game.FARBENSOLO})
FARBENSPIELE = frozenset({Game.FARBENDREIER, Game.FARBENSOLO})
NEGATIVE_GAMES = frozenset(
    {
        Game.PICCOLO,
        Game.ZWICCOLO,
        Game.BETTEL,
        Game.PICCOLO_OUVERT,
        Game.ZWICCOLO_OUVERT,
        Game.BETTEL_OUVERT,
    }
)
POSITIVE_GAMES = frozenset(Game) - NEGATIVE_GAMES - {Game.TRISCHAKEN}
BIRDS = frozenset({PremiumType.PAGAT, PremiumType.UHU, PremiumType.KAKADU, PremiumType.QUAPIL})
# What a silent premium that failed can be: played in its trick and the trick lost.
MAY_FAIL_SILENT = BIRDS | {PremiumType.KOENIG_ULTIMO}
# Made by taking tricks: the side without a trick (beside a made Valat) cannot make them.
TRICK_PREMIUMS = BIRDS | {PremiumType.KOENIG_ULTIMO, PremiumType.MONDFANG}
FARBENSPIEL_PREMIUMS = frozenset({PremiumType.VIER_KOENIGE, PremiumType.SACK_1, PremiumType.SACK_2})
# The Säcke: a side reaches 45/2 / 55/2.
SACK_THIRDS = {PremiumType.SACK_1: 137, PremiumType.SACK_2: 167}
HOLDING_PREMIUMS = frozenset({PremiumType.TRULL, PremiumType.VIER_KOENIGE})

PREMIUM_VALUES: dict[PremiumType, tuple[int, int]] = {
    PremiumType.PAGAT: (1, 2),
    PremiumType.UHU: (2, 4),
    PremiumType.KAKADU: (3, 6),
    PremiumType.QUAPIL: (4, 8),
    PremiumType.KOENIG_ULTIMO: (1, 2),
    PremiumType.TRULL: (1, 2),
    PremiumType.VIER_KOENIGE: (1, 2),
}
TIROL_EXTRAS: dict[PremiumType, tuple[int, int]] = {
    PremiumType.MONDFANG: (1, 2),
    PremiumType.SACK_1: (1, 2),
    PremiumType.SACK_2: (1, 2),
}
VALAT_MULTIPLIERS = (4, 8)
VALAT_FIXED = (10, 20)


class BesideValat(StrEnum):
    """Which premiums count beside a Valat (docs/rules.md §4.9)."""

    ANNOUNCED_ONLY = "announced_only"  # multiplier sets: announced ones only
    WTC = "wtc"  # all except silent Trull and silent Vier Könige
    TIROL = "tirol"  # birds, König ultimo, Mondfang; no Trull, Vier Könige, Säcke


@dataclass(frozen=True)
class TariffSet:
    """One cup's values (docs/rules.md §4.4): game values per opponent, in the table's order."""

    label: str
    games: Mapping[Game, int]
    valat: ValatModel
    beside_valat: BesideValat
    silent_valat_voids_kontra: bool
    extras: Mapping[PremiumType, tuple[int, int]]
    scheme: Scheme


TARIFFS: dict[Tariff, TariffSet] = {
    Tariff.OOE_2023: TariffSet(
        gettext_noop("OÖ 4/2023"),
        {
            Game.TRISCHAKEN: 1,
            Game.RUFER: 1,
            Game.PICCOLO: 2,
            Game.BETTEL: 2,
            Game.SOLORUFER: 2,
            Game.BESSERRUFER: 1,
            Game.FARBENDREIER: 3,
            Game.SECHSERDREIER: 4,
            Game.DREIER: 4,
            Game.FARBENSOLO: 6,
            Game.PICCOLO_OUVERT: 6,
            Game.BETTEL_OUVERT: 7,
            Game.SOLODREIER: 8,
        },
        ValatModel.MULTIPLIER,
        BesideValat.ANNOUNCED_ONLY,
        False,
        {},
        Scheme.OOE,
    ),
    Tariff.SAUWALD_2019: TariffSet(
        gettext_noop("Sauwald 2019"),
        {
            Game.TRISCHAKEN: 1,
            Game.RUFER: 1,
            Game.PICCOLO: 2,
            Game.BETTEL: 2,
            Game.SOLORUFER: 2,
            Game.BESSERRUFER: 1,
            Game.SECHSERDREIER: 4,
            Game.DREIER: 4,
            Game.FARBENSOLO: 5,
            Game.PICCOLO_OUVERT: 6,
            Game.BETTEL_OUVERT: 7,
            Game.SOLODREIER: 8,
        },
        ValatModel.MULTIPLIER,
        BesideValat.ANNOUNCED_ONLY,
        False,
        {},
        Scheme.SAUWALD,
    ),
    Tariff.WTC_2020: TariffSet(
        gettext_noop("Wiener Tarockcup 2020"),
        {
            Game.TRISCHAKEN: 2,
            Game.RUFER: 1,
            Game.PICCOLO: 2,
            Game.ZWICCOLO: 2,
            Game.BETTEL: 4,
            Game.SOLORUFER: 2,
            Game.PAGATRUFER: 1,
            Game.UHURUFER: 1,
            Game.KAKADURUFER: 1,
            Game.QUAPILRUFER: 1,
            Game.FARBENDREIER: 5,
            Game.SECHSERDREIER: 4,
            Game.DREIER: 5,
            Game.FARBENSOLO: 10,
            Game.PICCOLO_OUVERT: 6,
            Game.ZWICCOLO_OUVERT: 6,
            Game.BETTEL_OUVERT: 8,
            Game.SOLODREIER: 10,
        },
        ValatModel.FIXED,
        BesideValat.WTC,
        True,
        {},
        Scheme.WTC,
    ),
    Tariff.TIROL_2020: TariffSet(
        gettext_noop("Tiroler Tarockcup 2020"),
        {
            Game.TRISCHAKEN: 2,
            Game.RUFER: 1,
            Game.PICCOLO: 2,
            Game.BETTEL: 4,
            Game.SOLORUFER: 2,
            Game.BESSERRUFER: 1,
            Game.FARBENDREIER: 5,
            Game.SECHSERDREIER: 4,
            Game.DREIER: 5,
            Game.FARBENSOLO: 10,
            Game.PICCOLO_OUVERT: 8,
            Game.ZWICCOLO_OUVERT: 8,
            Game.BETTEL_OUVERT: 8,
            Game.SOLODREIER: 10,
        },
        ValatModel.FIXED,
        BesideValat.TIROL,
        False,
        TIROL_EXTRAS,
        Scheme.TIROL,
    ),
    Tariff.TAROCKAPP: TariffSet(
        gettext_noop("tarockapp.at"),
        {
            Game.TRISCHAKEN: 1,
            Game.RUFER: 1,
            Game.PICCOLO: 1,
            Game.ZWICCOLO: 1,
            Game.BETTEL: 3,
            Game.SOLORUFER: 2,
            Game.BESSERRUFER: 1,
            Game.FARBENDREIER: 4,
            Game.SECHSERDREIER: 3,
            Game.DREIER: 4,
            Game.FARBENSOLO: 8,
            Game.PICCOLO_OUVERT: 5,
            Game.BETTEL_OUVERT: 7,
            Game.SOLODREIER: 8,
        },
        ValatModel.MULTIPLIER,
        BesideValat.ANNOUNCED_ONLY,
        False,
        {},
        Scheme.TAROCKAPP,
    ),
}
TARIFF_LABEL = {tariff: tariff_set.label for tariff, tariff_set in TARIFFS.items()}
SCHEME_LABEL = {
    Scheme.OOE: gettext_noop("OÖ"),
    Scheme.SAUWALD: gettext_noop("Sauwald"),
    Scheme.WTC: gettext_noop("Wiener Tarockcup"),
    Scheme.TIROL: gettext_noop("Tirol"),
    Scheme.TAROCKAPP: gettext_noop("tarockapp.at"),
}

# --------------------------------------------------------------------------
# House rules

MAX_GAME_VALUE = 1000
MAX_PREMIUM_VALUE = 1000


@dataclass(frozen=True)
class KoenigrufenOptions:
    tariff: Tariff = Tariff.OOE_2023
    kontra_in_score: bool = True
    silent_failure_counts: bool = False
    win_threshold: WinThreshold = WinThreshold.P35_2
    trischaken: Scheme = Scheme.OOE  # parse_options puts the tariff's scheme when none is named
    doubled_radl: bool = False
    game_values: Mapping[Game, int] = field(default_factory=dict)
    premium_values: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def set(self) -> TariffSet:
        return TARIFFS[Tariff(self.tariff)]

    @property
    def threshold(self) -> int:
        """The thirds the declarer's side needs to win a positive game."""
        return THRESHOLD_THIRDS[WinThreshold(self.win_threshold)]

    def games(self) -> tuple[Game, ...]:
        """The games of the tariff (and those ``game_values`` adds), in the tariff's order."""
        own = tuple(self.set.games)
        return own + tuple(game for game in Game if game in self.game_values and game not in own)

    def game_value(self, game: Game) -> int | None:
        if game in self.game_values:
            return self.game_values[game]
        return self.set.games.get(game)

    def premium_types(self) -> tuple[PremiumType, ...]:
        return tuple(t for t in PremiumType if self.premium_value(t) is not None)

    def premium_value(self, premium: PremiumType) -> tuple[int, int] | None:
        """Silent and announced value, or None where the set (and ``premium_values``) lacks it."""
        if premium.value in self.premium_values:
            return self.premium_values[premium.value]
        return PREMIUM_VALUES.get(premium) or self.set.extras.get(premium)

    def valat_values(self) -> tuple[int, int]:
        """The two multipliers (multiplier sets) or the two fixed values (fixed sets)."""
        if "valat" in self.premium_values:
            return self.premium_values["valat"]
        return VALAT_MULTIPLIERS if self.set.valat is ValatModel.MULTIPLIER else VALAT_FIXED


TARIFF_FIELD = Field(
    "tariff",
    Kind.CHOICE,
    gettext_noop("Tariff"),
    help=gettext_noop(
        "Whose values: OÖ 4/2023 (the default, the Upper Austrian cups), Sauwald 2019, "
        "Wiener Tarockcup 2020, Tiroler Tarockcup 2020 or tarockapp.at. It decides which games "
        "are offered and what each is worth, how a Valat counts (the game ×4 / ×8, or 10 / 20 "
        "beside it) and how a Trischaken is paid. Kontra goes up to Subkontra (×8) in every tariff."
    ),
    choices=tuple(Tariff),
    choice_labels=TARIFF_LABEL,
    default=Tariff.OOE_2023,
)
OPTION_FIELDS = (
    TARIFF_FIELD,
    Field(
        "kontra_in_score",
        Kind.BOOL,
        gettext_noop("Kontra counts in the score"),
        help=gettext_noop(
            "On (the default, a private table): every Kontra doubles what the sheet writes. "
            "Off (a cup table): the sheet writes the Schrift without Kontras for the ranking, "
            "and the Kontras are paid in money beside it."
        ),
        default=True,
    ),
    Field(
        "silent_failure_counts",
        Kind.BOOL,
        gettext_noop("A silent bird or König ultimo that fails counts"),
        help=gettext_noop(
            "A silent Pagat, Uhu, Kakadu, Quapil or König ultimo played in its trick and the trick lost. "
            "Off (the default, every cup): it counts nothing. On: the other side gets its silent value."
        ),
        default=False,
    ),
    Field(
        "win_threshold",
        Kind.CHOICE,
        gettext_noop("The declarer's side wins with"),
        help=gettext_noop("35/2 (the default, every cup): 35 points and 2 Blatt; 35/1: some Styrian tables."),
        choices=tuple(WinThreshold),
        choice_labels={WinThreshold.P35_2: "35/2", WinThreshold.P35_1: "35/1"},
        default=WinThreshold.P35_2,
    ),
    Field(
        "trischaken",
        Kind.CHOICE,
        gettext_noop("Trischaken is paid"),
        help=gettext_noop(
            "Who pays in a Trischaken: the player with the most points loses, more as Bürgermeister "
            "(35 or 36 points and more, by cup), and a Jungfrau (no trick) is paid; the cups differ "
            "in the amounts and in who shares them. As the tariff says (the default): its cup's way."
        ),
        choices=tuple(Scheme),
        choice_labels=SCHEME_LABEL,
        nullable=True,
        null_label=gettext_noop("as the tariff says"),
    ),
    Field(
        "doubled_radl",
        Kind.BOOL,
        gettext_noop("Doubled Radl after a Trischaken"),
        help=gettext_noop(
            "Off (the default, every cup). On: after a Trischaken the next round, one deal per player "
            "at the table, counts double; rounds that overlap double again."
        ),
        default=False,
    ),
)
VALUE_KEYS = ("game_values", "premium_values")

# --------------------------------------------------------------------------
# Hands


@dataclass(frozen=True)
class Premium:
    type: PremiumType
    side: Side
    announced: bool = False
    made: bool = True
    kontra: int = 0


@dataclass(frozen=True)
class Valat:
    side: Side
    announced: bool = False
    made: bool = True
    kontra: int = 0


@dataclass(frozen=True)
class KoenigrufenHand:
    """A hand as recorded (docs/rules.md §4.5). Card points in thirds."""

    declarer: str
    game: Game
    bird: Bird | None = None
    partner: str | None = None
    king_in_talon: KingInTalon | None = None
    points: int | None = None  # the declarer's side's thirds (positive games)
    won: bool | None = None  # negative games
    kontra: int = 0  # positive games: the level on the game
    opponent_kontra: Mapping[str, int] = field(default_factory=dict)  # negative games
    premiums: tuple[Premium, ...] = ()
    valat: Valat | None = None
    renonce: tuple[str, ...] = ()
    each: Mapping[str, int] | None = None  # Trischaken: every player's thirds

    @property
    def called_bird(self) -> Bird | None:
        return BIRD_CALLERS.get(self.game, self.bird)

    @property
    def conceded(self) -> bool:
        return self.king_in_talon is KingInTalon.CONCEDED

    @property
    def two_against_two(self) -> bool:
        return self.game in RUFER_GAMES and self.partner is not None


SIDE_CHOICE_LABELS = {
    Side.DECLARER: gettext_noop("the declarer's side"),
    Side.OPPONENTS: gettext_noop("the opponents' side"),
}


# A premium grid's columns: the side, in a word.
SIDE_SHORT_LABELS = {Side.DECLARER: gettext_noop("Declarer"), Side.OPPONENTS: gettext_noop("Defenders")}


def _when(games: frozenset[Game] | set[Game]) -> tuple[str, tuple[str, ...]]:
    return ("game", tuple(game.value for game in Game if game in games))


POINTS_FIELD = Field(
    "points",
    Kind.POINTS,
    gettext_noop("Points of the declarer's side"),
    help=gettext_noop(
        "Card points as points and Blatt: 41 or 41/2 (41 points and 2 Blatt); 35/2 wins. "
        "Left out in a Renonce hand."
    ),
    minimum=Fraction(0),
    maximum=Fraction(70),
    nullable=True,
    thirds=True,
)
EACH_FIELD = Field(
    "points",
    Kind.PLAYER_POINTS,
    gettext_noop("Points of each player"),
    help=gettext_noop("Trischaken: each player's card points, 0 for a player without a trick."),
    minimum=Fraction(0),
    maximum=Fraction(70),
    thirds=True,
)
KONTRA_FIELD = kontra_field(
    "kontra",
    gettext_noop("Kontra"),
    gettext_noop(
        "On the game: Kontra ×2, Rekontra ×4, Subkontra ×8. In a Piccolo or Bettel each opponent kontras for himself."
    ),
)
RENONCE_FIELD = Field(
    "renonce",
    Kind.PLAYER,
    gettext_noop("Renonce by"),
    help=gettext_noop(
        "A revoke or other breach ends the hand: everyone else is paid as if his side had won "
        "the game and every announced premium. One or two players."
    ),
    nullable=True,
    null_label=gettext_noop("none"),
    rare=True,
)

KING_IN_TALON_FIELD = Field(
    "king_in_talon",
    Kind.CHOICE,
    gettext_noop("King in the talon"),
    help=gettext_noop(
        "The called king lay in the talon: played on alone (1 against 3), or conceded (the declarer pays)."
    ),
    choices=tuple(KingInTalon),
    choice_labels={
        KingInTalon.PLAYED: gettext_noop("king in the talon, played on"),
        KingInTalon.CONCEDED: gettext_noop("king in the talon, conceded"),
    },
    nullable=True,
    null_label=gettext_noop("no"),
    shown_when=_when(RUFER_GAMES),
)

HAND_FIELDS = (
    Field("declarer", Kind.PLAYER, gettext_noop("Declarer"), required=True),
    Field(
        "game",
        Kind.CHOICE,
        gettext_noop("Game"),
        choices=tuple(Game),
        choice_labels=GAME_LABEL,
        required=True,
    ),
    Field(
        "bird",
        Kind.CHOICE,
        gettext_noop("Bird of the bid"),
        help=gettext_noop("A Besserrufer names the bird it announces: Pagat, Uhu, Kakadu or Quapil."),
        choices=tuple(Bird),
        choice_labels=BIRD_LABEL,
        nullable=True,
        shown_when=_when(BIRD_GAMES),
    ),
    Field(
        "partner",
        Kind.PLAYER,
        gettext_noop("Partner (holder of the called king)"),
        nullable=True,
        null_label=gettext_noop("nobody: the king lay in the talon"),
        shown_when=_when(RUFER_GAMES),
        other_than="declarer",
    ),
    KING_IN_TALON_FIELD,
    POINTS_FIELD,
    Field(
        "won",
        Kind.BOOL,
        gettext_noop("Won"),
        help=gettext_noop("Piccolo: exactly one trick; Zwiccolo: exactly two; Bettel: none."),
        nullable=True,
        shown_when=_when(NEGATIVE_GAMES),
    ),
    KONTRA_FIELD,
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
            Field(
                "side",
                Kind.CHOICE,
                gettext_noop("Side"),
                choices=tuple(Side),
                choice_labels=SIDE_CHOICE_LABELS,
                required=True,
            ),
            Field("announced", Kind.BOOL, gettext_noop("Announced"), default=False),
            Field("made", Kind.BOOL, gettext_noop("Made"), default=True),
            kontra_field(
                "kontra",
                gettext_noop("Kontra on this premium"),
                gettext_noop("Only on an announced premium."),
            ),
        ),
        default=(),
        max_items=len(PremiumType),
    ),
    Field(
        "valat",
        Kind.RECORD,
        gettext_noop("Valat"),
        help=gettext_noop("All twelve tricks to one side."),
        fields=(
            Field(
                "side",
                Kind.CHOICE,
                gettext_noop("Side"),
                choices=tuple(Side),
                choice_labels=SIDE_CHOICE_LABELS,
                required=True,
            ),
            Field("announced", Kind.BOOL, gettext_noop("Announced"), default=False),
            Field("made", Kind.BOOL, gettext_noop("Made"), default=True),
            kontra_field(
                "kontra", gettext_noop("Kontra on the Valat"), gettext_noop("Only on an announced Valat.")
            ),
        ),
        nullable=True,
        null_label=gettext_noop("none"),
        rare=True,
    ),
    RENONCE_FIELD,
)
# Fields whose shape depends on the game (a number or one per player; one player or two).
SHAPED = ("points", "kontra", "renonce")
TRISCHAKEN_KEYS = ("declarer", "game", "points", "renonce")
FORM_ORDER = (
    "declarer",
    "game",
    "partner",
    "bird",
    "points",
    "won",
    "kontra",
    "premiums",
    "valat",
    "renonce",
)
CONCEDED_KEYS = ("declarer", "game", "king_in_talon", "bird")
# What a hand form sends even when left alone (the partner "nobody" beside a king in the
# talon): none of them at its default records anything.
UNTOUCHED_KEYS = ("partner", "kontra", "premiums", "valat", "renonce")

# The hand form's own shapes of the fields that depend on the game: the side's
# points (typed for either side), each player's in a Trischaken; the Kontra on
# the game, each opponent's in a negative game; one or two Renonce offenders.
FORM_POINTS_FIELD = replace(
    POINTS_FIELD,
    nullable=False,
    ask=True,
    asked_unless="renonce",
    complement=Fraction(70),
    side_labels=(gettext_noop("Declarer"), gettext_noop("Opponents")),
    shown_when=_when(POSITIVE_GAMES),
)
FORM_EACH_FIELD = replace(
    EACH_FIELD,
    help=gettext_noop("Each player's card points, 41 or 41/2; 0 for a Jungfrau (no trick)."),
    shown_when=("game", (Game.TRISCHAKEN.value,)),
)
FORM_OPPONENT_KONTRA_FIELD = Field(
    "kontra",
    Kind.PLAYER_LEVELS,
    gettext_noop("Kontra of each opponent"),
    help=gettext_noop("Each opponent kontras for himself: Kontra ×2, Rekontra ×4, Subkontra ×8."),
    minimum=Fraction(0),
    maximum=Fraction(MAX_KONTRA),
    choice_labels=KONTRA_CHOICE_LABELS,
    default=0,
    shown_when=_when(NEGATIVE_GAMES),
    other_than="declarer",
)
FORM_RENONCE_FIELD = replace(RENONCE_FIELD, kind=Kind.PLAYER_LIST, null_label="")


# The card counter, as Illustriertes counts the same 54 cards, in thirds here.
COUNTER_FIELDS = tuple(
    Field(kind, Kind.INT, label, minimum=Fraction(0), maximum=Fraction(CARD_LIMIT[kind]), default=0)
    for kind, label in (
        ("fives", gettext_noop("Kings, Pagat, Mond, Sküs (5)")),
        ("queens", gettext_noop("Queens (4)")),
        ("cavalls", gettext_noop("Knights (3)")),  # Reiter, as the Königrufen table says them
        ("jacks", gettext_noop("Jacks (2)")),
        ("others", gettext_noop("Other cards (1)")),
    )
)
COUNTER_PLAYER = Field("player", Kind.PLAYER, gettext_noop("Whose cards"), required=True)


def _bid_bird_only(raw: Mapping[str, Any]) -> bool:
    """Whether a conceded hand's premiums are only its bid's bird as the form fills it in."""
    game = raw.get("game")
    bird = BIRD_CALLERS.get(Game(game)) if game in tuple(Game) else None
    bird_value = bird.value if bird is not None else raw.get("bird")
    premiums = raw.get("premiums")
    if raw.get("king_in_talon") != KingInTalon.CONCEDED.value or not isinstance(premiums, list | tuple):
        return False
    row = premiums[0] if len(premiums) == 1 and isinstance(premiums[0], Mapping) else {}
    return (
        set(row) <= {"type", "side", "announced", "made", "kontra"}
        and row.get("type") == bird_value
        and row.get("side") == Side.DECLARER.value
        and row.get("announced") in (True, None)  # None: how it went left unanswered
        and row.get("made", True) is True
        and not row.get("kontra")
    )


def _bird_row(bird: Bird, types: Sequence[PremiumType]) -> dict[str, str]:
    """The premium grid's row of the bid's bird as far as the bid says it: the
    declarer's side. How it went (announced and made, or announced and failed)
    is the player's one tap in that row: the bid cannot know it, and nothing
    that changes the score is preset."""
    if PremiumType(bird.value) not in types:
        return {}
    return grid_side("premiums", bird.value, Side.DECLARER.value)


def count_thirds(values: Mapping[str, Any]) -> str:
    """The points of the counted cards as the sheet writes them: ``41`` or ``41/2``."""
    return str(thirds_json(card_thirds({kind: values[kind] for kind in CARD_VALUE})))


def premium_states(premium: PremiumType) -> tuple[tuple[bool, bool], ...]:
    """How a premium can go, as (announced, made): silent or announced, made or
    failed; a silent one fails only where it is played in its trick (4.5)."""
    if premium in MAY_FAIL_SILENT:
        return ((False, True), (True, True), (False, False), (True, False))
    return ((False, True), (True, True), (True, False))


# --------------------------------------------------------------------------
# The variant


class Koenigrufen(Variant):
    key = "koenigrufen"
    name = gettext_noop("Königrufen")
    table_sizes = (4, 5)
    options_type = KoenigrufenOptions
    option_fields = OPTION_FIELDS
    # The tournaments' default game: cups write the Kontra-free Schrift and never double rounds (§1.1).
    tournament = TournamentTerms(
        order=0,
        rounds=3,
        hands=16,
        money_rate=Decimal("0.10"),
        kontra_cash=True,
        halves=False,
        heine=True,
        fixed=(
            FixedOption(
                "kontra_in_score",
                False,
                gettext_noop("must be false in a tournament: cups write the Kontra-free Schrift"),
            ),
            FixedOption(
                "doubled_radl", False, gettext_noop("must be false in a tournament: cups never double rounds")
            ),
        ),
    )

    # -- house rules ---------------------------------------------------------

    def parse_options(self, raw: Any, players: Sequence[str]) -> KoenigrufenOptions:
        """The house rules; ``trischaken`` left out is the tariff's scheme, the value
        tables ``game_values`` and ``premium_values`` change single values of the set."""
        raw = {} if raw is None else raw
        if not isinstance(raw, Mapping):
            clean(self.option_fields, raw, (), "options.")
        rest = {key: value for key, value in raw.items() if key not in VALUE_KEYS}
        problems: list[InvalidInput] = []
        values: dict[str, Any] = {}
        try:
            values = clean(self.option_fields, rest, (), "options.")
        except InvalidInput as error:
            problems.append(error)
        game_values: dict[Game, int] = {}
        premium_values: dict[str, tuple[int, int]] = {}
        try:
            game_values = read_game_values(raw.get("game_values", {}))
        except InvalidInput as error:
            problems.append(error)
        try:
            premium_values = read_premium_values(raw.get("premium_values", {}))
        except InvalidInput as error:
            problems.append(error)
        if problems:
            raise InvalidInput.several(problems)
        tariff = Tariff(values["tariff"])
        scheme = values["trischaken"]
        return KoenigrufenOptions(
            tariff=tariff,
            kontra_in_score=values["kontra_in_score"],
            silent_failure_counts=values["silent_failure_counts"],
            win_threshold=WinThreshold(values["win_threshold"]),
            trischaken=TARIFFS[tariff].scheme if scheme is None else Scheme(scheme),
            doubled_radl=values["doubled_radl"],
            game_values=game_values,
            premium_values=premium_values,
        )

    def dump_options(self, options: KoenigrufenOptions) -> dict[str, Any]:
        """Every house rule, the Trischaken scheme written out."""
        return {
            "tariff": options.tariff.value,
            "kontra_in_score": options.kontra_in_score,
            "silent_failure_counts": options.silent_failure_counts,
            "win_threshold": options.win_threshold.value,
            "trischaken": options.trischaken.value,
            "doubled_radl": options.doubled_radl,
            "game_values": {game.value: value for game, value in options.game_values.items()},
            "premium_values": {key: list(value) for key, value in options.premium_values.items()},
        }

    # -- the table -----------------------------------------------------------

    def sitting_out(self, players: Sequence[str], dealer: str | None) -> str | None:
        """At five the dealer sits out (docs/rules.md §4.2)."""
        return dealer if len(players) == 5 else None

    def needs_dealer(self, players: Sequence[str], options: Any) -> bool:
        return len(players) == 5

    def dealer_from_sitting_out(self, players: Sequence[str], sitting_out: str) -> str | None:
        return sitting_out if len(players) == 5 and sitting_out in players else None

    # -- hands ---------------------------------------------------------------

    def hand_fields(self, hand_type: HandType, table: Table, options: Any) -> tuple[Field, ...]:
        return HAND_FIELDS

    def form_fields(
        self, hand_type: HandType, table: Table, options: KoenigrufenOptions
    ) -> tuple[Field, ...]:
        """The hand form in the order the table decides (declarer, game, partner or
        king in the talon, points, Kontra, premiums), offering only the tariff's
        games in its order and its premiums."""
        by_name = {f.name: f for f in HAND_FIELDS}
        types = options.premium_types()
        narrowed = {
            **by_name,
            # A bird-caller's game and a Besserrufer's bird are the bid's bird: its
            # premium row (the declarer's side, announced) is filled in, to change there.
            "game": replace(
                by_name["game"],
                choices=options.games(),
                buttons=True,
                fills={game.value: _bird_row(bird, types) for game, bird in BIRD_CALLERS.items()},
            ),
            # No "none" beside the birds: a Besserrufer names one, a bird-caller's game does.
            "bird": replace(
                by_name["bird"],
                help=gettext_noop(
                    "The bird the Besserrufer announces: it stands among the premiums, announced by the "
                    "declarer's side; if it failed, say so there."
                ),
                null_choice=False,
                fills={bird.value: _bird_row(bird, types) for bird in Bird},
            ),
            "won": replace(
                by_name["won"],
                ask=True,
                asked_unless="renonce",
                choice_labels={True: gettext_noop("won"), False: gettext_noop("lost")},
            ),
            # A partner or the king in the talon, played on or conceded: one
            # choice, asked, never preset.
            "partner": replace(
                by_name["partner"],
                ask=True,
                null_label="",
                help=KING_IN_TALON_FIELD.help,
                joined=KING_IN_TALON_FIELD,
            ),
            "kontra": replace(by_name["kontra"], shown_when=_when(POSITIVE_GAMES)),
            "premiums": replace(
                by_name["premiums"],
                fields=tuple(
                    replace(f, choices=types)
                    if f.name == "type"
                    else replace(f, choice_labels=SIDE_SHORT_LABELS)
                    if f.name == "side"
                    else f
                    for f in by_name["premiums"].fields
                ),
                shown_when=_when(POSITIVE_GAMES),
                grid=True,
                states={t: premium_states(t) for t in types},
            ),
            "valat": replace(by_name["valat"], shown_when=_when(POSITIVE_GAMES)),
            "renonce": FORM_RENONCE_FIELD,
        }
        return tuple(
            field
            for name in FORM_ORDER
            for field in (
                (FORM_POINTS_FIELD, FORM_EACH_FIELD)
                if name == "points"
                else (narrowed["kontra"], FORM_OPPONENT_KONTRA_FIELD)
                if name == "kontra"
                else (narrowed[name],)
            )
        )

    def card_counter(
        self,
        hand_type: HandType,
        table: Table,
        options: KoenigrufenOptions,
        values: Mapping[str, Any] | None = None,
    ) -> CardCounter:
        """Count a side's cards (in a Trischaken a player's) in thirds: ``41/2``."""
        if values is not None and values.get("game") == Game.TRISCHAKEN.value:
            return CardCounter((COUNTER_PLAYER, *COUNTER_FIELDS), "points.{player}", count_thirds)
        return CardCounter(COUNTER_FIELDS, "points", count_thirds)

    def parse_play(
        self, hand_type: HandType, raw: Any, table: Table, options: Any, *, from_form: bool = False
    ) -> KoenigrufenHand | None:
        """The hand from raw values: the fields of one shape through the schema,
        ``points``, ``kontra`` and ``renonce`` by the game's shape, then the rules."""
        if hand_type is HandType.REDEAL:
            return None
        if not isinstance(raw, Mapping):
            clean(HAND_FIELDS, raw, table.active)
        # The premium row the bid's bird filled in on the form says only what the
        # bid says: a conceded hand records it by its bird, not as a premium.
        bird_only = from_form and _bid_bird_only(raw)
        plain = {
            key: value
            for key, value in raw.items()
            if key not in SHAPED and not (bird_only and key == "premiums")
        }
        problems: list[InvalidInput] = []
        values: dict[str, Any] = {}
        try:
            values = clean(
                [f for f in HAND_FIELDS if f.name not in SHAPED], plain, table.active, from_form=from_form
            )
        except InvalidInput as error:
            problems.append(error)
        game = raw.get("game")
        game = Game(game) if isinstance(game, str) and game in tuple(Game) else None
        shaped: dict[str, Any] = {}
        for name, read in (("points", _read_points), ("kontra", _read_kontra), ("renonce", _read_renonce)):
            try:
                shaped[name] = read(raw, game, table)
            except InvalidInput as error:
                problems.append(error)
        try:
            if problems:
                raise InvalidInput.several(problems)
            given = set(raw)
            if bird_only:
                given.discard("premiums")
                values = {**values, "premiums": ()}
            if from_form:
                # A form sends its untouched controls (no Kontra, no premium, no
                # Renonce): they record nothing, so a conceded hand may have them.
                given -= {key for key in UNTOUCHED_KEYS if raw.get(key) in (None, 0, [], {})}
            return build_hand({**values, **shaped}, given, table, options)
        except InvalidInput as error:
            raise error.labelled(lambda path: label_at(HAND_FIELDS, path)) from None

    def dump_play(self, hand_type: HandType, play: Any, table: Table, options: Any) -> dict[str, Any]:
        if play is None:
            return {}
        return dump_hand(play)

    def stored_in_order(
        self, hand_type: HandType, table: Table, options: Any, inputs: Mapping[str, Any]
    ) -> dict[str, Any]:
        if hand_type is HandType.REDEAL:
            return dict(inputs)
        ordered = in_field_order(HAND_FIELDS, inputs, table.active)
        rank = {name: index for index, name in enumerate(table.players)}
        for key in ("points", "kontra"):
            if isinstance(ordered.get(key), Mapping):
                ordered[key] = dict(
                    sorted(ordered[key].items(), key=lambda item: rank.get(item[0], len(rank)))
                )
        return ordered

    def renamed_inputs(
        self, hand_type: HandType, table: Table, options: Any, inputs: Mapping[str, Any], old: str, new: str
    ) -> dict[str, Any]:
        if hand_type is HandType.REDEAL:
            return dict(inputs)
        out = renamed(HAND_FIELDS, inputs, old, new)
        for key in ("points", "kontra"):
            if isinstance(out.get(key), Mapping):
                out[key] = {(new if name == old else name): value for name, value in out[key].items()}
        if isinstance(out.get("renonce"), list):
            out["renonce"] = [new if name == old else name for name in out["renonce"]]
        return out

    def score_record(self, record: HandRecord, options: KoenigrufenOptions) -> HandScore:
        result = super().score_record(record, options)
        if record.type is HandType.REDEAL and not options.kontra_in_score:
            return HandScore(result.deltas, result.breakdown, dict(result.deltas))
        if result.money is not None and sum(result.money.values()) != 0:
            raise AssertionError(f"koenigrufen: money must sum to zero: {result.money}")
        return result

    def score(self, record: HandRecord, options: KoenigrufenOptions) -> HandScore:
        hand: KoenigrufenHand = record.play
        return score_hand(hand, record.table, options)

    def looks_back(self, options: KoenigrufenOptions) -> bool:
        return options.doubled_radl

    def score_in_session(
        self, record: HandRecord, options: KoenigrufenOptions, earlier: Sequence[StoredHand]
    ) -> HandScore:
        """Doubled Radl (docs/rules.md §4.15): each Trischaken among the last N hands (N the
        players at the table) doubles this one."""
        score = self.score_record(record, options)
        factor = radl_factor(earlier, len(record.table.players)) if options.doubled_radl else 1
        if factor == 1:
            return score
        return HandScore(
            {name: value * factor for name, value in score.deltas.items()},
            (
                *score.breakdown,
                Line(
                    gettext_noop("Doubled Radl: every number of this hand × {factor}"),
                    {"factor": factor},
                ),
            ),
            None if score.money is None else {name: value * factor for name, value in score.money.items()},
        )

    def hand_facts(self, record: HandRecord) -> frozenset[str]:
        play = record.play
        if isinstance(play, KoenigrufenHand) and play.game is Game.TRISCHAKEN:
            return frozenset({TRISCHAKEN_FACT})
        return frozenset()

    def summarize(self, players: Sequence[str], hands: Sequence[StoredHand], options: Any) -> Summary:
        """The Schrift's totals; with ``kontra_in_score`` off, the money's too, which is settled."""
        totals = sum_deltas(players, [hand.deltas for hand in hands])
        if options.kontra_in_score:
            return Summary(totals=totals, net=dict(totals))
        money = sum_deltas(players, [hand.money if hand.money is not None else hand.deltas for hand in hands])
        return Summary(totals=totals, net=dict(money), money_totals=money)

    def describe(self, record: HandRecord) -> Line:
        return describe_hand(record.play)

    def played_stats(self, record: HandRecord, options: KoenigrufenOptions) -> HandStats:
        """The game; declarer, partner and opponents and which side won; premiums
        made (to each player of the side that made them) and failed; Valat; the
        Trischaken's loser, Bürgermeister and Jungfrauen; the Renonce."""
        hand: KoenigrufenHand = record.play
        table = record.table
        if hand.game is Game.TRISCHAKEN:
            each = hand.each or {}
            most = max(each.values()) if each else 0
            # The Trischaker among the most points loses alone (docs/rules.md §4.13).
            losers = (
                {hand.declarer}
                if each.get(hand.declarer) == most
                else {p for p, thirds in each.items() if thirds == most}
            )
            threshold = bürgermeister_threshold(options)
            return seat_stats(
                table,
                Game.TRISCHAKEN.value,
                won=lambda p: None if not each else p not in losers,
                marks=lambda p: (
                    (["trischaken_lost"] if each and p in losers else [])
                    + (["buergermeister"] if each and p in losers and each[p] >= threshold else [])
                    + (["jungfrau"] if each and each[p] == 0 else [])
                    + (["renonce"] if p in hand.renonce else [])
                ),
            )
        declarers = declarer_side(hand)
        won = declarer_won(hand, options)

        def marks(player: str) -> list[str]:
            found: list[str] = []
            if player in hand.renonce:
                return ["renonce"]
            if hand.renonce:
                return found
            mine = Side.DECLARER if player in declarers else Side.OPPONENTS
            for premium in hand.premiums:
                if premium.side is mine:
                    found.append(premium.type.value if premium.made else "premium_failed")
            if hand.valat is not None and hand.valat.side is mine:
                found.append("valat" if hand.valat.made else "valat_failed")
            return found

        return seat_stats(
            table,
            hand.game.value,
            role=lambda p: (
                "declarer" if p == hand.declarer else "partner" if p == hand.partner else "opponent"
            ),
            won=lambda p: None if won is None else won is (p in declarers),
            marks=marks,
        )

    stat_labels = {
        **{f"kind.{game.value}": label for game, label in GAME_LABEL.items()},
        "role.declarer": gettext_noop("Declarer"),
        "role.partner": gettext_noop("Partner"),
        "role.opponent": gettext_noop("Opponent"),
        **{f"mark.{premium.value}": label for premium, label in PREMIUM_LABEL.items()},
        "mark.premium_failed": gettext_noop("Premium failed"),
        "mark.valat": gettext_noop("Valat"),
        "mark.valat_failed": gettext_noop("Valat failed"),
        "mark.renonce": gettext_noop("Renonce"),
        "mark.trischaken_lost": gettext_noop("Trischaken lost"),
        "mark.buergermeister": gettext_noop("Bürgermeister"),
        "mark.jungfrau": gettext_noop("Jungfrau"),
    }


TRISCHAKEN_FACT = "trischaken"


def radl_factor(earlier: Sequence[StoredHand], at_table: int) -> int:
    """2 to the number of Trischaken among the last ``at_table`` hands (a redeal is a hand too)."""
    recent = earlier[-at_table:] if at_table else []
    return 1 << sum(1 for hand in recent if TRISCHAKEN_FACT in hand.facts)


# --------------------------------------------------------------------------
# Reading the values tables and the fields of two shapes


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def read_game_values(raw: Any) -> dict[Game, int]:
    if not isinstance(raw, Mapping):
        raise invalid(
            "options.game_values",
            gettext_noop("must be an object of games and their values, for example dreier: 5"),
        )
    out: dict[Game, int] = {}
    for key, value in raw.items():
        path = f"options.game_values.{key}"
        if key not in tuple(Game):
            raise invalid(path, gettext_noop("not a game; games: {allowed}"), allowed=allowed_list(Game))
        if not _whole(value, 1, MAX_GAME_VALUE):
            raise invalid(
                path,
                gettext_noop("a whole number from 1 to {high} (got {got})"),
                high=MAX_GAME_VALUE,
                got=str(value),
            )
        out[Game(key)] = value
    return out


def read_premium_values(raw: Any) -> dict[str, tuple[int, int]]:
    if not isinstance(raw, Mapping):
        raise invalid(
            "options.premium_values",
            gettext_noop(
                "must be an object of premiums and their two values, for example uhu: [1, 3] (silent, announced)"
            ),
        )
    keys = (*(t.value for t in PremiumType), "valat")
    out: dict[str, tuple[int, int]] = {}
    for key, value in raw.items():
        path = f"options.premium_values.{key}"
        if key not in keys:
            raise invalid(
                path, gettext_noop("not a premium; premiums: {allowed}"), allowed=allowed_list(keys)
            )
        if not (
            isinstance(value, list)
            and len(value) == 2
            and all(_whole(v, 0, MAX_PREMIUM_VALUE) for v in value)
        ):
            raise invalid(
                path,
                gettext_noop("two whole numbers from 0 to {high}, [silent, announced] (got {got})"),
                high=MAX_PREMIUM_VALUE,
                got=str(value),
            )
        out[key] = (value[0], value[1])
    return out


def _read_points(raw: Mapping[str, Any], game: Game | None, table: Table) -> Any:
    if "points" not in raw or raw["points"] is None:
        return None
    if game is Game.TRISCHAKEN:
        each = clean_value(EACH_FIELD, raw["points"], True, table.active)
        return {name: int(value * 3) for name, value in each.items()}
    if isinstance(raw["points"], Mapping):
        raise invalid(
            "points",
            gettext_noop("one number, the declarer's side's points; only a Trischaken gives each player's"),
        )
    points = clean_value(POINTS_FIELD, raw["points"], True, table.active)
    return int(points * 3)


def _read_kontra(raw: Mapping[str, Any], game: Game | None, table: Table) -> Any:
    if "kontra" not in raw or raw["kontra"] is None:
        return None
    value = raw["kontra"]
    if game in NEGATIVE_GAMES:
        if not isinstance(value, Mapping):
            raise invalid(
                "kontra",
                gettext_noop("in a {game} each opponent kontras for himself: give each opponent's level"),
                game=Line(GAME_LABEL[game]) if game else "",
            )
        levels: dict[str, int] = {}
        for name, level in value.items():
            if name not in table.active or name == raw.get("declarer"):
                raise InvalidInput(
                    f"kontra.{name}",
                    Line(
                        gettext_noop("not an opponent in this hand; opponents: {allowed}"),
                        {"allowed": names(p for p in table.active if p != raw.get("declarer"))},
                    ),
                    label=_of_player(KONTRA_FIELD.label, str(name)),
                )
            levels[name] = _opponent_level(name, level)
        return levels
    if isinstance(value, Mapping):
        raise invalid(
            "kontra",
            gettext_noop(
                "one level on the game, 0 to 3; only a Piccolo or Bettel names each opponent's Kontra"
            ),
        )
    return clean_value(KONTRA_FIELD, value, True, table.active)


def _of_player(label: str, name: str) -> Line:
    """``Kontra, Bert``: a field's label with the player it is about."""
    return Line(gettext_noop("{outer}, {inner}"), {"outer": Line(label), "inner": name})


def _opponent_level(name: str, level: Any) -> int:
    if not _whole(level, 0, MAX_KONTRA):
        raise InvalidInput(
            f"kontra.{name}",
            Line(
                gettext_noop(
                    "a Kontra level from 0 to {high}: 1 Kontra, 2 Rekontra, 3 Subkontra (got {got})"
                ),
                {"high": MAX_KONTRA, "got": str(level)},
            ),
            label=_of_player(KONTRA_FIELD.label, name),
        )
    return int(level)


def _read_renonce(raw: Mapping[str, Any], game: Game | None, table: Table) -> tuple[str, ...]:
    value = raw.get("renonce")
    if value is None:
        return ()
    if isinstance(value, list):
        if not 1 <= len(value) <= 2:
            raise invalid("renonce", gettext_noop("one or two players (got {n})"), n=len(value))
        found = tuple(clean_value(RENONCE_FIELD, name, True, table.active) for name in value)
        if len(set(found)) != len(found):
            raise invalid("renonce", gettext_noop("names a player twice"))
        return found
    return (clean_value(RENONCE_FIELD, value, True, table.active),)


# --------------------------------------------------------------------------
# Building and checking a hand (docs/rules.md §4.5)


def build_hand(
    values: Mapping[str, Any], given: set[str], table: Table, options: KoenigrufenOptions
) -> KoenigrufenHand:
    game = Game(values["game"])
    premiums = tuple(
        Premium(
            type=PremiumType(p["type"]),
            side=Side(p["side"]),
            announced=p["announced"],
            made=p["made"],
            kontra=p["kontra"],
        )
        for p in values.get("premiums", ())
    )
    valat = values.get("valat")
    kontra = values.get("kontra")
    hand = KoenigrufenHand(
        declarer=values["declarer"],
        game=game,
        bird=None if values.get("bird") is None else Bird(values["bird"]),
        partner=values.get("partner"),
        king_in_talon=None if values.get("king_in_talon") is None else KingInTalon(values["king_in_talon"]),
        points=values["points"] if game is not Game.TRISCHAKEN else None,
        won=values.get("won"),
        kontra=kontra if isinstance(kontra, int) else 0,
        opponent_kontra=dict(kontra) if isinstance(kontra, Mapping) else {},
        premiums=premiums,
        valat=None
        if valat is None
        else Valat(Side(valat["side"]), valat["announced"], valat["made"], valat["kontra"]),
        renonce=values["renonce"],
        each=values["points"] if game is Game.TRISCHAKEN else None,
    )
    check_hand(hand, given, table, options)
    if game in BIRD_CALLERS and hand.bird is None:
        hand = replace(hand, bird=BIRD_CALLERS[game])
    return hand


def _not_here(name: str, game: Game, text: str | None = None) -> InvalidInput:
    return invalid(
        name,
        text or gettext_noop("not part of a {game}"),
        game=Line(GAME_LABEL[game]),
    )


def check_hand(hand: KoenigrufenHand, given: set[str], table: Table, options: KoenigrufenOptions) -> None:
    """The cross-field rules of docs/rules.md §4.5; each refusal names its field."""
    game = hand.game
    if options.game_value(game) is None:
        raise invalid(
            "game",
            gettext_noop("the tariff {tariff} has no {game}; its games: {allowed}"),
            tariff=Line(options.set.label),
            game=Line(GAME_LABEL[game]),
            allowed=labels(GAME_LABEL[g] for g in options.games()),
        )
    if game is Game.TRISCHAKEN:
        _check_trischaken(hand, given, table)
        return
    if hand.renonce and hand.conceded:
        raise invalid("renonce", gettext_noop("a conceded hand ends before any card is played: no Renonce"))
    _check_called(hand, given)
    if hand.conceded:
        for name in sorted(given - {*CONCEDED_KEYS, "dealer", "type", "sitting_out", "note"}):
            raise invalid(
                name,
                gettext_noop(
                    "a conceded hand records only the declarer, the game, the king in the talon and the bird"
                ),
            )
        return
    if game in NEGATIVE_GAMES:
        _check_negative(hand, given)
        return
    _check_positive(hand, given, options)


def _check_trischaken(hand: KoenigrufenHand, given: set[str], table: Table) -> None:
    for name in sorted(given - {*TRISCHAKEN_KEYS, "dealer", "type", "sitting_out", "note"}):
        raise invalid(
            name,
            gettext_noop("a Trischaken records only the Trischaker, each player's points and a Renonce"),
        )
    each = hand.each
    if each is None:
        if not hand.renonce:
            raise invalid(
                "points",
                gettext_noop("each player's points are needed (only a Renonce hand leaves them out)"),
            )
        return
    for name in table.active:
        if 0 < each[name] < 4:
            raise InvalidInput(
                f"points.{name}",
                Line(
                    gettext_noop(
                        "0 without a trick, else at least 1/1: one trick holds four cards (got {got})"
                    ),
                    {"got": thirds_text(each[name])},
                ),
                label=_of_player(EACH_FIELD.label, name),
            )
    total = sum(each.values())
    if total != THIRDS:
        raise InvalidInput(
            "points",
            Line(
                gettext_noop("the four players' points add up to 70 (got {got})"),
                {"got": thirds_text(total)},
            ),
            label=Line(EACH_FIELD.label),
        )


def _check_called(hand: KoenigrufenHand, given: set[str]) -> None:
    game = hand.game
    if game not in RUFER_GAMES:
        for name in ("partner", "king_in_talon"):
            if getattr(hand, name) is not None:
                raise _not_here(
                    name, game, gettext_noop("only a Rufer game has a partner or a king in the talon")
                )
    else:
        if hand.partner is not None and hand.king_in_talon is not None:
            raise invalid(
                "partner",
                gettext_noop("the called king lay in the talon, so nobody is the partner: leave it out"),
            )
        if hand.partner is None and hand.king_in_talon is None:
            raise invalid(
                "partner",
                gettext_noop("a {game} names the partner, or says the king lay in the talon"),
                game=Line(GAME_LABEL[game]),
            )
        if hand.partner == hand.declarer:
            raise invalid("partner", gettext_noop("nobody calls his own king: the partner is another player"))
        if game is Game.SOLORUFER and hand.king_in_talon is KingInTalon.CONCEDED:
            raise invalid(
                "king_in_talon",
                gettext_noop("a Solorufer's talon stays closed until the end: it can only be played on"),
            )
    if game not in BIRD_GAMES:
        if hand.bird is not None:
            raise _not_here("bird", game, gettext_noop("only a Besserrufer or a bird-caller names a bird"))
    elif game is Game.BESSERRUFER and hand.bird is None:
        raise invalid("bird", gettext_noop("a Besserrufer names its bird: Pagat, Uhu, Kakadu or Quapil"))
    elif game in BIRD_CALLERS and hand.bird is not None and hand.bird is not BIRD_CALLERS[game]:
        raise invalid(
            "bird",
            gettext_noop("a {game} calls the {bird}"),
            game=Line(GAME_LABEL[game]),
            bird=Line(BIRD_LABEL[BIRD_CALLERS[game]]),
        )


def _check_negative(hand: KoenigrufenHand, given: set[str]) -> None:
    game = hand.game
    if hand.points is not None:
        raise _not_here("points", game, gettext_noop("a {game} is won or lost by its tricks: no points"))
    if hand.premiums:
        raise _not_here("premiums", game, gettext_noop("a {game} has no premiums"))
    if hand.valat is not None:
        raise _not_here("valat", game, gettext_noop("a {game} has no Valat"))
    if hand.won is None and not hand.renonce:
        raise invalid("won", gettext_noop("a {game} is won or lost: say which"), game=Line(GAME_LABEL[game]))
    if "kontra" in given and not hand.opponent_kontra and hand.kontra:
        raise invalid(
            "kontra",
            gettext_noop("in a {game} each opponent kontras for himself"),
            game=Line(GAME_LABEL[game]),
        )


def _check_positive(hand: KoenigrufenHand, given: set[str], options: KoenigrufenOptions) -> None:
    game = hand.game
    if hand.won is not None:
        raise _not_here(
            "won", game, gettext_noop("a {game} is decided by the points, not won or lost by tricks")
        )
    if hand.points is None and not hand.renonce:
        raise invalid(
            "points",
            gettext_noop("the declarer's side's points are needed (only a Renonce hand leaves them out)"),
        )
    seen: dict[PremiumType, int] = {}
    for index, premium in enumerate(hand.premiums, 1):
        path = f"premiums[{index}]."
        if premium.type in seen:
            raise invalid(
                f"{path}type",
                gettext_noop("{premium} is already listed (premium {row}); it counts once per hand"),
                premium=Line(PREMIUM_LABEL[premium.type]),
                row=seen[premium.type],
            )
        seen[premium.type] = index
        _check_premium(hand, premium, path, options)
    bird = hand.called_bird
    if game in BIRD_GAMES and bird is not None:
        called = next((p for p in hand.premiums if p.type.value == bird.value), None)
        if called is None or not called.announced or called.side is not Side.DECLARER:
            raise invalid(
                "premiums",
                gettext_noop(
                    "a {game} announces its bird: list the {bird}, announced, of the declarer's side"
                ),
                game=Line(GAME_LABEL[game]),
                bird=Line(BIRD_LABEL[bird]),
            )
    if hand.valat is not None:
        _check_valat(hand, hand.valat, options)


def _check_premium(hand: KoenigrufenHand, premium: Premium, path: str, options: KoenigrufenOptions) -> None:
    game = hand.game
    label = Line(PREMIUM_LABEL[premium.type])
    if options.premium_value(premium.type) is None:
        raise invalid(
            f"{path}type",
            gettext_noop("the tariff {tariff} has no {premium}; premiums here: {allowed}"),
            tariff=Line(options.set.label),
            premium=label,
            allowed=labels(PREMIUM_LABEL[t] for t in options.premium_types()),
        )
    if game in FARBENSPIELE and premium.type not in FARBENSPIEL_PREMIUMS:
        raise invalid(
            f"{path}type",
            gettext_noop(
                "in a {game} tarocks do not trump: of the premiums only Vier Könige and the Säcke count"
            ),
            game=Line(GAME_LABEL[game]),
        )
    if premium.type is PremiumType.KOENIG_ULTIMO:
        if game not in RUFER_GAMES:
            raise invalid(f"{path}type", gettext_noop("König ultimo needs a called king: Rufer games only"))
        if premium.side is not Side.DECLARER:
            raise invalid(f"{path}side", gettext_noop("König ultimo is the declarer's side's premium"))
        if game is Game.SOLORUFER and hand.king_in_talon is not None:
            raise invalid(
                f"{path}type",
                gettext_noop("the called king lay in the closed talon of this Solorufer: no König ultimo"),
            )
    if premium.kontra and not premium.announced:
        raise invalid(f"{path}kontra", gettext_noop("only an announced premium can be kontra'd"))
    if not premium.made and not premium.announced and premium.type not in MAY_FAIL_SILENT:
        raise invalid(
            f"{path}made",
            gettext_noop("a silent {premium} is recorded only when made"),
            premium=label,
        )
    if premium.type in SACK_THIRDS and hand.points is not None and not hand.renonce:
        side_thirds = hand.points if premium.side is Side.DECLARER else THIRDS - hand.points
        reached = side_thirds >= SACK_THIRDS[premium.type]
        if reached != premium.made:
            raise invalid(
                f"{path}made",
                gettext_noop("{side} has {points}, so {premium} ({needed}) was made")
                if reached
                else gettext_noop("{side} has {points}, so {premium} ({needed}) failed"),
                side=Line(SIDE_CHOICE_LABELS[premium.side]),
                points=thirds_text(side_thirds),
                premium=label,
                needed=thirds_text(SACK_THIRDS[premium.type]),
            )


def _check_valat(hand: KoenigrufenHand, valat: Valat, options: KoenigrufenOptions) -> None:
    if not valat.announced and not valat.made:
        raise invalid("valat.made", gettext_noop("a silent Valat is recorded only when made"))
    if valat.kontra and not valat.announced:
        raise invalid("valat.kontra", gettext_noop("only an announced Valat can be kontra'd"))
    if hand.renonce:
        return
    if valat.made and hand.points is not None:
        won = hand.points >= options.threshold
        if valat.side is Side.DECLARER and not won:
            raise invalid(
                "points",
                gettext_noop(
                    "the declarer's side took every trick (Valat), so it won the game: at least {need} (got {got})"
                ),
                need=thirds_text(options.threshold),
                got=thirds_text(hand.points),
            )
        if valat.side is Side.OPPONENTS and won:
            raise invalid(
                "points",
                gettext_noop(
                    "the opponents took every trick (Valat), so the declarer's side lost: below {need} (got {got})"
                ),
                need=thirds_text(options.threshold),
                got=thirds_text(hand.points),
            )
    for index, premium in enumerate(hand.premiums, 1):
        if valat.made and premium.made and premium.type in TRICK_PREMIUMS and premium.side is not valat.side:
            raise invalid(
                f"premiums[{index}].made",
                gettext_noop("the other side took every trick (Valat), so it cannot make {premium}"),
                premium=Line(PREMIUM_LABEL[premium.type]),
            )
        if (
            options.tariff is Tariff.WTC_2020
            and valat.announced
            and premium.announced
            and premium.side is valat.side
            and premium.type in HOLDING_PREMIUMS
        ):
            raise invalid(
                f"premiums[{index}].announced",
                gettext_noop(
                    "Wiener Tarockcup: the side that announces a Valat cannot also announce {premium}"
                ),
                premium=Line(PREMIUM_LABEL[premium.type]),
            )


# --------------------------------------------------------------------------
# Writing a hand back


def dump_hand(hand: KoenigrufenHand) -> dict[str, Any]:
    """A hand as the session file writes it, defaults left out."""
    out: dict[str, Any] = {"declarer": hand.declarer, "game": hand.game.value}
    if hand.bird is not None and hand.game not in BIRD_CALLERS:
        out["bird"] = hand.bird.value
    if hand.partner is not None:
        out["partner"] = hand.partner
    if hand.king_in_talon is not None:
        out["king_in_talon"] = hand.king_in_talon.value
    if hand.each is not None:
        out["points"] = {name: thirds_json(value) for name, value in hand.each.items()}
    elif hand.points is not None:
        out["points"] = thirds_json(hand.points)
    if hand.won is not None:
        out["won"] = hand.won
    if hand.opponent_kontra:
        out["kontra"] = dict(hand.opponent_kontra)
    elif hand.kontra:
        out["kontra"] = hand.kontra
    if hand.premiums:
        out["premiums"] = [_dump_item({"type": p.type.value}, p) for p in hand.premiums]
    if hand.valat is not None:
        out["valat"] = _dump_item({}, hand.valat)
    if len(hand.renonce) == 1:
        out["renonce"] = hand.renonce[0]
    elif hand.renonce:
        out["renonce"] = list(hand.renonce)
    return out


def _dump_item(out: dict[str, Any], item: Premium | Valat) -> dict[str, Any]:
    out["side"] = item.side.value
    if item.announced:
        out["announced"] = True
    if not item.made:
        out["made"] = False
    if item.kontra:
        out["kontra"] = item.kontra
    return out


# --------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True)
class Item:
    """One "Posten": ``value`` per opponent, won by ``winner``, Kontra factor ``k``."""

    what: Line
    value: int
    winner: Side
    k: int = 1
    kontra: int = 0  # the level behind ``k``, for the breakdown


def declarer_side(hand: KoenigrufenHand) -> tuple[str, ...]:
    return (hand.declarer,) if hand.partner is None else (hand.declarer, hand.partner)


def declarer_won(hand: KoenigrufenHand, options: KoenigrufenOptions) -> bool | None:
    """Whether the declarer's side won: by the points (or a Valat), by ``won``;
    a Renonce or a conceded hand, against the side that caused it."""
    if hand.renonce:
        return hand.declarer not in hand.renonce and hand.partner not in hand.renonce
    if hand.conceded:
        return False
    if hand.game in NEGATIVE_GAMES:
        return hand.won
    if hand.game is Game.TRISCHAKEN:
        return None
    valat = hand.valat
    if valat is not None and options.set.valat is ValatModel.MULTIPLIER:
        return (valat.side is Side.DECLARER) is valat.made
    return (hand.points or 0) >= options.threshold


def _pays(
    table: Table, hand: KoenigrufenHand, items: Sequence[Item], with_kontra: bool
) -> dict[str, Fraction]:
    """docs/rules.md §4.6: 2 v 2 each winner +v·k, each loser −v·k; 1 v 3 the declarer ±3·v·k."""
    deltas = zero_deltas(table.players)
    ours = declarer_side(hand) if hand.two_against_two else (hand.declarer,)
    for item in items:
        amount = item.value * (item.k if with_kontra else 1)
        sign = 1 if item.winner is Side.DECLARER else -1
        for player in table.active:
            if player in ours:
                deltas[player] += sign * amount * (1 if hand.two_against_two else 3)
            else:
                deltas[player] -= sign * amount
    return deltas


def _item_line(item: Item, kontra_in_score: bool) -> Line:
    args: dict[str, Arg] = {
        "what": item.what,
        "value": item.value,
        "side": Line(SIDE_LABEL_FOR[item.winner]),
    }
    if item.k == 1:
        return Line(gettext_noop("{what}: {value} for {side}"), args)
    args["kontra"] = Line(KONTRA_LABEL[item.kontra])
    args["formula"] = Formula((item.value, " × ", item.k))
    args["money"] = item.value * item.k
    if kontra_in_score:
        return Line(gettext_noop("{what}, {kontra}: {formula} = {money} for {side}"), args)
    return Line(gettext_noop("{what}: {value} for {side}; {kontra} in money: {formula} = {money}"), args)


SIDE_LABEL_FOR = SIDE_CHOICE_LABELS


def _result(
    table: Table,
    schrift: dict[str, Fraction],
    money: dict[str, Fraction],
    lines: list[Line],
    options: KoenigrufenOptions,
) -> HandScore:
    """The hand's deltas: with ``kontra_in_score`` the money; otherwise the Schrift, the money beside it."""
    if table.sitting_out is not None:
        lines.insert(
            0,
            Line(
                gettext_noop("{player} deals and sits out: 0"),
                {"player": table.sitting_out},
            ),
        )
    active = [p for p in table.players if p != table.sitting_out]

    def written(deltas: Mapping[str, Fraction]) -> Line:
        shown = {p: deltas[p] for p in active}
        return deltas_line(shown, _one_against_three(shown))

    if options.kontra_in_score:
        lines.append(written(money))
        return HandScore(money, tuple(lines))
    lines.append(Line(gettext_noop("Schrift: {deltas}"), {"deltas": written(schrift)}))
    if money != schrift:
        lines.append(Line(gettext_noop("Money: {deltas}"), {"deltas": written(money)}))
    return HandScore(schrift, tuple(lines), money)


def _one_against_three(deltas: Mapping[str, Fraction]) -> dict[str, Arg]:
    """``3 × 4`` beside the one who gets or pays what each of the three others pays or gets."""
    for player, value in deltas.items():
        others = {v for p, v in deltas.items() if p != player}
        if len(deltas) == 4 and len(others) == 1 and value and value == -3 * next(iter(others)):
            return {player: Formula((3, " × ", abs(next(iter(others)))))}
    return {}


def score_hand(hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions) -> HandScore:
    if hand.game is Game.TRISCHAKEN:
        return score_trischaken(hand, table, options)
    if hand.renonce:
        return score_renonce(hand, table, options)
    if hand.conceded:
        return score_conceded(hand, table, options)
    if hand.game in NEGATIVE_GAMES:
        return score_negative(hand, table, options)
    items, lines = positive_items(hand, options)
    lines = [*(_item_line(item, options.kontra_in_score) for item in items), *lines]
    lines.append(_mode_line(hand))
    schrift = _pays(table, hand, items, with_kontra=False)
    money = _pays(table, hand, items, with_kontra=True)
    return _result(table, schrift, money, lines, options)


def _mode_line(hand: KoenigrufenHand) -> Line:
    if hand.two_against_two:
        return Line(
            gettext_noop("2 against 2: {declarer} and {partner} each get or pay the items"),
            {"declarer": hand.declarer, "partner": str(hand.partner)},
        )
    return Line(
        gettext_noop("1 against 3: {declarer} gets or pays 3 × the items, each opponent once"),
        {"declarer": hand.declarer},
    )


def _game_item_value(hand: KoenigrufenHand, options: KoenigrufenOptions) -> int:
    value = options.game_value(hand.game)
    assert value is not None
    return value


def premium_value(
    premium: PremiumType, announced: bool, game: Game, options: KoenigrufenOptions
) -> tuple[int, Formula]:
    """The silent or announced value, doubled in solo games."""
    values = options.premium_value(premium)
    assert values is not None
    base = values[1] if announced else values[0]
    if game in SOLO_GAMES:
        return 2 * base, Formula((base, " × ", 2))
    return base, Formula((base,))


def positive_items(hand: KoenigrufenHand, options: KoenigrufenOptions) -> tuple[list[Item], list[Line]]:
    """The game item (or the Valat replacing it), the premiums and a fixed Valat (docs/rules.md §4.7–4.10)."""
    game = hand.game
    label = Line(GAME_LABEL[game])
    v = _game_item_value(hand, options)
    points = hand.points or 0
    won = points >= options.threshold
    void = game is Game.SOLORUFER and hand.king_in_talon is KingInTalon.PLAYED
    notes: list[Line] = []
    if void and (hand.kontra or any(p.kontra for p in hand.premiums) or (hand.valat and hand.valat.kontra)):
        notes.append(
            Line(gettext_noop("The called king lay in the talon of a Solorufer: every Kontra is void"))
        )
    game_kontra = 0 if void else hand.kontra
    items: list[Item] = []
    valat = hand.valat
    model = options.set.valat
    multipliers = options.valat_values()
    beside: BesideValat | None = None
    if valat is not None and model is ValatModel.MULTIPLIER:
        winner = valat.side if valat.made else valat.side.other
        factor = multipliers[1] if valat.announced else multipliers[0]
        doubled = game is Game.SECHSERDREIER and winner is Side.OPPONENTS
        value = v * factor * (2 if doubled else 1)
        level = 0 if void else max(game_kontra, valat.kontra)
        tokens: list[str | int | Fraction] = [v, " × ", factor]
        if doubled:
            tokens += [" × ", 2]
        items.append(
            Item(
                Line(
                    gettext_noop("{game} with {valat} ({formula})"),
                    {"game": label, "valat": _valat_words(valat), "formula": Formula(tuple(tokens))},
                ),
                value,
                winner,
                kontra_factor(level),
                level,
            )
        )
        beside = BesideValat.ANNOUNCED_ONLY
    else:
        winner = Side.DECLARER if won else Side.OPPONENTS
        doubled = game is Game.SECHSERDREIER and not won
        kontra = game_kontra
        if (
            valat is not None
            and valat.made
            and not valat.announced
            and options.set.silent_valat_voids_kontra
            and kontra
        ):
            notes.append(Line(gettext_noop("A made silent Valat voids the Kontra on the game")))
            kontra = 0
        what = (
            Line(gettext_noop("{game} won with {points}"), {"game": label, "points": thirds_text(points)})
            if won
            else Line(
                gettext_noop("{game} lost with {points}"), {"game": label, "points": thirds_text(points)}
            )
        )
        if doubled:
            what = Line(
                gettext_noop("{what}, a lost Sechserdreier counts double ({formula})"),
                {"what": what, "formula": Formula((v, " × ", 2))},
            )
        items.append(Item(what, v * (2 if doubled else 1), winner, kontra_factor(kontra), kontra))
        if valat is not None:
            fixed = multipliers[1] if valat.announced else multipliers[0]
            solo = game in SOLO_GAMES
            value = 2 * fixed if solo else fixed
            level = 0 if void else valat.kontra
            items.append(
                Item(
                    # The value follows the colon; a formula only where it doubles in a solo game.
                    Line(
                        gettext_noop("{valat} ({formula})"),
                        {"valat": _valat_words(valat), "formula": Formula((fixed, " × ", 2))},
                    )
                    if solo
                    else _valat_words(valat),
                    value,
                    valat.side if valat.made else valat.side.other,
                    kontra_factor(level),
                    level,
                )
            )
            if valat.made:
                beside = options.set.beside_valat
    for premium in hand.premiums:
        item, note = premium_item(premium, hand, options, beside, void)
        if item is not None:
            items.append(item)
        if note is not None:
            notes.append(note)
    return items, notes


def _valat_words(valat: Valat) -> Line:
    side = Line(SIDE_LABEL_FOR[valat.side])
    if not valat.announced:
        return Line(gettext_noop("a silent Valat of {side}"), {"side": side})
    if valat.made:
        return Line(gettext_noop("a Valat announced by {side}, made"), {"side": side})
    return Line(gettext_noop("a Valat announced by {side}, failed"), {"side": side})


def _premium_words(premium: Premium) -> Line:
    args: dict[str, Arg] = {
        "premium": Line(PREMIUM_LABEL[premium.type]),
        "side": Line(SIDE_LABEL_FOR[premium.side]),
    }
    if premium.announced:
        if premium.made:
            return Line(gettext_noop("{premium} announced by {side}, made"), args)
        return Line(gettext_noop("{premium} announced by {side}, failed"), args)
    if premium.made:
        return Line(gettext_noop("silent {premium} of {side}"), args)
    return Line(gettext_noop("silent {premium} of {side}, failed"), args)


def counts_beside_valat(premium: Premium, beside: BesideValat | None) -> bool:
    if beside is None:
        return True
    if beside is BesideValat.ANNOUNCED_ONLY:
        return premium.announced
    if beside is BesideValat.WTC:
        return premium.announced or premium.type not in HOLDING_PREMIUMS
    return premium.type in TRICK_PREMIUMS


def premium_item(
    premium: Premium,
    hand: KoenigrufenHand,
    options: KoenigrufenOptions,
    beside: BesideValat | None,
    void: bool,
) -> tuple[Item | None, Line | None]:
    """docs/rules.md §4.8: made, to its side; announced and failed, to the other side;
    silent and failed, nothing unless ``silent_failure_counts``."""
    words = _premium_words(premium)
    if not counts_beside_valat(premium, beside):
        return None, Line(gettext_noop("{what}: does not count beside the Valat"), {"what": words})
    winner = premium_winner(premium, options.silent_failure_counts)
    if winner is None:
        return None, Line(gettext_noop("{what}: counts nothing"), {"what": words})
    value, formula = premium_value(premium.type, premium.announced, hand.game, options)
    if len(formula.tokens) > 1:
        words = Line(
            gettext_noop("{what} ({formula}, doubled in a solo game)"), {"what": words, "formula": formula}
        )
    level = 0 if void or not premium.announced else premium.kontra
    return Item(words, value, winner, kontra_factor(level), level), None


def score_conceded(hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions) -> HandScore:
    """docs/rules.md §4.11: the declarer pays each of the three the game value and the bird's announced value."""
    v = _game_item_value(hand, options)
    bird = hand.called_bird
    bird_value = 0
    if bird is not None:
        values = options.premium_value(PremiumType(bird.value))
        bird_value = values[1] if values else 0
    each = v + bird_value
    formula = Formula((v, " + ", bird_value)) if bird is not None else Formula((v,))
    lines = [
        Line(
            gettext_noop(
                "{game}: the called king lay in the talon and {declarer} conceded: {formula} = {each} to each of the others"
            ),
            {
                "game": Line(GAME_LABEL[hand.game]),
                "declarer": hand.declarer,
                "formula": formula,
                "each": each,
            },
        )
    ]
    deltas = zero_deltas(table.players)
    for player in table.active:
        deltas[player] = Fraction(-3 * each if player == hand.declarer else each)
    return _result(table, deltas, dict(deltas), lines, options)


def score_negative(hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions) -> HandScore:
    """docs/rules.md §4.12: 1 v 3; each opponent's Kontra acts between him and the declarer."""
    v = _game_item_value(hand, options)
    sign = 1 if hand.won else -1
    label = Line(GAME_LABEL[hand.game])
    lines = [
        Line(
            gettext_noop("{game} won: {value} from each opponent")
            if hand.won
            else gettext_noop("{game} lost: {value} to each opponent"),
            {"game": label, "value": v},
        )
    ]
    schrift = zero_deltas(table.players)
    money = zero_deltas(table.players)
    for player in table.active:
        if player == hand.declarer:
            continue
        level = hand.opponent_kontra.get(player, 0)
        k = kontra_factor(level)
        schrift[player] -= sign * v
        schrift[hand.declarer] += sign * v
        money[player] -= sign * v * k
        money[hand.declarer] += sign * v * k
        if level:
            lines.append(
                Line(
                    gettext_noop("{player}: {kontra}, {formula} = {money} with the declarer"),
                    {
                        "player": player,
                        "kontra": Line(KONTRA_LABEL[level]),
                        "formula": Formula((v, " × ", k)),
                        "money": v * k,
                    },
                )
            )
    return _result(table, schrift, money, lines, options)


# --------------------------------------------------------------------------
# Renonce (docs/rules.md §4.14)


def renonce_items(hand: KoenigrufenHand, options: KoenigrufenOptions, paid_to: Side) -> list[Item]:
    """The items a regular player of side ``paid_to`` is paid: the game (a
    Sechserdreier's doubled when paid to the opponents), every announced premium
    and an announced Valat, all won by ``paid_to``."""
    game = hand.game
    v = _game_item_value(hand, options)
    void = game is Game.SOLORUFER and hand.king_in_talon is KingInTalon.PLAYED
    doubled = game is Game.SECHSERDREIER and paid_to is Side.OPPONENTS
    game_kontra = 0 if void else hand.kontra
    items: list[Item] = []
    valat = hand.valat if hand.valat is not None and hand.valat.announced else None
    multipliers = options.valat_values()
    if valat is not None and options.set.valat is ValatModel.MULTIPLIER:
        level = 0 if void else max(game_kontra, valat.kontra)
        value = v * multipliers[1] * (2 if doubled else 1)
        items.append(
            Item(
                Line(
                    gettext_noop("{game} with {valat}"),
                    {"game": Line(GAME_LABEL[game]), "valat": _valat_words(valat)},
                ),
                value,
                paid_to,
                kontra_factor(level),
                level,
            )
        )
    else:
        items.append(
            Item(
                Line(GAME_LABEL[game]),
                v * (2 if doubled else 1),
                paid_to,
                kontra_factor(game_kontra),
                game_kontra,
            )
        )
        if valat is not None:
            fixed = multipliers[1] * (2 if game in SOLO_GAMES else 1)
            level = 0 if void else valat.kontra
            items.append(Item(_valat_words(valat), fixed, paid_to, kontra_factor(level), level))
    for premium in hand.premiums:
        if premium.announced:
            value, _ = premium_value(premium.type, True, game, options)
            level = 0 if void else premium.kontra
            items.append(
                Item(
                    Line(gettext_noop("{premium} announced"), {"premium": Line(PREMIUM_LABEL[premium.type])}),
                    value,
                    paid_to,
                    kontra_factor(level),
                    level,
                )
            )
    return items


def score_renonce(hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions) -> HandScore:
    """Every player who kept the rules is paid as if his side had won the game and
    every announced premium; the offender pays the sum (two share it)."""
    offenders = hand.renonce
    lines: list[Line] = [
        Line(gettext_noop("Renonce by {players}: the hand ends"), {"players": Join(offenders)})
    ]
    schrift = zero_deltas(table.players)
    money = zero_deltas(table.players)
    ours = declarer_side(hand) if hand.two_against_two else (hand.declarer,)
    regular = [p for p in table.active if p not in offenders]
    for player in regular:
        if hand.game in NEGATIVE_GAMES:
            v = _game_item_value(hand, options)
            opponents = [p for p in table.active if p != hand.declarer]
            if player == hand.declarer:
                s = Fraction(3 * v)
                m = Fraction(sum(v * kontra_factor(hand.opponent_kontra.get(o, 0)) for o in opponents))
            else:
                s = Fraction(v)
                m = Fraction(v * kontra_factor(hand.opponent_kontra.get(player, 0)))
        else:
            side = Side.DECLARER if player in ours else Side.OPPONENTS
            items = renonce_items(hand, options, side)
            heads = 3 if (player == hand.declarer and not hand.two_against_two) else 1
            s = Fraction(heads * sum(item.value for item in items))
            m = Fraction(heads * sum(item.value * item.k for item in items))
            parts = Join(tuple(item.what for item in items), " + ")
            lines.append(
                Line(
                    gettext_noop("{player} is paid {parts}: {value}"),
                    {"player": player, "parts": parts, "value": s},
                )
            )
        schrift[player] += s
        money[player] += m
    share = len(offenders)
    schrift_sum = sum(schrift.values(), Fraction(0))
    money_sum = sum(money.values(), Fraction(0))
    for offender in offenders:
        schrift[offender] -= schrift_sum / share
        money[offender] -= money_sum / share
    return _result(table, schrift, money, lines, options)


# --------------------------------------------------------------------------
# Trischaken (docs/rules.md §4.13)


def bürgermeister_threshold(options: KoenigrufenOptions) -> int:
    """The thirds a loser needs to be Bürgermeister under the scheme in force."""
    if options.trischaken in (Scheme.SAUWALD, Scheme.TAROCKAPP):
        return 108
    return options.threshold


def score_trischaken(hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions) -> HandScore:
    v = _game_item_value(hand, options)
    if hand.renonce:
        deltas, lines = trischaken_renonce(hand, table, options, v)
    else:
        assert hand.each is not None
        deltas, lines = trischaken_deltas(
            hand.declarer, hand.each, options.trischaken, v, bürgermeister_threshold(options)
        )
    full = zero_deltas(table.players)
    full.update(deltas)
    return _result(table, full, dict(full), lines, options)


def trischaken_renonce(
    hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions, v: int
) -> tuple[dict[str, Fraction], list[Line]]:
    """Fixed amounts: each regular player gets ``a``, the offender pays ``3a``;
    two offenders pay ``3a`` in halves to the two others."""
    scheme = options.trischaken
    if scheme in (Scheme.OOE, Scheme.TAROCKAPP):
        a = 4 * v if hand.declarer in hand.renonce else 2 * v
    elif scheme in (Scheme.SAUWALD, Scheme.WTC):
        a = 3 * v
    else:
        a = 2 * v
    regular = [p for p in table.active if p not in hand.renonce]
    deltas: dict[str, Fraction] = {}
    if len(hand.renonce) == 1:
        for player in regular:
            deltas[player] = Fraction(a)
        deltas[hand.renonce[0]] = Fraction(-3 * a)
    else:
        for player in regular:
            deltas[player] = Fraction(3 * a, 2)
        for player in hand.renonce:
            deltas[player] = Fraction(-3 * a, 2)
    lines = [
        Line(
            gettext_noop(
                "Trischaken, Renonce by {players}: {a} to each other player, {total} paid by the offenders"
            ),
            {"players": Join(hand.renonce), "a": a, "total": 3 * a},
        )
    ]
    return deltas, lines


def trischaken_deltas(
    trischaker: str, each: Mapping[str, int], scheme: Scheme, v: int, bürgermeister: int
) -> tuple[dict[str, Fraction], list[Line]]:
    """Each player's delta from the four players' thirds under ``scheme``."""
    players = list(each)
    most = max(each.values())
    losers = [p for p in players if each[p] == most]
    jungfrauen = [p for p in players if each[p] == 0]
    t_loses = trischaker in losers
    mayor = len(losers) == 1 and most >= bürgermeister
    deltas = {p: Fraction(0) for p in players}
    lines: list[Line] = [
        Line(
            gettext_noop("Trischaken: {points}"),
            {
                "points": Join(
                    tuple(
                        Line("{player} {points}", {"player": p, "points": thirds_text(each[p])})
                        for p in players
                    )
                )
            },
        )
    ]
    if t_loses:
        lines.append(
            Line(
                gettext_noop("{player}, the Trischaker, has the most and loses alone"),
                {"player": trischaker},
            )
        )
        losers = [trischaker]
    else:
        lines.append(Line(gettext_noop("Most points: {players}"), {"players": Join(tuple(losers))}))
    if mayor:
        lines.append(Line(gettext_noop("{player} is Bürgermeister"), {"player": losers[0]}))
    if jungfrauen:
        lines.append(Line(gettext_noop("Jungfrau: {players}"), {"players": Join(tuple(jungfrauen))}))
    others = [p for p in players if p not in losers]

    def pay(payer: str, payee: str, amount: Fraction | int) -> None:
        deltas[payer] -= amount
        deltas[payee] += amount

    if scheme in (Scheme.OOE, Scheme.TAROCKAPP):
        if t_loses:
            total = (12 if mayor else 6) * v
            takers = jungfrauen or others
            lines.append(_trischaken_payment(trischaker, 6, v, mayor=mayor, trischaker=True))
            for p in takers:
                pay(trischaker, p, Fraction(total, len(takers)) if jungfrauen else Fraction(total, 3))
            lines.append(_trischaken_takers(takers, bool(jungfrauen), Fraction(total, len(takers))))
        elif len(losers) == 1:
            loser = losers[0]
            total = (6 if mayor else 3) * v
            lines.append(_trischaken_payment(loser, 3, v, mayor=mayor))
            if jungfrauen:
                share = -(-total // len(jungfrauen))  # rounded up to a whole point
                for p in jungfrauen:
                    pay(loser, p, share)
                lines.append(
                    _trischaken_takers(
                        jungfrauen, True, Fraction(share), rounded=share * len(jungfrauen) != total
                    )
                )
            else:
                for p in others:
                    pay(loser, p, Fraction(total, 3))
                lines.append(_trischaken_takers(others, False, Fraction(total, 3)))
        elif len(losers) == 2:
            virgins = [p for p in others if p in jungfrauen]
            lines.append(_trischaken_tie(losers, Formula((2, " × ", v)), 2 * v))
            if len(virgins) == 1:
                for loser in losers:
                    pay(loser, virgins[0], 2 * v)
                lines.append(_trischaken_takers(virgins, True, Fraction(4 * v)))
            else:
                for loser, p in zip(losers, others, strict=True):
                    pay(loser, p, 2 * v)
                lines.append(_trischaken_takers(others, False, Fraction(2 * v)))
        else:
            lines.append(_trischaken_tie(losers, Formula((v,)), v))
            for loser in losers:
                pay(loser, others[0], v)
            lines.append(_trischaken_takers(others, False, Fraction(3 * v)))
    elif scheme is Scheme.SAUWALD:
        f = (4 if mayor else 2) if t_loses else (2 if mayor else 1)
        lines.append(
            Line(
                gettext_noop(
                    "Factor {formula} = {f} (the Trischaker losing doubles, a Bürgermeister doubles)"
                ),
                {
                    "formula": Formula((1, " × ", 2 if t_loses else 1, " × ", 2 if mayor else 1)),
                    "f": f,
                },
            )
        )
        if len(jungfrauen) == 3:
            total = 3 * f * v
            lines.append(
                _amount(Formula((3, " × ", f, " × ", v)), total, gettext_noop("shared by the Jungfrauen"))
            )
            for p in jungfrauen:
                pay(losers[0], p, Fraction(total, 3))
        elif jungfrauen:
            lines.append(
                _amount(
                    Formula((3, " × ", f, " × ", v)),
                    3 * f * v,
                    gettext_noop("to each Jungfrau, from the losers"),
                )
            )
            for p in jungfrauen:
                for loser in losers:
                    pay(loser, p, Fraction(3 * f * v, len(losers)))
        elif len(losers) == 1:
            lines.append(_amount(Formula((f, " × ", v)), f * v, gettext_noop("to each other player")))
            for p in others:
                pay(losers[0], p, f * v)
        else:
            lines.append(
                _amount(Formula((v,)), v, gettext_noop("from each loser to each player who is not a loser"))
            )
            for loser in losers:
                for p in others:
                    pay(loser, p, v)
    elif scheme is Scheme.WTC:
        total = 3 * v * (2 if mayor else 1) * (2 if t_loses else 1)
        lines.append(
            Line(
                gettext_noop(
                    "Payment {formula} = {total}: 3 × the Trischaken value, × 2 for a Bürgermeister, "
                    "× 2 when the Trischaker loses"
                ),
                {
                    "formula": Formula((3, " × ", v, " × ", 2 if mayor else 1, " × ", 2 if t_loses else 1)),
                    "total": total,
                },
            )
        )
        takers = jungfrauen or others
        for loser in losers:
            for p in takers:
                pay(loser, p, Fraction(total, len(losers) * len(takers)))
    else:  # tirol
        if t_loses or mayor:
            loser = losers[0]
            total = 3 * v * (2 if t_loses and mayor else 1)
            takers = jungfrauen or others
            lines.append(
                _amount(
                    Formula((3, " × ", v, " × ", 2) if t_loses and mayor else (3, " × ", v)),
                    total,
                    gettext_noop("paid by the loser, shared by the Jungfrauen or else by the three others"),
                )
            )
            for p in takers:
                pay(loser, p, Fraction(total, len(takers)))
        elif jungfrauen:
            lines.append(
                _amount(Formula((v,)), v, gettext_noop("to each Jungfrau from each of the three others"))
            )
            for j in jungfrauen:
                for p in players:
                    if p != j:
                        pay(p, j, v)
        else:
            lines.append(
                _amount(
                    Formula((v,)),
                    v,
                    gettext_noop(
                        "by rank: paid by the two with the most, to the two with the fewest; tied middle players go empty"
                    ),
                )
            )
            ranked = sorted(players, key=lambda p: -each[p])
            values = [each[p] for p in ranked]
            if values[0] == values[1] == values[2]:
                for p in ranked[:3]:
                    pay(p, ranked[3], v)
            elif values[1] == values[2] == values[3]:
                for p in ranked[1:]:
                    pay(ranked[0], p, v)
            elif values[1] == values[2]:
                pay(ranked[0], ranked[3], v)
            else:
                pay(ranked[0], ranked[3], v)
                pay(ranked[1], ranked[2], v)
    # The hand's deltas are written once, by _result, after these lines.
    return deltas, lines


def _trischaken_payment(player: str, base: int, v: int, *, mayor: bool, trischaker: bool = False) -> Line:
    """How a loser's payment comes about: ``base`` × the Trischaken value, doubled for a Bürgermeister."""
    tokens: tuple[str | int, ...] = (base, " × ", v, " × ", 2) if mayor else (base, " × ", v)
    why = (
        gettext_noop(
            "{base} × the Trischaken value {v}, the Trischaker losing alone, doubled for the Bürgermeister"
        )
        if trischaker and mayor
        else gettext_noop("{base} × the Trischaken value {v}, the Trischaker losing alone")
        if trischaker
        else gettext_noop("{base} × the Trischaken value {v}, doubled for the Bürgermeister")
        if mayor
        else gettext_noop("{base} × the Trischaken value {v}")
    )
    total = base * v * (2 if mayor else 1)
    return Line(
        gettext_noop("{player} pays {formula} = {total}: {why}"),
        {
            "player": player,
            "formula": Formula(tokens),
            "total": total,
            "why": Line(why, {"base": base, "v": v}),
        },
    )


def _trischaken_takers(
    takers: Sequence[str], jungfrauen: bool, share: Fraction, *, rounded: bool = False
) -> Line:
    """Who gets the payment: the Jungfrauen share it, else each other player."""
    if jungfrauen and len(takers) == 1:
        return Line(
            gettext_noop("{player}, the Jungfrau, gets {share}"), {"player": takers[0], "share": share}
        )
    if jungfrauen:
        text = (
            gettext_noop("the Jungfrauen {players} share it, rounded up to whole points: {share} each")
            if rounded
            else gettext_noop("the Jungfrauen {players} share it: {share} each")
        )
        return Line(text, {"players": Join(tuple(takers)), "share": share})
    if len(takers) == 1:
        return Line(gettext_noop("{player} gets {share}"), {"player": takers[0], "share": share})
    return Line(
        gettext_noop("no Jungfrau: {players} get {share} each"),
        {"players": Join(tuple(takers)), "share": share},
    )


def _amount(formula: Formula, total: int, why: str) -> Line:
    """A Trischaken amount and whom it goes to."""
    return Line(
        gettext_noop("{formula} = {total} {why}"), {"formula": formula, "total": total, "why": Line(why)}
    )


def _trischaken_tie(losers: Sequence[str], formula: Formula, each: int) -> Line:
    return Line(
        gettext_noop("{players} tie for the most: each pays {formula} = {each}"),
        {"players": Join(tuple(losers)), "formula": formula, "each": each},
    )


# --------------------------------------------------------------------------
# Describing a hand for the score sheet


def _with_kontra(words: Line, level: int) -> Line:
    """An announced premium or Valat and the Kontra said on it, if any."""
    if not level:
        return words
    return Line(gettext_noop("{what} ({kontra})"), {"what": words, "kontra": Line(KONTRA_LABEL[level])})


def describe_hand(hand: KoenigrufenHand) -> Line:
    pieces: list[Arg] = [hand.declarer, Line(GAME_LABEL[hand.game])]
    if hand.game in BIRD_GAMES and hand.called_bird is not None and hand.game not in BIRD_CALLERS:
        pieces.append(Line(BIRD_LABEL[hand.called_bird]))
    if hand.partner is not None:
        pieces.append(Line(gettext_noop("with {partner}"), {"partner": hand.partner}))
    if hand.king_in_talon is KingInTalon.PLAYED:
        pieces.append(Line(gettext_noop("king in the talon, played on")))
    elif hand.king_in_talon is KingInTalon.CONCEDED:
        pieces.append(Line(gettext_noop("king in the talon, conceded")))
    if hand.each is not None:
        for name, value in hand.each.items():
            pieces.append(Line("{player} {points}", {"player": name, "points": thirds_text(value)}))
    elif hand.points is not None:
        pieces.append(thirds_text(hand.points))
    if hand.won is not None:
        pieces.append(Line(gettext_noop("won") if hand.won else gettext_noop("lost")))
    if hand.kontra:
        pieces.append(Line(KONTRA_LABEL[hand.kontra]))
    for name, level in hand.opponent_kontra.items():
        if level:
            pieces.append(
                Line(gettext_noop("{kontra} {player}"), {"kontra": Line(KONTRA_LABEL[level]), "player": name})
            )
    for premium in hand.premiums:
        called = hand.game in BIRD_GAMES and premium.type.value == getattr(hand.called_bird, "value", None)
        if called and premium.made and not premium.kontra:
            continue
        pieces.append(_with_kontra(_premium_words(premium), premium.kontra))
    if hand.valat is not None:
        pieces.append(_with_kontra(_valat_words(hand.valat), hand.valat.kontra))
    if hand.renonce:
        pieces.append(Line(gettext_noop("Renonce {players}"), {"players": Join(hand.renonce)}))
    return Line("{pieces}", {"pieces": Join(tuple(pieces), " · ")})
