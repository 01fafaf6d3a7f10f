"""Checking and scoring a Chambéry hand: the team games of four and five (docs/rules.md
§3.3–3.5) and the game of three (§3.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .chambery_rules import (
    CARDS_REQUESTED,
    FOUR_PLAYER_FORM_LABEL,
    FOUR_PLAYER_FORM_RULE,
    MODE_FIELDS,
    MODE_LABEL,
    OPTIONAL_TEAM_FIELDS,
    TEAM_FIELD_LABEL,
    ChamberyOptions,
    Count,
    FourPlayerForm,
    Mode,
    Payment,
    TeamHand,
    ThreeHand,
    count_for,
    modes_for,
)
from .types import (
    Arg,
    Formula,
    HandScore,
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

MAX_FACTOR = 8


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
    """The cross-field rules of docs/rules.md §3.2; each refusal names its field."""
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
    """Three players: every player's points, adding up to the total (docs/rules.md §3.3)."""
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
    """One line per doubling of docs/rules.md §3.2, in the order the rules list them."""
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
    """docs/rules.md §3.3: the players below the average pay, those above share it in proportion."""
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
