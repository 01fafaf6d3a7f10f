"""Trischaken (docs/rules.md §4.13): everyone for himself under one of five schemes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .koenigrufen_fields import KoenigrufenHand, KoenigrufenOptions
from .koenigrufen_scoring import game_item_value, hand_result
from .koenigrufen_tariffs import Scheme
from .schema import thirds_text
from .types import Formula, HandScore, Join, Line, Table, gettext_noop, zero_deltas

# --------------------------------------------------------------------------
# Trischaken (docs/rules.md §4.13)


def bürgermeister_threshold(options: KoenigrufenOptions) -> int:
    """The thirds a loser needs to be Bürgermeister under the scheme in force."""
    if options.trischaken in (Scheme.SAUWALD, Scheme.TAROCKAPP):
        return 108
    return options.threshold


def score_trischaken(hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions) -> HandScore:
    v = game_item_value(hand, options)
    if hand.renonce:
        deltas, lines = trischaken_renonce(hand, table, options, v)
    else:
        assert hand.each is not None
        deltas, lines = trischaken_deltas(
            hand.declarer, hand.each, options.trischaken, v, bürgermeister_threshold(options)
        )
    full = zero_deltas(table.players)
    full.update(deltas)
    return hand_result(table, full, dict(full), lines, options)


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


@dataclass
class _Standing:
    """Where a Trischaken ended: who has the most (the losers, the Trischaker alone
    when he is among them), who took no trick (the Jungfrauen), the value ``v``;
    and the deltas and lines the scheme writes as it pays."""

    trischaker: str
    each: Mapping[str, int]
    v: int
    losers: list[str]
    jungfrauen: list[str]
    t_loses: bool
    mayor: bool
    others: list[str]
    deltas: dict[str, Fraction]
    lines: list[Line]

    @property
    def players(self) -> list[str]:
        return list(self.each)

    def pay(self, payer: str, payee: str, amount: Fraction | int) -> None:
        self.deltas[payer] -= amount
        self.deltas[payee] += amount


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
    standing = _Standing(
        trischaker=trischaker,
        each=each,
        v=v,
        losers=losers,
        jungfrauen=jungfrauen,
        t_loses=t_loses,
        mayor=mayor,
        others=[p for p in players if p not in losers],
        deltas={p: Fraction(0) for p in players},
        lines=lines,
    )
    SCHEMES[scheme](standing)
    # The hand's deltas are written once, by hand_result, after these lines.
    return standing.deltas, standing.lines


def _ooe(s: _Standing) -> None:
    """Oberösterreich and the Tarock-App: the loser pays 3 v (6 v a Bürgermeister, twice that
    the Trischaker) to the Jungfrauen or else the three others; a tie pays 2 v or v each."""
    v = s.v
    if s.t_loses:
        total = (12 if s.mayor else 6) * v
        takers = s.jungfrauen or s.others
        s.lines.append(_trischaken_payment(s.trischaker, 6, v, mayor=s.mayor, trischaker=True))
        for p in takers:
            s.pay(s.trischaker, p, Fraction(total, len(takers)) if s.jungfrauen else Fraction(total, 3))
        s.lines.append(_trischaken_takers(takers, bool(s.jungfrauen), Fraction(total, len(takers))))
    elif len(s.losers) == 1:
        _ooe_one_loser(s)
    elif len(s.losers) == 2:
        virgins = [p for p in s.others if p in s.jungfrauen]
        s.lines.append(_trischaken_tie(s.losers, Formula((2, " × ", v)), 2 * v))
        if len(virgins) == 1:
            for loser in s.losers:
                s.pay(loser, virgins[0], 2 * v)
            s.lines.append(_trischaken_takers(virgins, True, Fraction(4 * v)))
        else:
            for loser, p in zip(s.losers, s.others, strict=True):
                s.pay(loser, p, 2 * v)
            s.lines.append(_trischaken_takers(s.others, False, Fraction(2 * v)))
    else:
        s.lines.append(_trischaken_tie(s.losers, Formula((v,)), v))
        for loser in s.losers:
            s.pay(loser, s.others[0], v)
        s.lines.append(_trischaken_takers(s.others, False, Fraction(3 * v)))


def _ooe_one_loser(s: _Standing) -> None:
    loser = s.losers[0]
    total = (6 if s.mayor else 3) * s.v
    s.lines.append(_trischaken_payment(loser, 3, s.v, mayor=s.mayor))
    if s.jungfrauen:
        share = -(-total // len(s.jungfrauen))  # rounded up to a whole point
        for p in s.jungfrauen:
            s.pay(loser, p, share)
        s.lines.append(
            _trischaken_takers(
                s.jungfrauen, True, Fraction(share), rounded=share * len(s.jungfrauen) != total
            )
        )
    else:
        for p in s.others:
            s.pay(loser, p, Fraction(total, 3))
        s.lines.append(_trischaken_takers(s.others, False, Fraction(total, 3)))


def _sauwald(s: _Standing) -> None:
    """Sauwald: a factor (the Trischaker losing doubles, a Bürgermeister doubles) on v,
    3 f v to the Jungfrauen, else f v to each other player."""
    v = s.v
    f = (4 if s.mayor else 2) if s.t_loses else (2 if s.mayor else 1)
    s.lines.append(
        Line(
            gettext_noop("Factor {formula} = {f} (the Trischaker losing doubles, a Bürgermeister doubles)"),
            {
                "formula": Formula((1, " × ", 2 if s.t_loses else 1, " × ", 2 if s.mayor else 1)),
                "f": f,
            },
        )
    )
    if len(s.jungfrauen) == 3:
        total = 3 * f * v
        s.lines.append(
            _amount(Formula((3, " × ", f, " × ", v)), total, gettext_noop("shared by the Jungfrauen"))
        )
        for p in s.jungfrauen:
            s.pay(s.losers[0], p, Fraction(total, 3))
    elif s.jungfrauen:
        s.lines.append(
            _amount(
                Formula((3, " × ", f, " × ", v)),
                3 * f * v,
                gettext_noop("to each Jungfrau, from the losers"),
            )
        )
        for p in s.jungfrauen:
            for loser in s.losers:
                s.pay(loser, p, Fraction(3 * f * v, len(s.losers)))
    elif len(s.losers) == 1:
        s.lines.append(_amount(Formula((f, " × ", v)), f * v, gettext_noop("to each other player")))
        for p in s.others:
            s.pay(s.losers[0], p, f * v)
    else:
        s.lines.append(
            _amount(Formula((v,)), v, gettext_noop("from each loser to each player who is not a loser"))
        )
        for loser in s.losers:
            for p in s.others:
                s.pay(loser, p, v)


def _wtc(s: _Standing) -> None:
    """The Wiener Tarockcup: 3 v, doubled for a Bürgermeister and for the Trischaker losing,
    from the losers to the Jungfrauen or else the others."""
    v = s.v
    total = 3 * v * (2 if s.mayor else 1) * (2 if s.t_loses else 1)
    s.lines.append(
        Line(
            gettext_noop(
                "Payment {formula} = {total}: 3 × the Trischaken value, × 2 for a Bürgermeister, "
                "× 2 when the Trischaker loses"
            ),
            {
                "formula": Formula((3, " × ", v, " × ", 2 if s.mayor else 1, " × ", 2 if s.t_loses else 1)),
                "total": total,
            },
        )
    )
    takers = s.jungfrauen or s.others
    for loser in s.losers:
        for p in takers:
            s.pay(loser, p, Fraction(total, len(s.losers) * len(takers)))


def _tirol(s: _Standing) -> None:
    """Tirol: the Trischaker or a Bürgermeister pays 3 v alone; else each Jungfrau takes v
    from each of the three others; else the two with the most pay the two with the fewest."""
    v = s.v
    if s.t_loses or s.mayor:
        loser = s.losers[0]
        total = 3 * v * (2 if s.t_loses and s.mayor else 1)
        takers = s.jungfrauen or s.others
        s.lines.append(
            _amount(
                Formula((3, " × ", v, " × ", 2) if s.t_loses and s.mayor else (3, " × ", v)),
                total,
                gettext_noop("paid by the loser, shared by the Jungfrauen or else by the three others"),
            )
        )
        for p in takers:
            s.pay(loser, p, Fraction(total, len(takers)))
    elif s.jungfrauen:
        s.lines.append(
            _amount(Formula((v,)), v, gettext_noop("to each Jungfrau from each of the three others"))
        )
        for j in s.jungfrauen:
            for p in s.players:
                if p != j:
                    s.pay(p, j, v)
    else:
        _tirol_by_rank(s)


def _tirol_by_rank(s: _Standing) -> None:
    v = s.v
    s.lines.append(
        _amount(
            Formula((v,)),
            v,
            gettext_noop(
                "by rank: paid by the two with the most, to the two with the fewest; tied middle players go empty"
            ),
        )
    )
    ranked = sorted(s.players, key=lambda p: -s.each[p])
    values = [s.each[p] for p in ranked]
    if values[0] == values[1] == values[2]:
        for p in ranked[:3]:
            s.pay(p, ranked[3], v)
    elif values[1] == values[2] == values[3]:
        for p in ranked[1:]:
            s.pay(ranked[0], p, v)
    elif values[1] == values[2]:
        s.pay(ranked[0], ranked[3], v)
    else:
        s.pay(ranked[0], ranked[3], v)
        s.pay(ranked[1], ranked[2], v)


# How each scheme pays, once the standing is known (docs/rules.md §4.13).
SCHEMES: dict[Scheme, Callable[[_Standing], None]] = {
    Scheme.OOE: _ooe,
    Scheme.TAROCKAPP: _ooe,
    Scheme.SAUWALD: _sauwald,
    Scheme.WTC: _wtc,
    Scheme.TIROL: _tirol,
}


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
