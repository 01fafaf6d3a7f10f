"""Trischaken (docs/rules.md §4.13): everyone for himself under one of five schemes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    # The hand's deltas are written once, by hand_result, after these lines.
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
