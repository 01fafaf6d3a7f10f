"""French Tarot for 3, 4 or 5 players (six at the table: the dealer sits out).

docs/rules.md §1. The value per defender is

    S = sign·(25 + d)·m + p·m + sign·H + C

with ``d`` the difference to the points needed (a half point goes to the
winning side), ``m`` the contract's multiplier, ``p`` the petit au bout, ``H``
the poignées (always to the winner) and ``C`` the chelem.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .schema import Field, Kind
from .types import (
    Formula,
    HandScore,
    HandType,
    Join,
    Line,
    Table,
    deltas_line,
    gettext_noop,
    invalid,
    zero_deltas,
)
from .variant import HandRecord, HandStats, TournamentTerms, VariantOf, seat_stats

HALF = Fraction(1, 2)
TOTAL = Fraction(91)
BOUT = Fraction(9, 2)


class Contract(StrEnum):
    PRISE = "prise"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"


MULTIPLIER = {Contract.PRISE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4, Contract.GARDE_CONTRE: 6}
CONTRACT_LABEL = {
    Contract.PRISE: gettext_noop("Prise"),
    Contract.GARDE: gettext_noop("Garde"),
    Contract.GARDE_SANS: gettext_noop("Garde sans"),
    Contract.GARDE_CONTRE: gettext_noop("Garde contre"),
}
REQUIRED = {3: 36, 2: 41, 1: 51, 0: 56}


class Side(StrEnum):
    ATTACK = "attack"
    DEFENCE = "defence"


class Size(StrEnum):
    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"


SIZE_LABEL = {
    Size.SIMPLE: gettext_noop("Simple"),
    Size.DOUBLE: gettext_noop("Double"),
    Size.TRIPLE: gettext_noop("Triple"),
}
POIGNEE_VALUE = {Size.SIMPLE: 20, Size.DOUBLE: 30, Size.TRIPLE: 40}
# Trumps a poignée needs, by the number of players in the hand.
POIGNEE_TRUMPS = {
    3: {Size.SIMPLE: 13, Size.DOUBLE: 15, Size.TRIPLE: 18},
    4: {Size.SIMPLE: 10, Size.DOUBLE: 13, Size.TRIPLE: 15},
    5: {Size.SIMPLE: 8, Size.DOUBLE: 10, Size.TRIPLE: 13},
}
TRUMPS_IN_DECK = 22  # 21 trumps and the Excuse, which may stand in for one


class Chelem(StrEnum):
    ANNOUNCED_MADE = "announced_made"
    ANNOUNCED_FAILED = "announced_failed"
    UNANNOUNCED_MADE = "unannounced_made"
    DEFENCE_MADE = "defence_made"


CHELEM_VALUE = {
    Chelem.ANNOUNCED_MADE: 400,
    Chelem.ANNOUNCED_FAILED: -200,
    Chelem.UNANNOUNCED_MADE: 200,
    Chelem.DEFENCE_MADE: -200,
}
CHELEM_LABEL = {
    Chelem.ANNOUNCED_MADE: gettext_noop("chelem announced and made"),
    Chelem.ANNOUNCED_FAILED: gettext_noop("chelem announced and failed"),
    Chelem.UNANNOUNCED_MADE: gettext_noop("chelem made unannounced"),
    Chelem.DEFENCE_MADE: gettext_noop("chelem by the defence"),
}


class Split(StrEnum):
    TAKER_DOUBLE = "taker_double"
    EQUAL = "equal"


@dataclass(frozen=True)
class FrenchOptions:
    five_player_split: Split = Split.TAKER_DOUBLE
    round_to: int = 1


@dataclass(frozen=True)
class Poignee:
    player: str
    size: Size


@dataclass(frozen=True)
class FrenchHand:
    taker: str
    contract: Contract
    bouts: int
    points: Fraction
    partner: str | None = None
    petit_au_bout: Side | None = None
    poignees: tuple[Poignee, ...] = ()
    chelem: Chelem | None = None


def bouts_line(bouts: int) -> Line:
    """ "1 bout", "2 bouts": a count players read aloud."""
    if bouts == 1:
        return Line(gettext_noop("1 bout"))
    return Line(gettext_noop("{n} bouts"), {"n": bouts})


def required_points(bouts: int) -> int:
    return REQUIRED[bouts]


def point_range(bouts: int) -> tuple[Fraction, Fraction]:
    """The attack's possible card points with ``bouts`` bouts (docs/rules.md §1.2)."""
    low = BOUT * bouts
    high = TOTAL - BOUT * (3 - bouts) + (HALF if bouts < 3 else 0)
    return low, high


def round_up(value: int, step: int) -> int:
    """``|value|`` up to a multiple of ``step``, sign kept."""
    magnitude = -(-abs(value) // step) * step
    return magnitude if value >= 0 else -magnitude


class French(VariantOf[FrenchOptions, FrenchHand]):
    key = "french"
    name = gettext_noop("French Tarot")
    table_sizes = (3, 4, 5, 6)
    options_type = FrenchOptions
    # Five rounds of four hands, no table money, no Kontra, halves at five; Heine's
    # bends fit Königrufen's Schrift, not scores in the hundreds (TOURNAMENTS.md §10).
    tournament = TournamentTerms(
        order=1, rounds=5, hands=4, money_rate=None, kontra_cash=False, halves=True, heine=False
    )
    option_fields = (
        Field(
            "five_player_split",
            Kind.CHOICE,
            gettext_noop("Five players: sharing between taker and partner"),
            help=gettext_noop(
                "Taker double: the taker gets twice the partner's share; "
                "Equal shares: both get one and a half shares (half points possible)."
            ),
            choices=tuple(Split),
            choice_labels={
                Split.TAKER_DOUBLE: gettext_noop("Taker double"),
                Split.EQUAL: gettext_noop("Equal shares"),
            },
            default=Split.TAKER_DOUBLE,
        ),
        Field(
            "round_to",
            Kind.INT,
            gettext_noop("Round the value up to"),
            help=gettext_noop("1 scores exactly; 5 or 10 round each hand's value up, as some tables do."),
            choices=(1, 5, 10),
            default=1,
        ),
    )

    def sitting_out(self, players: Sequence[str], dealer: str | None) -> str | None:
        return dealer if len(players) == 6 else None

    def hand_fields(self, hand_type: HandType, table: Table, options: FrenchOptions) -> tuple[Field, ...]:
        """With five playing, a hand form must say who the partner was, or that
        the taker played alone: that choice is never preset."""
        return FIELDS if len(table.active) == 5 else FIELDS_NOBODY_CALLED

    def form_fields(self, hand_type: HandType, table: Table, options: FrenchOptions) -> tuple[Field, ...]:
        """The fields in the order the table decides them: taker, contract, the
        called partner, bouts, points, the extras. A partner is called only when
        five play; the form leaves the field out otherwise (a session file
        naming one is still refused with the reason)."""
        fields = {field.name: field for field in self.hand_fields(hand_type, table, options)}
        order = FORM_ORDER if len(table.active) == 5 else [n for n in FORM_ORDER if n != "partner"]
        return tuple(fields[name] for name in order)

    def build_hand(
        self, hand_type: HandType, values: dict[str, Any], table: Table, options: FrenchOptions
    ) -> FrenchHand:
        hand = FrenchHand(
            taker=values["taker"],
            contract=Contract(values["contract"]),
            bouts=values["bouts"],
            points=values["points"],
            partner=values["partner"],
            petit_au_bout=Side(values["petit_au_bout"]) if values["petit_au_bout"] else None,
            poignees=tuple(Poignee(p["player"], Size(p["size"])) for p in values["poignees"]),
            chelem=Chelem(values["chelem"]) if values["chelem"] else None,
        )
        check_hand(hand, len(table.active))
        return hand

    def score(self, record: HandRecord, options: FrenchOptions) -> HandScore:
        return score_hand(record.play, record.table, options)

    def played_stats(self, record: HandRecord, options: FrenchOptions) -> HandStats:
        """The contract; taker, partner and defence, and whether each side won it
        (the points against the bouts' target, whatever the slam or poignées made of
        the value); the petit au bout to each player of the side that took it, a
        poignée to the one who showed it, a slam to each player of its side."""
        hand: FrenchHand = record.play
        won = hand.points >= required_points(hand.bouts)
        attack = {hand.taker, hand.partner} - {None}
        shown = {poignee.player: poignee.size for poignee in hand.poignees}

        def marks(player: str) -> list[str]:
            found: list[str] = []
            in_attack = player in attack
            if hand.petit_au_bout is (Side.ATTACK if in_attack else Side.DEFENCE):
                found.append("petit_au_bout")
            if player in shown:
                found.append(f"poignee.{shown[player].value}")
            if hand.chelem is not None and in_attack is (hand.chelem is not Chelem.DEFENCE_MADE):
                found.append(f"chelem.{hand.chelem.value}")
            return found

        return seat_stats(
            record.table,
            hand.contract.value,
            role=lambda p: "taker" if p == hand.taker else "partner" if p in attack else "defender",
            won=lambda p: won if p in attack else not won,
            marks=marks,
        )

    stat_labels = {
        **{f"kind.{contract.value}": label for contract, label in CONTRACT_LABEL.items()},
        "role.taker": gettext_noop("Taker"),
        "role.partner": gettext_noop("Partner"),
        "role.defender": gettext_noop("Defence"),
        "mark.petit_au_bout": gettext_noop("Petit au bout"),
        "mark.poignee.simple": gettext_noop("Poignée simple"),
        "mark.poignee.double": gettext_noop("Poignée double"),
        "mark.poignee.triple": gettext_noop("Poignée triple"),
        **{f"mark.chelem.{chelem.value}": label for chelem, label in CHELEM_LABEL.items()},
    }

    def describe(self, record: HandRecord) -> Line:
        hand: FrenchHand = record.play
        pieces: list[Any] = [hand.taker]
        if hand.partner:
            pieces[0] = Line(
                gettext_noop("{taker} with {partner}"), {"taker": hand.taker, "partner": hand.partner}
            )
        pieces += [
            CONTRACT_LABEL[hand.contract],
            bouts_line(hand.bouts),
            hand.points,
        ]
        if hand.petit_au_bout is Side.ATTACK:
            pieces.append(Line(gettext_noop("PdB att.")))
        elif hand.petit_au_bout is Side.DEFENCE:
            pieces.append(Line(gettext_noop("PdB def.")))
        for poignee in hand.poignees:
            pieces.append(Line(gettext_noop("Poignée {size}"), {"size": poignee.size.value}))
        if hand.chelem:
            pieces.append(Line(CHELEM_LABEL[hand.chelem]))
        return Line("{pieces}", {"pieces": Join(tuple(pieces), " · ")})


FIELDS = (
    Field("taker", Kind.PLAYER, gettext_noop("Taker"), required=True),
    Field(
        "contract",
        Kind.CHOICE,
        gettext_noop("Contract"),
        choices=tuple(Contract),
        choice_labels=CONTRACT_LABEL,
        aliases={"petite": Contract.PRISE},
        required=True,
    ),
    Field("bouts", Kind.INT, gettext_noop("Bouts"), minimum=Fraction(0), maximum=Fraction(3), required=True),
    Field(
        "points",
        Kind.POINTS,
        gettext_noop("Points"),
        help=gettext_noop("The attack's card points, or the defence's: tap the side you counted."),
        minimum=Fraction(0),
        maximum=TOTAL,
        step=HALF,
        required=True,
        complement=TOTAL,
        side_labels=(gettext_noop("Attack"), gettext_noop("Defence")),
    ),
    Field(
        "partner",
        Kind.PLAYER,
        gettext_noop("Partner (called king)"),
        nullable=True,
        null_label=gettext_noop("alone (called card in the talon or own hand)"),
        ask=True,
        other_than="taker",
    ),
    Field(
        "petit_au_bout",
        Kind.CHOICE,
        gettext_noop("Petit au bout"),
        choices=tuple(Side),
        choice_labels={Side.ATTACK: gettext_noop("attack"), Side.DEFENCE: gettext_noop("defence")},
        nullable=True,
        null_label=gettext_noop("none"),
    ),
    Field(
        "poignees",
        Kind.LIST,
        gettext_noop("Poignées"),
        fields=(
            Field("player", Kind.PLAYER, gettext_noop("Shown by"), required=True),
            Field(
                "size",
                Kind.CHOICE,
                gettext_noop("Size"),
                choices=tuple(Size),
                # The French words, as the table says them in every language (Poignée simple …).
                choice_labels=SIZE_LABEL,
                required=True,
            ),
        ),
        default=(),
        max_items=5,
    ),
    Field(
        "chelem",
        Kind.CHOICE,
        gettext_noop("Chelem"),
        choices=tuple(Chelem),
        choice_labels=CHELEM_LABEL,
        nullable=True,
        null_label=gettext_noop("none"),
        rare=True,
    ),
)


# A session file of three or four players has no partner to ask for.
FIELDS_NOBODY_CALLED = tuple(replace(f, ask=False) if f.name == "partner" else f for f in FIELDS)
FORM_ORDER = ["taker", "contract", "partner", "bouts", "points", "petit_au_bout", "poignees", "chelem"]


def check_hand(hand: FrenchHand, playing: int) -> None:
    """The cross-field rules of docs/rules.md §1.2; each refusal names its field."""
    if hand.partner is not None:
        if playing != 5:
            raise invalid("partner", gettext_noop("a partner is called only with five players"))
        if hand.partner == hand.taker:
            raise invalid("partner", gettext_noop("the taker cannot be his own partner"))
    low, high = point_range(hand.bouts)
    if not low <= hand.points <= high:
        raise invalid(
            "points",
            gettext_noop("with {bouts} the attack has from {low} to {high} points (got {got})"),
            bouts=bouts_line(hand.bouts),
            low=low,
            high=high,
            got=hand.points,
        )
    if hand.petit_au_bout is Side.ATTACK and hand.bouts < 1:
        raise invalid("petit_au_bout", gettext_noop("the attack won the Petit, so it has at least 1 bout"))
    if hand.petit_au_bout is Side.DEFENCE and hand.bouts > 2:
        raise invalid(
            "petit_au_bout", gettext_noop("the defence won the Petit, so the attack has at most 2 bouts")
        )
    if hand.chelem in (Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE) and (hand.bouts, hand.points) not in (
        (3, TOTAL),
        (2, Fraction(87)),
    ):
        raise invalid(
            "chelem",
            gettext_noop(
                "a made chelem needs 91 points with 3 bouts, or 87 with 2 (got {points} with {bouts})"
            ),
            points=hand.points,
            bouts=hand.bouts,
        )
    if hand.chelem is Chelem.DEFENCE_MADE and (hand.points > BOUT or hand.bouts > 1):
        raise invalid(
            "chelem",
            gettext_noop("a chelem by the defence leaves the attack at most 4.5 points and 1 bout"),
        )
    shown: set[str] = set()
    trumps = 0
    for index, poignee in enumerate(hand.poignees, 1):
        if poignee.player in shown:
            raise invalid(f"poignees[{index}].player", gettext_noop("each player shows at most one poignée"))
        shown.add(poignee.player)
        trumps += POIGNEE_TRUMPS[playing][poignee.size]
    if trumps > TRUMPS_IN_DECK:
        raise invalid(
            "poignees",
            gettext_noop("these poignées need {n} trumps; the deck has 22 with the Excuse"),
            n=trumps,
        )


def score_hand(hand: FrenchHand, table: Table, options: FrenchOptions) -> HandScore:
    required = required_points(hand.bouts)
    won = hand.points >= required
    sign = 1 if won else -1
    diff = math.ceil(abs(hand.points - required))
    m = MULTIPLIER[hand.contract]
    pdb = {Side.ATTACK: 10, Side.DEFENCE: -10, None: 0}[hand.petit_au_bout]
    handfuls = sum(POIGNEE_VALUE[p.size] for p in hand.poignees)
    chelem = CHELEM_VALUE[hand.chelem] if hand.chelem else 0
    value = sign * (25 + diff) * m + pdb * m + sign * handfuls + chelem

    breakdown = [
        _value_line(hand, sign, diff, m, pdb, handfuls, chelem, value),
        _result_line(hand, won, required, diff),
    ]
    if options.round_to > 1 and value % options.round_to:
        rounded = round_up(value, options.round_to)
        breakdown.append(
            Line(
                gettext_noop("{value} rounded up to {rounded} (house rule: multiples of {step})"),
                {"value": value, "rounded": rounded, "step": options.round_to},
            )
        )
        value = rounded

    deltas, explain = _shares(hand, table, options, Fraction(value))
    breakdown.append(deltas_line({p: d for p, d in deltas.items() if d}, explain))
    return HandScore(deltas, tuple(breakdown))


def _value_line(
    hand: FrenchHand, sign: int, diff: int, m: int, pdb: int, handfuls: int, chelem: int, value: int
) -> Line:
    inner: list[str | int | Fraction] = ["(25 + ", diff]
    if pdb:
        inner += [" + " if pdb * sign > 0 else " − ", 10]
    inner += [") × ", m]
    if handfuls:
        tokens = ["(", *inner, " + ", handfuls, ")"] if sign < 0 else [*inner, " + ", handfuls]
    else:
        tokens = inner
    if sign < 0:
        tokens = ["−", *tokens]
    if chelem:
        tokens += [" + " if chelem > 0 else " − ", abs(chelem)]

    what: list[Any] = [CONTRACT_LABEL[hand.contract]]
    if hand.petit_au_bout is Side.ATTACK:
        what.append(Line(gettext_noop("petit au bout attack")))
    elif hand.petit_au_bout is Side.DEFENCE:
        what.append(Line(gettext_noop("petit au bout defence")))
    for poignee in hand.poignees:
        what.append(
            Line(
                gettext_noop("Poignée {size} ({player})"),
                {"size": poignee.size.value, "player": poignee.player},
            )
        )
    if hand.chelem:
        what.append(Line(CHELEM_LABEL[hand.chelem]))
    return Line(
        gettext_noop("{formula} = {value} ({what})"),
        {"formula": Formula(tuple(tokens)), "value": value, "what": Join(tuple(what))},
    )


def _result_line(hand: FrenchHand, won: bool, required: int, diff: int) -> Line:
    args: dict[str, Any] = {
        "taker": hand.taker,
        "points": hand.points,
        "bouts": bouts_line(hand.bouts),
        "required": required,
        "diff": diff,
    }
    half = hand.points.denominator == 2
    if won:
        text = (
            gettext_noop(
                "{taker}: {points} points, {bouts}, {required} needed: won by {diff} (the half point goes to the winner)"
            )
            if half
            else gettext_noop("{taker}: {points} points, {bouts}, {required} needed: won by {diff}")
        )
    else:
        text = (
            gettext_noop(
                "{taker}: {points} points, {bouts}, {required} needed: lost by {diff} (the half point goes to the winner)"
            )
            if half
            else gettext_noop("{taker}: {points} points, {bouts}, {required} needed: lost by {diff}")
        )
    return Line(text, args)


def _shares(
    hand: FrenchHand, table: Table, options: FrenchOptions, value: Fraction
) -> tuple[dict[str, Fraction], dict[str, Any]]:
    """Each player's delta from the value per defender; 0 for one sitting out."""
    active = table.active
    deltas = zero_deltas(table.players)
    attack: dict[str, Fraction]
    if hand.partner is None:
        attack = {hand.taker: Fraction(len(active) - 1)}
    elif options.five_player_split is Split.EQUAL:
        attack = {hand.taker: Fraction(3, 2), hand.partner: Fraction(3, 2)}
    else:
        attack = {hand.taker: Fraction(2), hand.partner: Fraction(1)}
    explain: dict[str, Any] = {}
    for player in active:
        if player in attack:
            deltas[player] = attack[player] * value
            explain[player] = Formula((attack[player], " × ", value))
        else:
            deltas[player] = -value
    return deltas, explain
