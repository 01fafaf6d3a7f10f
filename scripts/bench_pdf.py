"""The generated evening of French Tarot that the benchmarks and the load test
share: every kind of hand, notes and poignées, valid by construction. (The
PDF's own benchmark is part of ``bench.py`` now.)"""

from __future__ import annotations

from typing import Any

PLAYERS = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


def generated_session(hands: int, players: int) -> dict[str, Any]:
    """A French Tarot evening with every kind of hand, valid by construction."""
    names = PLAYERS[:players]
    out: list[dict[str, Any]] = []
    contracts = ["prise", "garde", "garde_sans", "garde_contre"]
    for n in range(hands):
        dealer = names[n % players]
        active = [p for p in names if not (players == 6 and p == dealer)]
        if n % 17 == 16:
            out.append({"dealer": dealer, "type": "redeal"})
            continue
        bouts = n % 4
        low = 4.5 * bouts
        high = 91 - 4.5 * (3 - bouts) + (0.5 if bouts < 3 else 0)
        points = low + ((n * 7.5) % (high - low + 0.5))
        hand: dict[str, Any] = {
            "dealer": dealer,
            "taker": active[n % len(active)],
            "contract": contracts[n % 4],
            "bouts": bouts,
            "points": points,
        }
        if len(active) == 5:
            hand["partner"] = active[(n + 2) % 5]
        if bouts and n % 5 == 0:
            hand["petit_au_bout"] = "attack"
        if n % 9 == 0:
            hand["poignees"] = [{"player": active[(n + 1) % len(active)], "size": "simple"}]
        if n % 11 == 0:
            hand["note"] = "a note written at the table"
        out.append(hand)
    return {"format": "tarockscore/1", "variant": "french", "players": names, "options": {}, "hands": out}
