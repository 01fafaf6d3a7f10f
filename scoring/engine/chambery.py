"""Tarock von Chambéry (Tarot savoyard, 1902 rules) for 3, 4 or 5 players.

docs/rules.md §3. Six at the table: the player to the dealer's left (the
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
from fractions import Fraction
from typing import Any

from .chambery_rules import (
    CARD_VALUE,
    CARDS_REQUESTED,
    COUNTER_LABELS,
    COUNTER_PLAYER,
    COUNTS,
    DECK_LABEL,
    DECK_SIZE,
    FORM_ORDER,
    FOUR_PLAYER_FORM_LABEL,
    FOUR_PLAYER_FORM_RULE,
    MODE_FIELDS,
    MODE_LABEL,
    OPTIONAL_TEAM_FIELDS,
    TEAM_FIELD_LABEL,
    CardCount,
    ChamberyOptions,
    Count,
    Deck,
    FourPlayerForm,
    Mode,
    Payment,
    TeamHand,
    ThreeHand,
    card_limits,
    card_points,
    count_for,
    counter_fields,
    dealers_of,
    fields_for,
    modes_for,
    playing_count,
)
from .chambery_scoring import (
    check_mode,
    check_team,
    check_three,
    declaring_side,
    score_team,
    score_three,
    side_line,
)
from .schema import Field, Kind
from .types import HandScore, HandType, Join, Line, Table, gettext_noop, invalid
from .variant import (
    PARTIE,
    CardCounter,
    HandRecord,
    HandStats,
    Section,
    StoredHand,
    Summary,
    VariantOf,
    seat_stats,
    sum_deltas,
)

# The game's vocabulary, for the registry, the sheet and the tests: the variant and what
# chambery_rules defines (the checks and the scoring are in chambery_scoring).
__all__ = [
    "CARDS_REQUESTED",
    "CARD_VALUE",
    "COUNTER_LABELS",
    "COUNTER_PLAYER",
    "COUNTS",
    "DECK_LABEL",
    "DECK_SIZE",
    "FORM_ORDER",
    "FOUR_PLAYER_FORM_LABEL",
    "FOUR_PLAYER_FORM_RULE",
    "MODE_FIELDS",
    "MODE_LABEL",
    "OPTIONAL_TEAM_FIELDS",
    "TEAM_FIELD_LABEL",
    "CardCount",
    "Chambery",
    "ChamberyOptions",
    "Count",
    "Deck",
    "FourPlayerForm",
    "Mode",
    "Payment",
    "TeamHand",
    "ThreeHand",
    "card_limits",
    "card_points",
    "count_for",
    "counter_fields",
    "dealers_of",
    "fields_for",
    "modes_for",
    "playing_count",
]


class Chambery(VariantOf[ChamberyOptions, TeamHand | ThreeHand]):
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

    def needs_dealer(self, players: Sequence[str], options: ChamberyOptions) -> bool:
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

    def summarize(
        self, players: Sequence[str], hands: Sequence[StoredHand], options: ChamberyOptions
    ) -> Summary:
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
