"""Königrufen's house rules and a hand as played, with the fields that read them: the
session's options, the hand's inputs and the hand form's own shapes of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from .form_input import grid_side
from .koenigrufen_tariffs import (
    BIRD_CALLERS,
    BIRD_GAMES,
    BIRD_LABEL,
    GAME_LABEL,
    MAY_FAIL_SILENT,
    NEGATIVE_GAMES,
    POSITIVE_GAMES,
    PREMIUM_LABEL,
    PREMIUM_VALUES,
    RUFER_GAMES,
    SCHEME_LABEL,
    TARIFF_LABEL,
    TARIFFS,
    THRESHOLD_THIRDS,
    VALAT_FIXED,
    VALAT_MULTIPLIERS,
    Bird,
    Game,
    KingInTalon,
    PremiumType,
    Scheme,
    Tariff,
    TariffSet,
    ValatModel,
    WinThreshold,
)
from .schema import Field, Kind, thirds_json
from .tarock54 import (
    CARD_LIMIT,
    CARD_VALUE,
    KONTRA_CHOICE_LABELS,
    MAX_KONTRA,
    Side,
    card_thirds,
    kontra_field,
)
from .types import gettext_noop

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


def shown_for_games(games: frozenset[Game] | set[Game]) -> tuple[str, tuple[str, ...]]:
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
    shown_when=shown_for_games(RUFER_GAMES),
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
        shown_when=shown_for_games(BIRD_GAMES),
    ),
    Field(
        "partner",
        Kind.PLAYER,
        gettext_noop("Partner (holder of the called king)"),
        nullable=True,
        null_label=gettext_noop("nobody: the king lay in the talon"),
        shown_when=shown_for_games(RUFER_GAMES),
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
        shown_when=shown_for_games(NEGATIVE_GAMES),
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
    shown_when=shown_for_games(POSITIVE_GAMES),
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
    shown_when=shown_for_games(NEGATIVE_GAMES),
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


def bid_bird_only(raw: Mapping[str, Any]) -> bool:
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


def bird_row(bird: Bird, types: Sequence[PremiumType]) -> dict[str, str]:
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
