"""Illustriertes money: a table pays after each series, so each series' money
is rounded to cents on its own and the evening's money is their sum. Every money
figure of an evening (the settlement, the series by series view, the Kasse) then
agrees, and each is zero-sum."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import read_session, score_session, settle
from tests.engine.examples import examples
from tests.engine.test_illustrated_properties import PLAYERS, house_rules, played_hand

SMALL_RATES = [Decimal(r) for r in ("0.0025", "0.0033", "0.005", "0.0075", "0.01", "0.0125", "0.03", "0.1")]


@st.composite
def multi_series_sessions(draw: st.DrawFn) -> dict[str, Any]:
    """Sessions of several series: a low target ends a series every hand or two."""
    options = draw(house_rules())
    options["series_target"] = draw(st.integers(1, 30))
    hands = [draw(played_hand(options)) for _ in range(draw(st.integers(2, 10)))]
    return {"variant": "illustrated", "players": PLAYERS, "options": options, "hands": hands}


@settings(max_examples=examples(300), deadline=None)
@given(multi_series_sessions(), st.sampled_from(SMALL_RATES))
def test_the_evening_money_is_the_sum_of_the_series_money(document: dict[str, Any], rate: Decimal) -> None:
    session = read_session(document)
    result = score_session(session, rate)
    variant = session.variant
    series_money = []
    for section in result.summary.sections:
        net = variant.section_net(section)
        assert net is not None
        series_money.append(settle(net, rate).money)
    money = result.settlement.money
    assert money is not None
    assert sum(money.values()) == 0
    for each in series_money:
        assert each is not None
        assert sum(each.values()) == 0
    for name in PLAYERS:
        assert money[name] == sum((each[name] for each in series_money if each), Decimal("0.00"))
    paid = {name: Decimal(0) for name in PLAYERS}
    for transfer in result.settlement.money_transfers:
        paid[transfer.payer] -= transfer.amount
        paid[transfer.payee] += transfer.amount
    assert paid == money
