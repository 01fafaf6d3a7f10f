"""French Tarot invariants over every valid hand (Hypothesis).

Any hand docs/rules.md §1.2 allows, at 3, 4, 5 or 6 at the table and with every house
rule: the deltas sum to zero, the value per defender is the formula of docs/rules.md §1.3,
the shares are those of docs/rules.md §1.4, and the breakdown's formula adds up.
"""

from __future__ import annotations

import ast
import math
import operator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import read_session, score_session
from tests.engine.examples import examples

NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]
CONTRACTS = {"prise": 1, "petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
REQUIRED = {3: 36, 2: 41, 1: 51, 0: 56}
POIGNEE_VALUE = {"simple": 20, "double": 30, "triple": 40}
# Trumps a poignée needs, by the number of players in the hand (docs/rules.md §1.3).
POIGNEE_TRUMPS = {
    3: {"simple": 13, "double": 15, "triple": 18},
    4: {"simple": 10, "double": 13, "triple": 15},
    5: {"simple": 8, "double": 10, "triple": 13},
}
CHELEM_VALUE = {
    None: 0,
    "announced_made": 400,
    "announced_failed": -200,
    "unannounced_made": 200,
    "defence_made": -200,
}


@dataclass(frozen=True)
class Deal:
    players: list[str]
    active: list[str]
    hand: dict[str, Any]
    options: dict[str, Any]


def written(points: Fraction, style: str) -> Any:
    """Card points as a session file may write them: 56, 56.5 or "56.5"."""
    if style == "text":
        return str(float(points)) if points.denominator == 2 else str(int(points))
    return int(points) if points.denominator == 1 else float(points)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    count = draw(st.sampled_from([3, 4, 5, 6]))
    players = NAMES[:count]
    dealer = draw(st.sampled_from(players))
    active = [p for p in players if p != dealer] if count == 6 else players
    taker = draw(st.sampled_from(active))
    hand: dict[str, Any] = {"dealer": dealer, "taker": taker}
    if len(active) == 5:
        partner = draw(st.none() | st.sampled_from([p for p in active if p != taker]))
        if partner is not None or draw(st.booleans()):
            hand["partner"] = partner
    hand["contract"] = draw(st.sampled_from(sorted(CONTRACTS)))

    chelem = draw(st.sampled_from(sorted(CHELEM_VALUE, key=str)))
    if chelem in ("announced_made", "unannounced_made"):
        bouts, points = draw(st.sampled_from([(3, Fraction(91)), (2, Fraction(87))]))
    elif chelem == "defence_made":
        bouts = draw(st.sampled_from([0, 1]))
        points = Fraction(9, 2) if bouts == 1 else Fraction(draw(st.integers(0, 9)), 2)
    else:
        bouts = draw(st.integers(0, 3))
        # 4.5·b ≤ points ≤ 91 − 4.5·(3 − b), plus 0.5 when b < 3; in half points:
        low, high = 9 * bouts, 182 - 9 * (3 - bouts) + (1 if bouts < 3 else 0)
        points = Fraction(draw(st.integers(low, high)), 2)
    hand["bouts"] = bouts
    hand["points"] = written(points, draw(st.sampled_from(["number", "text"])))
    if chelem is not None:
        hand["chelem"] = chelem

    sides = [None] + (["attack"] if bouts >= 1 else []) + (["defence"] if bouts <= 2 else [])
    petit = draw(st.sampled_from(sides))
    if petit is not None:
        hand["petit_au_bout"] = petit

    shown: list[dict[str, str]] = []
    trumps = 0
    for player in draw(st.lists(st.sampled_from(active), unique=True, max_size=3)):
        size = draw(st.sampled_from(["simple", "double", "triple"]))
        need = POIGNEE_TRUMPS[len(active)][size]
        if trumps + need <= 22:
            shown.append({"player": player, "size": size})
            trumps += need
    if shown:
        hand["poignees"] = shown

    options = {
        "five_player_split": draw(st.sampled_from(["taker_double", "equal"])),
        "round_to": draw(st.sampled_from([1, 5, 10])),
    }
    return Deal(players, active, hand, options)


def value_per_defender(hand: dict[str, Any], options: dict[str, Any]) -> tuple[int, int]:
    """docs/rules.md §1.3 worked directly: (S before rounding, S after the house rule)."""
    points = Fraction(str(hand["points"]))
    required = REQUIRED[hand["bouts"]]
    sign = 1 if points >= required else -1
    d = math.ceil(abs(points - required))
    m = CONTRACTS[hand["contract"]]
    p = {"attack": 10, "defence": -10, None: 0}[hand.get("petit_au_bout")]
    h = sum(POIGNEE_VALUE[shown["size"]] for shown in hand.get("poignees", []))
    c = CHELEM_VALUE[hand.get("chelem")]
    exact = sign * (25 + d) * m + p * m + sign * h + c
    step = options["round_to"]
    rounded = math.copysign(math.ceil(abs(exact) / step) * step, exact)
    return exact, int(rounded)


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


def evaluate(formula: str) -> Fraction:
    """The arithmetic of a breakdown line: numbers, +, −, ×, brackets."""

    def walk(node: ast.AST) -> Fraction:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return Fraction(str(node.value))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](walk(node.left), walk(node.right))
        raise AssertionError(f"not plain arithmetic: {formula}")

    python = formula.replace("×", "*").replace("\u2212", "-")
    return walk(ast.parse(python, mode="eval").body)


def score(deal: Deal) -> Any:
    document = {"variant": "french", "players": deal.players, "options": deal.options, "hands": [deal.hand]}
    return score_session(read_session(document)).hands[0]


@settings(max_examples=examples(500), deadline=None)
@given(deals())
def test_every_valid_hand_sums_to_zero(deal: Deal) -> None:
    result = score(deal)
    assert list(result.deltas) == deal.players
    assert sum(result.deltas.values()) == 0
    for name in deal.players:
        if name not in deal.active:
            assert result.deltas[name] == 0
        assert (2 * result.deltas[name]).denominator == 1, "whole or half points only"


@settings(max_examples=examples(500), deadline=None)
@given(deals())
def test_every_defender_pays_the_value_of_rules_1_3(deal: Deal) -> None:
    result = score(deal)
    _, value = value_per_defender(deal.hand, deal.options)
    attack = {deal.hand["taker"], deal.hand.get("partner")}
    for name in deal.active:
        if name not in attack:
            assert result.deltas[name] == -value, name


@settings(max_examples=examples(500), deadline=None)
@given(deals())
def test_the_attack_gets_its_shares_of_rules_1_4(deal: Deal) -> None:
    result = score(deal)
    _, value = value_per_defender(deal.hand, deal.options)
    taker, partner = deal.hand["taker"], deal.hand.get("partner")
    if partner is None:
        assert result.deltas[taker] == (len(deal.active) - 1) * value
    elif deal.options["five_player_split"] == "equal":
        assert result.deltas[taker] == result.deltas[partner] == Fraction(3, 2) * value
    else:
        assert result.deltas[taker] == 2 * value
        assert result.deltas[partner] == value


@settings(max_examples=examples(300), deadline=None)
@given(deals().filter(lambda deal: len(deal.active) == 5 and deal.hand.get("partner") is not None))
def test_five_players_the_attack_shares_three_times_the_value(deal: Deal) -> None:
    result = score(deal)
    defenders = [p for p in deal.active if p not in (deal.hand["taker"], deal.hand["partner"])]
    per_defender = -result.deltas[defenders[0]]
    assert all(-result.deltas[p] == per_defender for p in defenders)
    taker, partner = result.deltas[deal.hand["taker"]], result.deltas[deal.hand["partner"]]
    if deal.options["five_player_split"] == "equal":
        assert (taker, partner) == (Fraction(3, 2) * per_defender, Fraction(3, 2) * per_defender)
    else:
        assert (taker, partner) == (2 * per_defender, per_defender)


@settings(max_examples=examples(500), deadline=None)
@given(deals())
def test_the_breakdown_formula_adds_up_to_the_value(deal: Deal) -> None:
    first = score(deal).rendered()[0]
    formula, _, rest = first.partition(" = ")
    shown = rest.split(" (", 1)[0]
    exact, _ = value_per_defender(deal.hand, deal.options)
    assert evaluate(formula) == evaluate(shown) == exact, first
