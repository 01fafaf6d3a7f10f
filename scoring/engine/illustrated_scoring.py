"""Scoring an Illustriertes hand credit by credit (docs/rules.md §2.3–2.9), a Trischaken,
and the series a session is played in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .illustrated_rules import (
    ANNOUNCED_TEMPLATE,
    GAME_LABEL,
    GRAZ_VALAT_FACTOR,
    GRAZ_VALAT_MULTIPLIES,
    HELD_POINTS,
    MONDFANG,
    MULTIPLIER,
    PREMIUM_BASE,
    PREMIUM_LABEL,
    RENONCE_SURPLUS,
    TO_WIN,
    TOTAL,
    TRISCHAKEN_LOSS,
    TRISCHAKEN_NO_TRICK,
    TRISCHAKEN_WIN,
    ULTIMOS,
    VALAT_VALUE,
    Announced,
    Bid,
    IllustratedHand,
    IllustratedOptions,
    Mondfang,
    Premium,
    PremiumType,
    Profile,
    TrischakenHand,
    ValatBy,
    ValatScoring,
    announcement_factor,
)
from .tarock54 import KONTRA_LABEL, kontra_factor
from .types import Arg, Formula, HandScore, Join, Line, Signed, Table, deltas_line, gettext_noop, zero_deltas
from .variant import SERIES, HandRecord, Section, StoredHand

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
