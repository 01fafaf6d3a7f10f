"""Chambéry's decks, modes and house rules, a hand as played, the fields each table size
asks and the cards counted (docs/rules.md §3): the data the rest of the game reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .schema import Field, Kind
from .types import InvalidInput, gettext_noop, invalid


class Deck(StrEnum):
    FULL = "full"
    SIMPLIFIED = "simplified"


class Payment(StrEnum):
    STANDARD = "standard"
    DUMMETT = "dummett"


class FourPlayerForm(StrEnum):
    CALL_SOLO = "call_solo"
    CROISE = "croise"


class Mode(StrEnum):
    CALL = "call"
    SOLO = "solo"
    CROISE = "croise"


MODE_LABEL = {
    Mode.CALL: gettext_noop("Call"),
    Mode.SOLO: gettext_noop("Solo"),
    Mode.CROISE: gettext_noop("Croisé"),
}

DECK_LABEL = {Deck.FULL: gettext_noop("Full (78)"), Deck.SIMPLIFIED: gettext_noop("Simplified (62)")}
FOUR_PLAYER_FORM_RULE = gettext_noop("Four players: form")
FOUR_PLAYER_FORM_LABEL = {
    FourPlayerForm.CALL_SOLO: gettext_noop("Call and solo"),
    FourPlayerForm.CROISE: gettext_noop("Croisé"),
}

# The hand fields each mode uses; any other one given is refused.
MODE_FIELDS: dict[Mode, tuple[str, ...]] = {
    Mode.CALL: ("mode", "points", "partner"),
    Mode.SOLO: ("mode", "points", "soloist", "cards_requested"),
    Mode.CROISE: ("mode", "points"),
}
OPTIONAL_TEAM_FIELDS = ("partner", "soloist", "cards_requested")
TEAM_FIELD_LABEL = {
    "mode": gettext_noop("Game"),
    "points": gettext_noop("Points"),
    "partner": gettext_noop("Partner (holder of the called card)"),
    "soloist": gettext_noop("Soloist"),
    "cards_requested": gettext_noop("Cards requested"),
}
CARDS_REQUESTED = (2, 1, 0)  # 0: à point


@dataclass(frozen=True)
class Count:
    """The numbers of one form of the game (the table of docs/rules.md §3.1)."""

    cards_each: int
    discard: int  # cards the dealer lays away
    discard_point: bool  # whether the discard counts one point for the dealer's side
    total: int  # card points, tricks and the discard point
    tie: int  # for three players: the average
    doubled_below: int

    @property
    def tricks(self) -> int:
        return self.cards_each


COUNTS: dict[tuple[int, Deck], Count] = {
    (5, Deck.FULL): Count(15, 3, True, 68, 34, 17),
    (4, Deck.FULL): Count(19, 2, True, 72, 36, 18),
    (3, Deck.FULL): Count(25, 3, True, 78, 26, 13),
    (4, Deck.SIMPLIFIED): Count(15, 2, True, 68, 34, 17),
    (3, Deck.SIMPLIFIED): Count(20, 2, False, 72, 24, 12),
}
DECK_SIZE = {Deck.FULL: 78, Deck.SIMPLIFIED: 62}


def count_for(playing: int, deck: Deck) -> Count:
    """Cards, total, tie and doubling limit for ``playing`` players with ``deck``."""
    try:
        return COUNTS[playing, Deck(deck)]
    except KeyError:
        raise invalid(
            "options.deck",
            gettext_noop("the simplified deck is played by 3 or 4 players (got {got})"),
            got=str(playing),
        ) from None


@dataclass(frozen=True)
class ChamberyOptions:
    deck: Deck = Deck.FULL
    payment: Payment = Payment.STANDARD
    four_player_form: FourPlayerForm = FourPlayerForm.CALL_SOLO

    def __post_init__(self) -> None:
        # Cleaned values arrive as plain words; keep the enums so comparisons are exact.
        object.__setattr__(self, "deck", Deck(self.deck))
        object.__setattr__(self, "payment", Payment(self.payment))
        object.__setattr__(self, "four_player_form", FourPlayerForm(self.four_player_form))


@dataclass(frozen=True)
class TeamHand:
    """A hand of five or four players: two sides."""

    mode: Mode
    points: Fraction  # the declaring side's; croisé: the dealer's side
    partner: str | None = None  # call only; None: the dealer plays alone
    soloist: str | None = None
    cards_requested: int | None = None


@dataclass(frozen=True)
class ThreeHand:
    """A hand of three players, each for himself."""

    points: Mapping[str, Fraction]


def modes_for(playing: int, options: ChamberyOptions) -> tuple[Mode, ...]:
    """The modes a hand of ``playing`` players may have under these house rules."""
    if playing == 4 and options.four_player_form is FourPlayerForm.CROISE:
        return (Mode.CROISE,)
    return (Mode.CALL, Mode.SOLO)


def fields_for(playing: int, options: ChamberyOptions) -> tuple[Field, ...]:
    """The inputs of a played hand with ``playing`` players in the hand.

    Team games: ``mode``, ``points`` and the fields of ``MODE_FIELDS``; each
    mode-specific field carries ``shown_when`` naming the modes that use it.
    """
    count = count_for(playing, options.deck)
    if playing == 3:
        return (
            Field(
                "points",
                Kind.PLAYER_POINTS,
                gettext_noop("Points of each player"),
                help=gettext_noop(
                    "Cards and tricks, and the discard for the dealer; they add up to the total."
                ),
                minimum=Fraction(0),
                maximum=Fraction(count.total),
                required=True,
            ),
        )
    modes = modes_for(playing, options)
    croise = modes == (Mode.CROISE,)
    return (
        Field(
            "mode",
            Kind.CHOICE,
            TEAM_FIELD_LABEL["mode"],
            choices=modes,
            choice_labels={mode: MODE_LABEL[mode] for mode in modes},
            required=not croise,
            default=Mode.CROISE if croise else None,
            written=True,
        ),
        Field(
            "points",
            Kind.POINTS,
            TEAM_FIELD_LABEL["points"],
            help=gettext_noop(
                "Cards and tricks, and the discard for the dealer's side: tap the side you counted."
            ),
            minimum=Fraction(0),
            maximum=Fraction(count.total),
            required=True,
            complement=Fraction(count.total),
            side_labels=(gettext_noop("Dealer's side"), gettext_noop("Other side"))
            if croise
            else (gettext_noop("Declaring side"), gettext_noop("Other side")),
        ),
        Field(
            "partner",
            Kind.PLAYER,
            TEAM_FIELD_LABEL["partner"],
            nullable=True,
            null_label=gettext_noop("nobody: the dealer alone (called card in his hand or discard)"),
            shown_when=("mode", (Mode.CALL,)),
            ask=True,
            other_than="dealer",
        ),
        Field(
            "soloist",
            Kind.PLAYER,
            TEAM_FIELD_LABEL["soloist"],
            nullable=True,
            shown_when=("mode", (Mode.SOLO,)),
            ask=True,
        ),
        Field(
            "cards_requested",
            Kind.INT,
            TEAM_FIELD_LABEL["cards_requested"],
            help=gettext_noop("How many cards the soloist asked for; 0 is a solo à point."),
            choices=CARDS_REQUESTED,
            choice_labels={
                2: gettext_noop("2 cards"),
                1: gettext_noop("1 card"),
                0: gettext_noop("0: à point"),
            },
            nullable=True,
            # Asked only in a solo, where it must be given: no empty choice beside 0.
            null_choice=False,
            shown_when=("mode", (Mode.SOLO,)),
            ask=True,
        ),
    )


# A hand form asks in the order the table decides: the game, who plays with
# whom, then the points.
FORM_ORDER = ("mode", "partner", "soloist", "cards_requested", "points")


def playing_count(at_table: int) -> int:
    """How many play a hand: with six at the table, one sits out."""
    return 5 if at_table == 6 else at_table


def dealers_of(players: Sequence[str], named: Sequence[str | None]) -> list[str]:
    """Each hand's dealer; where none is known, the deal is taken to pass in playing order.

    Hands before the first named dealer count back from him; with no dealer
    named at all, the first player in playing order is taken to deal first.
    """
    anchor = next((i for i, d in enumerate(named) if d is not None), None)
    start = 0 if anchor is None else players.index(str(named[anchor])) - anchor
    result: list[str] = []
    for index, dealer in enumerate(named):
        if dealer is None:
            dealer = players[(start + index) % len(players)]
        result.append(dealer)
    return result


# --------------------------------------------------------------------------
# Counting card points (for the web form's counter)


@dataclass(frozen=True)
class CardCount:
    """A side's cards by kind, discard included."""

    bouts: int = 0  # Fou, 21 and 1: 4 points each
    kings: int = 0  # 4 each
    queens: int = 0  # 3 each
    cavalls: int = 0  # 2 each
    jacks: int = 0  # 1 each
    others: int = 0  # no points of their own

    @property
    def cards(self) -> int:
        """How many cards were counted."""
        return self.bouts + self.kings + self.queens + self.cavalls + self.jacks + self.others

    def by_kind(self) -> dict[str, int]:
        return {
            "bouts": self.bouts,
            "kings": self.kings,
            "queens": self.queens,
            "cavalls": self.cavalls,
            "jacks": self.jacks,
            "others": self.others,
        }


CARD_VALUE = {"bouts": 4, "kings": 4, "queens": 3, "cavalls": 2, "jacks": 1, "others": 0}


def card_limits(deck: Deck) -> dict[str, int]:
    """How many cards of each kind the deck has."""
    others = DECK_SIZE[Deck(deck)] - 3 - 16
    return {"bouts": 3, "kings": 4, "queens": 4, "cavalls": 4, "jacks": 4, "others": others}


def card_points(cards: CardCount, tricks: int, *, discard: bool, players: int, deck: Deck = Deck.FULL) -> int:
    """A side's (or, with three players, a player's) points: cards, tricks, discard.

    ``cards`` counts every card the side took, the discard included; ``tricks``
    the tricks it won; ``discard`` whether the side is the dealer's, whose
    discard counts one point more (not with three players and the simplified
    deck). ``players`` is the number playing the hand (3, 4 or 5).
    Raises ``InvalidInput`` naming ``players``, ``deck``, ``cards.<kind>`` or ``tricks``.
    """
    if players not in (3, 4, 5):
        raise invalid("players", gettext_noop("3, 4 or 5 play a hand (got {got})"), got=str(players))
    try:
        count = count_for(players, deck)
    except InvalidInput as error:
        raise InvalidInput("deck", error.line) from None
    for name, limit in card_limits(deck).items():
        value = cards.by_kind()[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
            raise invalid(
                f"cards.{name}",
                gettext_noop("a whole number from 0 to {limit} (got {got})"),
                limit=limit,
                got=str(value),
            )
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= count.tricks:
        raise invalid(
            "tricks",
            gettext_noop("a whole number from 0 to {limit} (got {got})"),
            limit=count.tricks,
            got=str(tricks),
        )
    value = sum(CARD_VALUE[name] * number for name, number in cards.by_kind().items())
    return value + tricks + (1 if discard and count.discard_point else 0)


COUNTER_LABELS = {
    "bouts": gettext_noop("Fou, 21 and 1 (4)"),
    "kings": gettext_noop("Kings (4)"),
    "queens": gettext_noop("Queens (3)"),
    "cavalls": gettext_noop("Cavalls (2)"),
    "jacks": gettext_noop("Jacks (1)"),
    "others": gettext_noop("Other cards (0)"),
}
COUNTER_PLAYER = Field("player", Kind.PLAYER, gettext_noop("Whose cards"), required=True)


def counter_fields(deck: Deck, tricks: int) -> tuple[Field, ...]:
    """The counter on the hand form: cards by kind, tricks won, the discard."""
    limits = card_limits(deck)
    cards = tuple(
        Field(kind, Kind.INT, COUNTER_LABELS[kind], minimum=Fraction(0), maximum=Fraction(limit), default=0)
        for kind, limit in limits.items()
    )
    return (
        *cards,
        Field(
            "tricks",
            Kind.INT,
            gettext_noop("Tricks won (1 each)"),
            minimum=Fraction(0),
            maximum=Fraction(tricks),
            default=0,
        ),
        Field(
            "discard",
            Kind.BOOL,
            gettext_noop("The dealer's side: the discard counts 1"),
            default=True,
        ),
    )
