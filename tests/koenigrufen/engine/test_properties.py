"""Königrufen: invariants over randomized hands of every tariff and option (Hypothesis).

Every hand sums to zero in the Schrift and in money; the money of a cup table is
what a private table writes; a second, independent computation of docs/rules.md §4.6–4.12
agrees wherever it applies; the one sitting out writes 0; doubled Radl doubles."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engine import HandScore, read_session, score_session
from scoring.engine.koenigrufen import (
    BIRD_CALLERS,
    BIRD_GAMES,
    FARBENSPIELE,
    MAY_FAIL_SILENT,
    NEGATIVE_GAMES,
    PREMIUM_VALUES,
    RUFER_GAMES,
    SOLO_GAMES,
    TARIFFS,
    TIROL_EXTRAS,
    TRICK_PREMIUMS,
    Game,
    Tariff,
)
from tests.engine.examples import examples
from tests.engine.support import FIVE

THRESHOLD = {"35/2": 107, "35/1": 106}
SACK = {"sack_1": 137, "sack_2": 167}


def blatt(thirds: int) -> str:
    return f"{thirds // 3}/{thirds % 3}"


@st.composite
def options(draw: st.DrawFn) -> dict[str, Any]:
    tariff = draw(st.sampled_from(list(Tariff)))
    chosen: dict[str, Any] = {
        "tariff": tariff.value,
        "kontra_in_score": draw(st.booleans()),
        "silent_failure_counts": draw(st.booleans()),
        "win_threshold": draw(st.sampled_from(["35/2", "35/1"])),
    }
    if draw(st.booleans()):
        chosen["trischaken"] = draw(st.sampled_from(["ooe", "sauwald", "wtc", "tirol", "tarockapp"]))
    if draw(st.booleans()):
        game = draw(st.sampled_from([g.value for g in Game]))
        chosen["game_values"] = {game: draw(st.integers(1, 12))}
    if draw(st.booleans()):
        premium = draw(st.sampled_from(["pagat", "uhu", "trull", "vier_koenige", "valat"]))
        low = draw(st.integers(0, 20))
        chosen["premium_values"] = {premium: [low, draw(st.integers(low, 40))]}
    return chosen


def games_of(chosen: dict[str, Any]) -> list[Game]:
    own = list(TARIFFS[Tariff(chosen["tariff"])].games)
    return own + [Game(g) for g in chosen.get("game_values", {}) if Game(g) not in own]


def premium_types(chosen: dict[str, Any], game: Game, king_in_talon: str | None) -> list[str]:
    known = set(t.value for t in PREMIUM_VALUES)
    if chosen["tariff"] == "tirol_2020":
        known |= {t.value for t in TIROL_EXTRAS}
    known |= {k for k in chosen.get("premium_values", {}) if k != "valat"}
    if game in FARBENSPIELE:
        known &= {"vier_koenige", "sack_1", "sack_2"}
    if game not in RUFER_GAMES or (game is Game.SOLORUFER and king_in_talon is not None):
        known.discard("koenig_ultimo")
    return sorted(known)


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """A valid hand of any game under random house rules, at four or five."""
    chosen = draw(options())
    players = FIVE[: draw(st.sampled_from([4, 5]))]
    dealer = draw(st.sampled_from(players))
    active = [p for p in players if not (len(players) == 5 and p == dealer)]
    game = draw(st.sampled_from(games_of(chosen)))
    declarer = draw(st.sampled_from(active))
    hand: dict[str, Any] = {"dealer": dealer, "declarer": declarer, "game": game.value}
    renonce = draw(st.sampled_from([None, None, None, None, 1, 2]))
    if renonce:
        hand["renonce"] = draw(st.permutations(active))[:renonce]
        if renonce == 1:
            hand["renonce"] = hand["renonce"][0]
    if game is Game.TRISCHAKEN:
        if renonce and draw(st.booleans()):
            return players, chosen, hand
        cuts = sorted(draw(st.lists(st.integers(0, 210), min_size=3, max_size=3)))
        parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 210 - cuts[2]]
        assume(all(p == 0 or p >= 4 for p in parts))
        hand["points"] = {name: blatt(t) for name, t in zip(active, parts, strict=True)}
        return players, chosen, hand
    opponents = [p for p in active if p != declarer]
    if game in NEGATIVE_GAMES:
        if not renonce or draw(st.booleans()):
            hand["won"] = draw(st.booleans())
        levels = {p: draw(st.integers(0, 3)) for p in opponents if draw(st.booleans())}
        if levels:
            hand["kontra"] = levels
        return players, chosen, hand
    king_in_talon: str | None = None
    if game in RUFER_GAMES:
        choice = draw(st.sampled_from(["partner", "partner", "played", "conceded"]))
        if choice == "conceded" and game is not Game.SOLORUFER and not renonce:
            hand["king_in_talon"] = "conceded"
            if game is Game.BESSERRUFER:
                hand["bird"] = draw(st.sampled_from(["pagat", "uhu", "kakadu", "quapil"]))
            return players, chosen, hand
        if choice == "partner":
            hand["partner"] = draw(st.sampled_from(opponents))
        else:
            king_in_talon = "played"
            hand["king_in_talon"] = "played"
    threshold = THRESHOLD[chosen["win_threshold"]]
    thirds = draw(st.integers(0, 210))
    valat: dict[str, Any] | None = None
    if draw(st.integers(0, 3)) == 0:
        valat = {"side": draw(st.sampled_from(["declarer", "opponents"])), "announced": draw(st.booleans())}
        valat["made"] = True if not valat["announced"] else draw(st.booleans())
        if valat["announced"]:
            valat["kontra"] = draw(st.integers(0, 3))
        if valat["made"]:
            thirds = (
                draw(st.integers(threshold, 210))
                if valat["side"] == "declarer"
                else draw(st.integers(0, threshold - 1))
            )
        hand["valat"] = valat
    if not renonce or draw(st.booleans()):
        hand["points"] = blatt(thirds)
    hand["kontra"] = draw(st.integers(0, 3))
    premiums: list[dict[str, Any]] = []
    bird = BIRD_CALLERS.get(game)
    if game is Game.BESSERRUFER:
        bird = draw(st.sampled_from(list(BIRD_CALLERS.values())))
        hand["bird"] = bird.value
    types = premium_types(chosen, game, king_in_talon)
    picked = draw(st.lists(st.sampled_from(types), unique=True, max_size=4)) if types else []
    if bird is not None and bird.value not in picked:
        picked.insert(0, bird.value)
    for type_ in picked:
        p: dict[str, Any] = {"type": type_, "side": draw(st.sampled_from(["declarer", "opponents"]))}
        if type_ == "koenig_ultimo" or (bird is not None and type_ == bird.value):
            p["side"] = "declarer"
        p["announced"] = draw(st.booleans()) or (bird is not None and type_ == bird.value)
        p["made"] = (
            draw(st.booleans()) if p["announced"] or type_ in {t.value for t in MAY_FAIL_SILENT} else True
        )
        if type_ in SACK and "points" in hand and not renonce:
            side_thirds = thirds if p["side"] == "declarer" else 210 - thirds
            p["made"] = side_thirds >= SACK[type_]
            if not p["made"] and not p["announced"]:
                continue
        other_side = valat is not None and valat["made"] and not renonce and p["side"] != valat["side"]
        if other_side and type_ in {t.value for t in TRICK_PREMIUMS}:
            if type_ == "mondfang" and not p["announced"]:
                continue
            p["made"] = False
        if (
            chosen["tariff"] == "wtc_2020"
            and valat is not None
            and valat["announced"]
            and p["announced"]
            and p["side"] == valat["side"]
            and type_ in ("trull", "vier_koenige")
        ):
            p["announced"] = False
            p["made"] = True
        if p["announced"]:
            p["kontra"] = draw(st.integers(0, 3))
        premiums.append(p)
    if premiums:
        hand["premiums"] = premiums
    return players, chosen, hand


def scored(players: list[str], chosen: dict[str, Any], hand: dict[str, Any]) -> HandScore:
    document = {"variant": "koenigrufen", "players": players, "options": chosen, "hands": [hand]}
    return score_session(read_session(document)).hands[0]


SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


@SETTINGS
@given(hands())
def test_every_hand_sums_to_zero_in_schrift_and_money(
    case: tuple[list[str], dict[str, Any], dict[str, Any]],
) -> None:
    players, chosen, hand = case
    score = scored(players, chosen, hand)
    assert sum(score.deltas.values()) == 0
    assert list(score.deltas) == players
    if chosen["kontra_in_score"]:
        assert score.money is None
    else:
        assert score.money is not None and sum(score.money.values()) == 0
    if len(players) == 5:
        assert score.deltas[hand["dealer"]] == 0
        if score.money is not None:
            assert score.money[hand["dealer"]] == 0
    for value in score.deltas.values():
        assert (value * 2).denominator == 1


@SETTINGS
@given(hands())
def test_a_cup_tables_money_is_what_a_private_table_writes(
    case: tuple[list[str], dict[str, Any], dict[str, Any]],
) -> None:
    players, chosen, hand = case
    cup = scored(players, {**chosen, "kontra_in_score": False}, hand)
    private = scored(players, {**chosen, "kontra_in_score": True}, hand)
    assert cup.money == private.deltas
    # Without any Kontra the Schrift is the money.
    kontras = (
        hand.get("kontra")
        or any(p.get("kontra") for p in hand.get("premiums", []))
        or ((hand.get("valat") or {}).get("kontra"))
    )
    if not kontras:
        assert cup.deltas == cup.money


# --------------------------------------------------------------------------
# A second computation, written from docs/rules.md §4.6–4.12 without the engine's items


def value_of(chosen: dict[str, Any], game: str) -> int:
    if game in chosen.get("game_values", {}):
        return int(chosen["game_values"][game])
    return TARIFFS[Tariff(chosen["tariff"])].games[Game(game)]


def premium_values(chosen: dict[str, Any], type_: str) -> tuple[int, int]:
    if type_ in chosen.get("premium_values", {}):
        silent, announced = chosen["premium_values"][type_]
        return silent, announced
    table = {t.value: v for t, v in {**PREMIUM_VALUES, **TIROL_EXTRAS}.items()}
    return table[type_]


def reference(
    players: list[str], chosen: dict[str, Any], hand: dict[str, Any], with_kontra: bool
) -> dict[str, Fraction] | None:
    """Deltas by the rulebook's formulas, for hands without a Valat, a Renonce or a Trischaken."""
    if hand.get("valat") or hand.get("renonce") or hand["game"] == "trischaken":
        return None
    game = Game(hand["game"])
    declarer = hand["declarer"]
    active = [p for p in players if not (len(players) == 5 and p == hand["dealer"])]
    out = {p: Fraction(0) for p in players}
    v = value_of(chosen, hand["game"])
    if hand.get("king_in_talon") == "conceded":
        bird = BIRD_CALLERS.get(game) or hand.get("bird")
        each = v + (premium_values(chosen, str(getattr(bird, "value", bird)))[1] if bird else 0)
        for p in active:
            out[p] = Fraction(-3 * each if p == declarer else each)
        return out
    if game in NEGATIVE_GAMES:
        sign = 1 if hand["won"] else -1
        for p in active:
            if p != declarer:
                k = 2 ** hand.get("kontra", {}).get(p, 0) if with_kontra else 1
                out[p] -= sign * v * k
                out[declarer] += sign * v * k
        return out
    thirds = int(hand["points"].split("/")[0]) * 3 + int(hand["points"].split("/")[1])
    won = thirds >= THRESHOLD[chosen["win_threshold"]]
    void = game is Game.SOLORUFER and hand.get("king_in_talon") == "played"
    per_opponent = Fraction(0)  # what each opponent pays the declarer's side
    game_v = v * (2 if game is Game.SECHSERDREIER and not won else 1)
    game_k = 1 if void or not with_kontra else 2 ** hand.get("kontra", 0)
    per_opponent += game_v * game_k if won else -game_v * game_k
    for p in hand.get("premiums", []):
        silent, announced = premium_values(chosen, p["type"])
        value = (announced if p["announced"] else silent) * (2 if game in SOLO_GAMES else 1)
        k = 2 ** p.get("kontra", 0) if p["announced"] and with_kontra and not void else 1
        if p["made"]:
            winner = p["side"]
        elif p["announced"] or chosen["silent_failure_counts"]:
            winner = "opponents" if p["side"] == "declarer" else "declarer"
        else:
            continue
        per_opponent += value * k if winner == "declarer" else -value * k
    partner = hand.get("partner")
    for p in active:
        if p == declarer:
            out[p] = per_opponent if partner else 3 * per_opponent
        elif p == partner:
            out[p] = per_opponent
        else:
            out[p] = -per_opponent
    return out


@SETTINGS
@given(hands())
def test_a_second_computation_agrees(case: tuple[list[str], dict[str, Any], dict[str, Any]]) -> None:
    players, chosen, hand = case
    expected = reference(players, chosen, hand, with_kontra=chosen["kontra_in_score"])
    assume(expected is not None)
    score = scored(players, chosen, hand)
    assert dict(score.deltas) == expected
    if not chosen["kontra_in_score"]:
        assert score.money == reference(players, chosen, hand, with_kontra=True)


@SETTINGS
@given(hands())
def test_renonce_pays_everyone_but_the_offenders(
    case: tuple[list[str], dict[str, Any], dict[str, Any]],
) -> None:
    players, chosen, hand = case
    assume(bool(hand.get("renonce")))
    # An announced Valat replaces the game: where the table sets its value to 0, the
    # Renonce is paid as that Valat, nothing (the same in every version of the rules).
    valat = hand.get("valat") or {}
    assume(not (valat.get("announced") and chosen.get("premium_values", {}).get("valat") == [0, 0]))
    offenders = hand["renonce"] if isinstance(hand["renonce"], list) else [hand["renonce"]]
    score = scored(players, chosen, hand)
    active = [p for p in players if not (len(players) == 5 and p == hand["dealer"])]
    for p in active:
        if p in offenders:
            assert score.deltas[p] < 0
        else:
            assert score.deltas[p] > 0
    if len(offenders) == 2:
        assert score.deltas[offenders[0]] == score.deltas[offenders[1]]


@SETTINGS
@given(hands())
def test_in_trischaken_the_loser_pays_and_a_jungfrau_never_pays(
    case: tuple[list[str], dict[str, Any], dict[str, Any]],
) -> None:
    players, chosen, hand = case
    assume(hand["game"] == "trischaken" and "points" in hand and not hand.get("renonce"))
    thirds = {p: int(t.split("/")[0]) * 3 + int(t.split("/")[1]) for p, t in hand["points"].items()}
    most = max(thirds.values())
    losers = [p for p, t in thirds.items() if t == most]
    if hand["declarer"] in losers:  # the Trischaker tied for the most loses alone
        losers = [hand["declarer"]]
    score = scored(players, chosen, hand)
    for p, t in thirds.items():
        if p in losers:
            assert score.deltas[p] < 0
        if t == 0:
            assert score.deltas[p] >= 0
    assert any(score.deltas[p] < 0 for p in thirds)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(hands(), min_size=1, max_size=8), st.booleans())
def test_doubled_radl_doubles_each_hand_by_the_trischaken_before_it(
    cases: list[tuple[list[str], dict[str, Any], dict[str, Any]]], five: bool
) -> None:
    players = FIVE if five else FIVE[:4]
    chosen = {"tariff": "ooe_2023"}
    picked: list[dict[str, Any]] = []
    dealer = players[0]
    for _, _, hand in cases:
        # Each hand replayed at this table, dealt in turn: only hands whose names fit it.
        names = {
            hand["declarer"],
            hand.get("partner"),
            *(hand.get("points") or {} if isinstance(hand.get("points"), dict) else {}),
        }
        active = {p for p in players if not (five and p == dealer)}
        names.discard(None)
        if (
            not names <= active
            or hand.get("renonce")
            or hand.get("kontra")
            or hand.get("premiums")
            or hand.get("valat")
        ):
            continue
        if hand["game"] not in {g.value for g in TARIFFS[Tariff.OOE_2023].games} or hand["game"] in {
            g.value for g in BIRD_GAMES
        }:
            continue
        if isinstance(hand.get("points"), dict) and set(hand["points"]) != active:
            continue
        picked.append({**hand, "dealer": dealer})
        dealer = players[(players.index(dealer) + 1) % len(players)]
    assume(picked)
    plain = score_session(
        read_session({"variant": "koenigrufen", "players": players, "options": chosen, "hands": picked})
    )
    doubled = score_session(
        read_session(
            {
                "variant": "koenigrufen",
                "players": players,
                "options": {**chosen, "doubled_radl": True},
                "hands": picked,
            }
        )
    )
    for index, (a, b) in enumerate(zip(plain.hands, doubled.hands, strict=True)):
        earlier = picked[max(0, index - len(players)) : index]
        factor = 2 ** sum(1 for h in earlier if h["game"] == "trischaken")
        assert {p: v * factor for p, v in a.deltas.items()} == dict(b.deltas)
