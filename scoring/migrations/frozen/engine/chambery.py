"""Tarock von Chambéry (Tarot savoyard, 1902 rules) for 3, 4 or 5 players.

RULES.md section 3. Six at the table: the player to the dealer's left (the
previous one in playing order) sits out each hand and gets 0.

Team games (five players; four players in the form ``call_solo`` or
``croise``): the difference ``d`` between the declaring side's points and the
tie is doubled for each of: the losers below the "doubled below" number, a solo
with at most one card requested, a solo à point (at most eight-fold). The
amount ``a = d · f`` is paid as the house rule ``payment`` says:

- ``standard``: each opponent of the declaring side pays or gets ``a``; the
  declaring side gets or pays the sum (a soloist or a dealer alone ``±4a`` with
  five, ``±3a`` with four; a pair with five shares ``3a``, the dealer taking or
  paying the odd point);
- ``dummett``: every loser pays ``a``; the winners share what was paid, a
  remainder going one point each to the winners in playing order, starting
  with the dealer if he is a winner, else with the first winner after him.

Three players, each for himself: every player below the average pays the
difference (doubled below the "doubled below" number); the players above the
average share all that was paid in proportion to their differences.

A Partie is one round in which every player at the table has dealt once. Hands
whose dealer is not known (three players may leave dealers out) are taken to
have been dealt in playing order: before the first named dealer, counting
back from him; with no dealer named at all, a Partie is simply as many hands
as there are players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .schema import Field, Kind
from .types import (
    Arg,
    Formula,
    HandScore,
    HandType,
    InvalidInput,
    Join,
    Line,
    Table,
    deltas_line,
    gettext_noop,
    invalid,
    labels,
    names,
    zero_deltas,
)
from .variant import (
    PARTIE,
    CardCounter,
    HandRecord,
    HandStats,
    Section,
    StoredHand,
    Summary,
    Variant,
    seat_stats,
    sum_deltas,
)

MAX_FACTOR = 8


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
    """The numbers of one form of the game (the table of RULES 3.1)."""

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


class Chambery(Variant):
    key = "chambery"
    name = gettext_noop("Tarock von Chambéry")
    table_sizes = (3, 4, 5, 6)
    section_kind = PARTIE
    options_type = ChamberyOptions
    option_fields = (
        Field(
            "deck",
            Kind.CHOICE,
            gettext_noop("Deck"),
            help=gettext_noop(
                "Full: 78 cards; Simplified: 62 cards without the 2 to 5 of each suit (3 or 4 players)."
            ),
            choices=tuple(Deck),
            choice_labels=DECK_LABEL,
            default=Deck.FULL,
        ),
        Field(
            "payment",
            Kind.CHOICE,
            gettext_noop("Payment"),
            help=gettext_noop(
                "Standard: each opponent pays or gets the amount, the declaring side the sum; "
                "Dummett: each loser pays the amount and the winners share it."
            ),
            choices=tuple(Payment),
            choice_labels={
                Payment.STANDARD: gettext_noop("Standard"),
                Payment.DUMMETT: gettext_noop("Dummett"),
            },
            default=Payment.STANDARD,
        ),
        Field(
            "four_player_form",
            Kind.CHOICE,
            FOUR_PLAYER_FORM_RULE,
            help=gettext_noop(
                "Call and solo: call a king or play a solo, as with five; Croisé: fixed partners sitting opposite, no solo."
            ),
            choices=tuple(FourPlayerForm),
            choice_labels=FOUR_PLAYER_FORM_LABEL,
            default=FourPlayerForm.CALL_SOLO,
        ),
    )

    # -- house rules ---------------------------------------------------------

    def check_options(self, options: ChamberyOptions, players: Sequence[str]) -> None:
        playing = playing_count(len(players))
        if options.deck is Deck.SIMPLIFIED and playing not in (3, 4):
            raise invalid(
                "options.deck",
                gettext_noop(
                    "the simplified deck is played by 3 or 4 players; here {playing} play each hand: use {allowed}"
                ),
                playing=playing,
                allowed=Line(DECK_LABEL[Deck.FULL]),
            )
        if options.four_player_form is FourPlayerForm.CROISE and playing != 4:
            raise invalid(
                "options.four_player_form",
                gettext_noop("{croise} is a four-player form; with {n} at the table use {allowed}"),
                croise=Line(FOUR_PLAYER_FORM_LABEL[FourPlayerForm.CROISE]),
                n=len(players),
                allowed=Line(FOUR_PLAYER_FORM_LABEL[FourPlayerForm.CALL_SOLO]),
            )

    # -- the table -----------------------------------------------------------

    def sitting_out(self, players: Sequence[str], dealer: str | None) -> str | None:
        """With six at the table, the player to the dealer's left (before him in playing order)."""
        if len(players) != 6 or dealer is None:
            return None
        return players[(players.index(dealer) - 1) % len(players)]

    def needs_dealer(self, players: Sequence[str], options: Any) -> bool:
        """Team games need the dealer (his side, his odd point); so does six at the table."""
        return len(players) >= 4

    # -- hands ---------------------------------------------------------------

    def hand_fields(self, hand_type: HandType, table: Table, options: ChamberyOptions) -> tuple[Field, ...]:
        return fields_for(len(table.active), options)

    def form_fields(self, hand_type: HandType, table: Table, options: ChamberyOptions) -> tuple[Field, ...]:
        fields = self.hand_fields(hand_type, table, options)
        rank = {name: index for index, name in enumerate(FORM_ORDER)}
        return tuple(sorted(fields, key=lambda field: rank.get(field.name, len(rank))))

    def card_counter(
        self,
        hand_type: HandType,
        table: Table,
        options: ChamberyOptions,
        values: Mapping[str, Any] | None = None,
    ) -> CardCounter:
        playing = len(table.active)
        count = count_for(playing, options.deck)
        fields = counter_fields(options.deck, count.tricks)
        deck = options.deck

        def points(values: Mapping[str, Any]) -> int:
            cards = CardCount(**{kind: values[kind] for kind in CARD_VALUE})
            return card_points(cards, values["tricks"], discard=values["discard"], players=playing, deck=deck)

        if playing == 3:
            return CardCounter((COUNTER_PLAYER, *fields), "points.{player}", points)
        return CardCounter(fields, "points", points)

    def build_hand(
        self, hand_type: HandType, values: dict[str, Any], table: Table, options: ChamberyOptions
    ) -> TeamHand | ThreeHand:
        if len(table.active) == 3:
            three = ThreeHand(points=dict(values["points"]))
            check_three(three, table, options)
            return three
        mode = values.get("mode")
        check_mode(mode, len(table.active), options)
        team = TeamHand(
            mode=Mode(str(mode)),
            points=values["points"],
            partner=values.get("partner"),
            soloist=values.get("soloist"),
            cards_requested=values.get("cards_requested"),
        )
        check_team(team, table, options)
        return team

    def score(self, record: HandRecord, options: ChamberyOptions) -> HandScore:
        if isinstance(record.play, ThreeHand):
            return score_three(record.play, record.table, options)
        if isinstance(record.play, TeamHand):
            return score_team(record.play, record.table, options)
        raise TypeError(f"not a Chambéry hand: {record.play!r}")

    def describe(self, record: HandRecord) -> Line:
        if record.type is HandType.REDEAL or record.play is None:
            return Line(gettext_noop("Redeal"))
        if isinstance(record.play, ThreeHand):
            return Line(
                "{pieces}",
                {
                    "pieces": Join(
                        tuple(
                            Line(gettext_noop("{player} {points}"), {"player": p, "points": n})
                            for p, n in record.play.points.items()
                        ),
                        " · ",
                    )
                },
            )
        hand: TeamHand = record.play
        return Line(
            "{pieces}",
            {
                "pieces": Join(
                    (
                        side_line(hand, record.table),
                        Line(gettext_noop("{points} points"), {"points": hand.points}),
                    ),
                    " · ",
                )
            },
        )

    def played_stats(self, record: HandRecord, options: ChamberyOptions) -> HandStats:
        """A team game: its mode; the declaring side (the dealer who called, or
        plays croisé, and his partner; the soloist) against the others, and which
        side won (a draw: neither); a solo's cards requested, to the soloist.
        Three players, each for himself: who ended above the average."""
        table = record.table
        count = count_for(len(table.active), options.deck)
        if isinstance(record.play, ThreeHand):
            three: ThreeHand = record.play
            return seat_stats(table, "three", won=lambda p: three.points[p] > count.tie)
        hand: TeamHand = record.play
        declarers = declaring_side(hand, table)
        won = None if hand.points == count.tie else hand.points > count.tie
        lead = "soloist" if hand.mode is Mode.SOLO else "declarer"
        return seat_stats(
            table,
            hand.mode.value,
            role=lambda p: lead if p == declarers[0] else "partner" if p in declarers else "opponent",
            won=lambda p: None if won is None else won is (p in declarers),
            marks=lambda p: [f"solo.{hand.cards_requested}"] if p == hand.soloist else [],
        )

    stat_labels = {
        **{f"kind.{mode.value}": label for mode, label in MODE_LABEL.items()},
        "kind.three": gettext_noop("Each for himself"),
        "role.declarer": gettext_noop("Declarer"),
        "role.soloist": gettext_noop("Soloist"),
        "role.partner": gettext_noop("Partner"),
        "role.opponent": gettext_noop("Opponent"),
        "mark.solo.2": gettext_noop("Solo asking for 2 cards"),
        "mark.solo.1": gettext_noop("Solo asking for 1 card"),
        "mark.solo.0": gettext_noop("Solo à point"),
    }

    # -- a whole session ------------------------------------------------------

    def summarize(self, players: Sequence[str], hands: Sequence[StoredHand], options: Any) -> Summary:
        """Totals, and a section per Partie: one round in which every player dealt once.

        A redeal is a deal too. The last Partie, if not every player has dealt
        in it yet, is listed with ``complete=False``. Unknown dealers are taken
        as dealt in playing order (see ``dealers_of``).
        """
        deltas = [hand.deltas for hand in hands]
        totals = sum_deltas(players, deltas)
        sections: list[Section] = []
        first = 0
        dealt: set[str] = set()
        for index, dealer in enumerate(dealers_of(players, [hand.dealer for hand in hands])):
            dealt.add(dealer)
            if len(dealt) == len(players):
                sections.append(_partie(players, deltas, first, index, complete=True))
                first = index + 1
                dealt = set()
        if first < len(hands):
            sections.append(_partie(players, deltas, first, len(hands) - 1, complete=False))
        return Summary(totals=totals, net=dict(totals), sections=tuple(sections))


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


def _partie(
    players: Sequence[str], deltas: Sequence[Mapping[str, Fraction]], first: int, last: int, complete: bool
) -> Section:
    return Section(
        kind=PARTIE.key,
        first=first,
        last=last,
        totals=sum_deltas(players, deltas[first : last + 1]),
        bonus={},
        complete=complete,
    )


# --------------------------------------------------------------------------
# Checks


def check_mode(mode: Any, playing: int, options: ChamberyOptions) -> None:
    modes = modes_for(playing, options)
    if mode in modes:
        return
    allowed = labels(MODE_LABEL[m] for m in modes)
    croise = Line(MODE_LABEL[Mode.CROISE])
    if mode == Mode.CROISE and playing != 4:
        raise invalid(
            "mode",
            gettext_noop("{croise} is a four-player form; with {n} players the game is one of {allowed}"),
            croise=croise,
            n=playing,
            allowed=allowed,
        )
    if mode == Mode.CROISE:
        raise invalid(
            "mode",
            gettext_noop("{croise} needs the house rule “{rule}: {value}”; this session plays {allowed}"),
            croise=croise,
            rule=Line(FOUR_PLAYER_FORM_RULE),
            value=Line(FOUR_PLAYER_FORM_LABEL[FourPlayerForm.CROISE]),
            allowed=allowed,
        )
    if mode in (Mode.CALL, Mode.SOLO):
        raise invalid(
            "mode",
            gettext_noop(
                "with the four-player form croisé every hand is {allowed}: fixed partners, no call and no solo"
            ),
            allowed=allowed,
        )
    raise invalid("mode", gettext_noop("must be one of {allowed}"), allowed=allowed)


def check_team(hand: TeamHand, table: Table, options: ChamberyOptions) -> None:
    """The cross-field rules of RULES 3.2; each refusal names its field."""
    dealer = table.dealer
    if dealer is None:
        raise invalid(
            "dealer",
            gettext_noop("a team game needs its dealer: one of {allowed}"),
            allowed=names(table.active),
        )
    used = MODE_FIELDS[hand.mode]
    for name in OPTIONAL_TEAM_FIELDS:
        if name not in used and getattr(hand, name) is not None:
            raise invalid(
                name,
                gettext_noop("not part of a {mode}; a {mode} records {allowed}"),
                mode=Line(MODE_LABEL[hand.mode]),
                allowed=labels(TEAM_FIELD_LABEL[field] for field in used),
            )
    if hand.mode is Mode.CALL and hand.partner == dealer:
        raise invalid(
            "partner",
            gettext_noop("the dealer {dealer} cannot be his own partner; leave it empty when he plays alone"),
            dealer=dealer,
        )
    if hand.mode is Mode.SOLO:
        if hand.soloist is None:
            raise invalid(
                "soloist",
                gettext_noop("a solo names its soloist: one of {allowed}"),
                allowed=names(table.active),
            )
        if hand.cards_requested not in CARDS_REQUESTED:
            raise invalid(
                "cards_requested",
                gettext_noop("a solo names how many cards the soloist asked for: one of {allowed}"),
                allowed=Join(CARDS_REQUESTED),
            )
    for name in (n for n in ("partner", "soloist") if n in used):
        player = getattr(hand, name)
        if player is not None and player not in table.active:
            raise invalid(
                name,
                gettext_noop("must be one of the players {allowed} (got {got})"),
                allowed=names(table.active),
                got=str(player),
            )
    count = count_for(len(table.active), options.deck)
    points = hand.points
    if points.denominator != 1 or not 0 <= points <= count.total:
        raise invalid(
            "points",
            gettext_noop("a side has a whole number of points from 0 to {total} (got {got})"),
            total=count.total,
            got=points,
        )
    if count.discard_point:
        with_dealer = dealer in declaring_side(hand, table)
        if with_dealer and points < 1:
            raise invalid(
                "points",
                gettext_noop(
                    "the dealer's side counts the discard, so it has from 1 to {total} points (got {got})"
                ),
                total=count.total,
                got=points,
            )
        if not with_dealer and points > count.total - 1:
            raise invalid(
                "points",
                gettext_noop(
                    "the dealer's side counts the discard, so the soloist has from 0 to {high} points (got {got})"
                ),
                high=count.total - 1,
                got=points,
            )


def check_three(hand: ThreeHand, table: Table, options: ChamberyOptions) -> None:
    """Three players: every player's points, adding up to the total (RULES 3.3)."""
    count = count_for(3, options.deck)
    for player in table.active:
        if player not in hand.points:
            raise invalid(f"points.{player}", gettext_noop("missing"))
        value = hand.points[player]
        if value.denominator != 1 or not 0 <= value <= count.total:
            raise invalid(
                f"points.{player}",
                gettext_noop("a whole number of points from 0 to {total} (got {got})"),
                total=count.total,
                got=value,
            )
    for player in hand.points:
        if player not in table.active:
            raise invalid(
                f"points.{player}",
                gettext_noop("not a player in this hand; players: {allowed}"),
                allowed=names(table.active),
            )
    got = sum(hand.points.values(), Fraction(0))
    if got != count.total:
        raise invalid(
            "points",
            gettext_noop("the three players' points add up to {total} (got {got}: {points})"),
            total=count.total,
            got=got,
            points=Join(
                tuple(
                    Line(gettext_noop("{player} {points}"), {"player": p, "points": n})
                    for p, n in hand.points.items()
                )
            ),
        )
    dealer = table.dealer
    if count.discard_point and dealer is not None and hand.points[dealer] < 1:
        raise invalid(
            f"points.{dealer}",
            gettext_noop("the dealer counts the discard, so he has from 1 to {total} points (got {got})"),
            total=count.total,
            got=hand.points[dealer],
        )


# --------------------------------------------------------------------------
# Team games


def declaring_side(hand: TeamHand, table: Table) -> tuple[str, ...]:
    """The side whose points were recorded: the dealer and partner, the soloist,
    or (croisé) the dealer and the player opposite him."""
    dealer = str(table.dealer)
    if hand.mode is Mode.SOLO:
        return (str(hand.soloist),)
    if hand.mode is Mode.CROISE:
        return (dealer, table.active_after(dealer, 2))
    if hand.partner is None:
        return (dealer,)
    return (dealer, hand.partner)


def side_line(hand: TeamHand, table: Table) -> Line:
    """Who declared, in words: ``Anna (dealer) with Carl``, ``Bert solo, 1 card``."""
    dealer = str(table.dealer)
    if hand.mode is Mode.SOLO:
        if hand.cards_requested == 0:
            return Line(gettext_noop("{player} solo à point"), {"player": str(hand.soloist)})
        return Line(
            gettext_noop("{player} solo asking for {n} cards")
            if hand.cards_requested != 1
            else gettext_noop("{player} solo asking for {n} card"),
            {"player": str(hand.soloist), "n": int(hand.cards_requested or 0)},
        )
    if hand.mode is Mode.CROISE:
        return Line(
            gettext_noop("croisé: {dealer} (dealer) and {partner}"),
            {"dealer": dealer, "partner": table.active_after(dealer, 2)},
        )
    if hand.partner is None:
        return Line(gettext_noop("{dealer} (dealer) alone"), {"dealer": dealer})
    return Line(gettext_noop("{dealer} (dealer) with {partner}"), {"dealer": dealer, "partner": hand.partner})


def doubling_reasons(hand: TeamHand, loser_points: int, count: Count) -> list[Line]:
    """One line per doubling of RULES 3.2, in the order the rules list them."""
    reasons: list[Line] = []
    if loser_points < count.doubled_below:
        reasons.append(
            Line(
                gettext_noop("× {factor}: the losers have {points} points, fewer than {limit}"),
                {"factor": 2, "points": loser_points, "limit": count.doubled_below},
            )
        )
    if hand.mode is Mode.SOLO and hand.cards_requested is not None and hand.cards_requested <= 1:
        reasons.append(
            Line(
                gettext_noop("× {factor}: a solo asking for at most one card ({n} requested)"),
                {"factor": 2, "n": hand.cards_requested},
            )
        )
    if hand.mode is Mode.SOLO and hand.cards_requested == 0:
        reasons.append(Line(gettext_noop("× {factor}: a solo à point (no card requested)"), {"factor": 2}))
    return reasons


def score_team(hand: TeamHand, table: Table, options: ChamberyOptions) -> HandScore:
    count = count_for(len(table.active), options.deck)
    declarers = declaring_side(hand, table)
    opponents = tuple(p for p in table.active if p not in declarers)
    points = int(hand.points)
    diff = abs(points - count.tie)
    side = side_line(hand, table)
    breakdown = _sitting_out_lines(table)
    deltas = zero_deltas(table.players)
    if diff == 0:
        breakdown.append(
            Line(
                gettext_noop(
                    "{side}: {points} of {total} points, the others {rest}; the tie is {tie}: a draw, nobody pays"
                ),
                {
                    "side": side,
                    "points": points,
                    "total": count.total,
                    "rest": count.total - points,
                    "tie": count.tie,
                },
            )
        )
        return HandScore(deltas, tuple(breakdown))

    won = points > count.tie
    breakdown.append(
        Line(
            gettext_noop(
                "{side}: {points} of {total} points, the others {rest}; the tie is {tie}: won by {diff}"
            )
            if won
            else gettext_noop(
                "{side}: {points} of {total} points, the others {rest}; the tie is {tie}: lost by {diff}"
            ),
            {
                "side": side,
                "points": points,
                "total": count.total,
                "rest": count.total - points,
                "tie": count.tie,
                "diff": diff,
            },
        )
    )
    winners, losers = (declarers, opponents) if won else (opponents, declarers)
    loser_points = count.total - points if won else points
    reasons = doubling_reasons(hand, loser_points, count)
    breakdown += reasons
    factor = min(2 ** len(reasons), MAX_FACTOR)
    amount = diff * factor
    if factor == 1:
        breakdown.append(Line(gettext_noop("The game is worth {amount}"), {"amount": amount}))
    else:
        breakdown.append(
            Line(
                gettext_noop("The game is worth {formula} = {amount}"),
                {"formula": Formula((diff, " × ", factor)), "amount": amount},
            )
        )

    if options.payment is Payment.STANDARD:
        # Each opponent pays or gets the amount; the declaring side the sum.
        fixed, sharing, fixed_gets = opponents, declarers, not won
    else:
        # Every loser pays the amount; the winners share it.
        fixed, sharing, fixed_gets = losers, winners, False
    paid, lines, explain = settle_sides(fixed, sharing, amount, fixed_gets, table)
    breakdown += lines
    deltas.update(paid)
    active_deltas = {p: deltas[p] for p in table.active}
    breakdown.append(deltas_line(active_deltas, explain))
    return HandScore(deltas, tuple(breakdown))


def settle_sides(
    fixed: Sequence[str], sharing: Sequence[str], amount: int, fixed_gets: bool, table: Table
) -> tuple[dict[str, Fraction], list[Line], dict[str, Arg]]:
    """Each player of ``fixed`` pays (or gets) ``amount``; ``sharing`` gets (or pays) the sum.

    The sum is shared equally; what does not divide goes one point each to the
    sharing players in playing order, starting with the dealer if he shares,
    else with the first sharing player after him.
    """
    total = len(fixed) * amount
    shares, extra = share(total, sharing, table)
    sign = 1 if fixed_gets else -1
    deltas = {p: Fraction(sign * amount) for p in fixed}
    deltas.update({p: Fraction(-sign * s) for p, s in shares.items()})

    lines: list[Line] = []
    names = Join(tuple(fixed))
    if len(fixed) == 1:
        text = (
            gettext_noop("{players} gets {amount}") if fixed_gets else gettext_noop("{players} pays {amount}")
        )
    else:
        text = (
            gettext_noop("{players} get {amount} each")
            if fixed_gets
            else gettext_noop("{players} pay {amount} each")
        )
    lines.append(Line(text, {"players": names, "amount": amount}))

    formula = Formula((len(fixed), " × ", amount))
    explain: dict[str, Arg] = {}
    if len(sharing) == 1:
        lines.append(
            Line(
                gettext_noop("{player} pays {formula} = {total}")
                if fixed_gets
                else gettext_noop("{player} gets {formula} = {total}"),
                {"player": sharing[0], "formula": formula, "total": total},
            )
        )
        explain[sharing[0]] = formula
        return deltas, lines, explain

    each = total // len(sharing)
    lines.append(
        Line(
            gettext_noop("{players} share the {formula} = {total} they pay: {each} each")
            if fixed_gets
            else gettext_noop("{players} share the {formula} = {total} they get: {each} each"),
            {"players": Join(tuple(sharing)), "formula": formula, "total": total, "each": each},
        )
    )
    if extra:
        if len(extra) == 1 and extra[0] == table.dealer:
            text = (
                gettext_noop("the dealer, {players}, pays the odd point")
                if fixed_gets
                else gettext_noop("the odd point goes to the dealer, {players}")
            )
        else:
            text = (
                gettext_noop(
                    "{n} left over: one more point each paid by {players}, in playing order from the dealer"
                )
                if fixed_gets
                else gettext_noop(
                    "{n} left over: one more point each for {players}, in playing order from the dealer"
                )
            )
        lines.append(Line(text, {"n": len(extra), "players": Join(extra)}))
    for player in sharing:
        if not extra:
            explain[player] = Formula((total, " / ", len(sharing)))
        elif player in extra:
            explain[player] = Formula((each, " + ", 1))
    return deltas, lines, explain


def share(total: int, sharers: Sequence[str], table: Table) -> tuple[dict[str, int], tuple[str, ...]]:
    """``total`` shared equally by ``sharers``; the remainder one point each in
    cyclic playing order, starting with the dealer if he shares, else with the
    first sharer after him. Returns the shares and who got a point more."""
    each, rest = divmod(total, len(sharers))
    start = table.dealer if table.dealer in table.active else table.active[0]
    order = [table.active_after(str(start), step) for step in range(len(table.active))]
    extra = tuple(p for p in order if p in sharers)[:rest]
    return {p: each + (1 if p in extra else 0) for p in sharers}, extra


def _sitting_out_lines(table: Table) -> list[Line]:
    if table.sitting_out is None:
        return []
    return [
        Line(
            gettext_noop("{player} sits out, to the left of the dealer {dealer}, and scores nothing"),
            {"player": table.sitting_out, "dealer": str(table.dealer)},
        )
    ]


# --------------------------------------------------------------------------
# Three players


def score_three(hand: ThreeHand, table: Table, options: ChamberyOptions) -> HandScore:
    """RULES 3.3: the players below the average pay, those above share it in proportion."""
    count = count_for(3, options.deck)
    average = count.tie
    breakdown: list[Line] = []
    paid: dict[str, int] = {}
    above: dict[str, int] = {}
    for player in table.active:
        points = int(hand.points[player])
        diff = points - average
        if diff > 0:
            above[player] = diff
            breakdown.append(
                Line(
                    gettext_noop("{player}: {points} points, {diff} above {average}"),
                    {"player": player, "points": points, "diff": diff, "average": average},
                )
            )
        elif diff == 0:
            breakdown.append(
                Line(
                    gettext_noop("{player}: {points} points, exactly {average}: nothing to pay or get"),
                    {"player": player, "points": points, "average": average},
                )
            )
        elif points < count.doubled_below:
            paid[player] = -2 * diff
            breakdown.append(
                Line(
                    gettext_noop(
                        "{player}: {points} points, {diff} below {average} and fewer than {limit}: pays {formula} = {paid}"
                    ),
                    {
                        "player": player,
                        "points": points,
                        "diff": -diff,
                        "average": average,
                        "limit": count.doubled_below,
                        "formula": Formula((2, " × ", -diff)),
                        "paid": paid[player],
                    },
                )
            )
        else:
            paid[player] = -diff
            breakdown.append(
                Line(
                    gettext_noop("{player}: {points} points, {diff} below {average}: pays {paid}"),
                    {"player": player, "points": points, "diff": -diff, "average": average, "paid": -diff},
                )
            )

    deltas = zero_deltas(table.players)
    if not paid:
        breakdown.append(Line(gettext_noop("Everyone has the average: nobody pays")))
        return HandScore(deltas, tuple(breakdown))

    total = sum(paid.values())
    above_sum = sum(above.values())
    explain: dict[str, Arg] = {}
    for player, diff in above.items():
        # With three players this always divides: either one player is above the
        # average and takes everything, or one is below and the other two's
        # differences add up to his.
        gets = Fraction(total * diff, above_sum)
        if gets.denominator != 1:
            raise AssertionError(f"chambery: a three-player share must be whole: {gets}")
        deltas[player] = gets
        explain[player] = (
            Formula((total,)) if len(above) == 1 else Formula((total, " × ", diff, " / ", above_sum))
        )
    for player, amount in paid.items():
        deltas[player] = Fraction(-amount)
    if len(above) == 1:
        (winner,) = above
        breakdown.append(
            Line(gettext_noop("{player} gets all that was paid: {total}"), {"player": winner, "total": total})
        )
    else:
        breakdown.append(
            Line(
                gettext_noop("{players} share the {total} paid in proportion to their differences {ratio}"),
                {
                    "players": Join(tuple(above)),
                    "total": total,
                    "ratio": Join(tuple(above.values()), " : "),
                },
            )
        )
    breakdown.append(deltas_line(deltas, explain))
    return HandScore(deltas, tuple(breakdown))


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
