"""Scoring a Königrufen hand item by item (docs/rules.md §4.6–4.12), Renonce (§4.14)
and the hand's line on the score sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .koenigrufen_fields import SIDE_CHOICE_LABELS, KoenigrufenHand, KoenigrufenOptions, Premium, Valat
from .koenigrufen_tariffs import (
    BIRD_CALLERS,
    BIRD_GAMES,
    BIRD_LABEL,
    GAME_LABEL,
    HOLDING_PREMIUMS,
    NEGATIVE_GAMES,
    PREMIUM_LABEL,
    SOLO_GAMES,
    TRICK_PREMIUMS,
    BesideValat,
    Game,
    KingInTalon,
    PremiumType,
    ValatModel,
)
from .schema import thirds_text
from .tarock54 import KONTRA_LABEL, Side, kontra_factor, premium_winner
from .types import Arg, Formula, HandScore, Join, Line, Table, deltas_line, gettext_noop, zero_deltas

# --------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True)
class Item:
    """One "Posten": ``value`` per opponent, won by ``winner``, Kontra factor ``k``."""

    what: Line
    value: int
    winner: Side
    k: int = 1
    kontra: int = 0  # the level behind ``k``, for the breakdown


def declarer_side(hand: KoenigrufenHand) -> tuple[str, ...]:
    return (hand.declarer,) if hand.partner is None else (hand.declarer, hand.partner)


def declarer_won(hand: KoenigrufenHand, options: KoenigrufenOptions) -> bool | None:
    """Whether the declarer's side won: by the points (or a Valat), by ``won``;
    a Renonce or a conceded hand, against the side that caused it."""
    if hand.renonce:
        return hand.declarer not in hand.renonce and hand.partner not in hand.renonce
    if hand.conceded:
        return False
    if hand.game in NEGATIVE_GAMES:
        return hand.won
    if hand.game is Game.TRISCHAKEN:
        return None
    valat = hand.valat
    if valat is not None and options.set.valat is ValatModel.MULTIPLIER:
        return (valat.side is Side.DECLARER) is valat.made
    return (hand.points or 0) >= options.threshold


def pay_items(
    table: Table, hand: KoenigrufenHand, items: Sequence[Item], with_kontra: bool
) -> dict[str, Fraction]:
    """docs/rules.md §4.6: 2 v 2 each winner +v·k, each loser −v·k; 1 v 3 the declarer ±3·v·k."""
    deltas = zero_deltas(table.players)
    ours = declarer_side(hand) if hand.two_against_two else (hand.declarer,)
    for item in items:
        amount = item.value * (item.k if with_kontra else 1)
        sign = 1 if item.winner is Side.DECLARER else -1
        for player in table.active:
            if player in ours:
                deltas[player] += sign * amount * (1 if hand.two_against_two else 3)
            else:
                deltas[player] -= sign * amount
    return deltas


def item_line(item: Item, kontra_in_score: bool) -> Line:
    args: dict[str, Arg] = {
        "what": item.what,
        "value": item.value,
        "side": Line(SIDE_LABEL_FOR[item.winner]),
    }
    if item.k == 1:
        return Line(gettext_noop("{what}: {value} for {side}"), args)
    args["kontra"] = Line(KONTRA_LABEL[item.kontra])
    args["formula"] = Formula((item.value, " × ", item.k))
    args["money"] = item.value * item.k
    if kontra_in_score:
        return Line(gettext_noop("{what}, {kontra}: {formula} = {money} for {side}"), args)
    return Line(gettext_noop("{what}: {value} for {side}; {kontra} in money: {formula} = {money}"), args)


SIDE_LABEL_FOR = SIDE_CHOICE_LABELS


def hand_result(
    table: Table,
    schrift: dict[str, Fraction],
    money: dict[str, Fraction],
    lines: list[Line],
    options: KoenigrufenOptions,
) -> HandScore:
    """The hand's deltas: with ``kontra_in_score`` the money; otherwise the Schrift, the money beside it."""
    if table.sitting_out is not None:
        lines.insert(
            0,
            Line(
                gettext_noop("{player} deals and sits out: 0"),
                {"player": table.sitting_out},
            ),
        )
    active = [p for p in table.players if p != table.sitting_out]

    def written(deltas: Mapping[str, Fraction]) -> Line:
        shown = {p: deltas[p] for p in active}
        return deltas_line(shown, _one_against_three(shown))

    if options.kontra_in_score:
        lines.append(written(money))
        return HandScore(money, tuple(lines))
    lines.append(Line(gettext_noop("Schrift: {deltas}"), {"deltas": written(schrift)}))
    if money != schrift:
        lines.append(Line(gettext_noop("Money: {deltas}"), {"deltas": written(money)}))
    return HandScore(schrift, tuple(lines), money)


def _one_against_three(deltas: Mapping[str, Fraction]) -> dict[str, Arg]:
    """``3 × 4`` beside the one who gets or pays what each of the three others pays or gets."""
    for player, value in deltas.items():
        others = {v for p, v in deltas.items() if p != player}
        if len(deltas) == 4 and len(others) == 1 and value and value == -3 * next(iter(others)):
            return {player: Formula((3, " × ", abs(next(iter(others)))))}
    return {}


def mode_line(hand: KoenigrufenHand) -> Line:
    if hand.two_against_two:
        return Line(
            gettext_noop("2 against 2: {declarer} and {partner} each get or pay the items"),
            {"declarer": hand.declarer, "partner": str(hand.partner)},
        )
    return Line(
        gettext_noop("1 against 3: {declarer} gets or pays 3 × the items, each opponent once"),
        {"declarer": hand.declarer},
    )


def game_item_value(hand: KoenigrufenHand, options: KoenigrufenOptions) -> int:
    value = options.game_value(hand.game)
    assert value is not None
    return value


def premium_value(
    premium: PremiumType, announced: bool, game: Game, options: KoenigrufenOptions
) -> tuple[int, Formula]:
    """The silent or announced value, doubled in solo games."""
    values = options.premium_value(premium)
    assert values is not None
    base = values[1] if announced else values[0]
    if game in SOLO_GAMES:
        return 2 * base, Formula((base, " × ", 2))
    return base, Formula((base,))


def positive_items(hand: KoenigrufenHand, options: KoenigrufenOptions) -> tuple[list[Item], list[Line]]:
    """The game item (or the Valat replacing it), the premiums and a fixed Valat (docs/rules.md §4.7–4.10)."""
    v = game_item_value(hand, options)
    void = hand.game is Game.SOLORUFER and hand.king_in_talon is KingInTalon.PLAYED
    notes: list[Line] = []
    if void and (hand.kontra or any(p.kontra for p in hand.premiums) or (hand.valat and hand.valat.kontra)):
        notes.append(
            Line(gettext_noop("The called king lay in the talon of a Solorufer: every Kontra is void"))
        )
    game_kontra = 0 if void else hand.kontra
    items: list[Item] = []
    valat = hand.valat
    beside: BesideValat | None = None
    if valat is not None and options.set.valat is ValatModel.MULTIPLIER:
        items.append(_valat_for_game(hand, valat, options, v, game_kontra, void))
        beside = BesideValat.ANNOUNCED_ONLY
    else:
        items.append(_game_item(hand, options, v, game_kontra, notes))
        if valat is not None:
            items.append(_fixed_valat(hand, valat, options, void))
            if valat.made:
                beside = options.set.beside_valat
    for premium in hand.premiums:
        item, note = premium_item(premium, hand, options, beside, void)
        if item is not None:
            items.append(item)
        if note is not None:
            notes.append(note)
    return items, notes


def _valat_for_game(
    hand: KoenigrufenHand, valat: Valat, options: KoenigrufenOptions, v: int, game_kontra: int, void: bool
) -> Item:
    """A Valat where the tariff multiplies the game by it: it replaces the game item."""
    multipliers = options.valat_values()
    winner = valat.side if valat.made else valat.side.other
    factor = multipliers[1] if valat.announced else multipliers[0]
    doubled = hand.game is Game.SECHSERDREIER and winner is Side.OPPONENTS
    value = v * factor * (2 if doubled else 1)
    level = 0 if void else max(game_kontra, valat.kontra)
    tokens: list[str | int | Fraction] = [v, " × ", factor]
    if doubled:
        tokens += [" × ", 2]
    return Item(
        Line(
            gettext_noop("{game} with {valat} ({formula})"),
            {
                "game": Line(GAME_LABEL[hand.game]),
                "valat": _valat_words(valat),
                "formula": Formula(tuple(tokens)),
            },
        ),
        value,
        winner,
        kontra_factor(level),
        level,
    )


def _game_item(
    hand: KoenigrufenHand, options: KoenigrufenOptions, v: int, game_kontra: int, notes: list[Line]
) -> Item:
    """The game won or lost on its points; a note where a made silent Valat voids its Kontra."""
    game = hand.game
    label = Line(GAME_LABEL[game])
    points = hand.points or 0
    won = points >= options.threshold
    valat = hand.valat
    winner = Side.DECLARER if won else Side.OPPONENTS
    doubled = game is Game.SECHSERDREIER and not won
    kontra = game_kontra
    if (
        valat is not None
        and valat.made
        and not valat.announced
        and options.set.silent_valat_voids_kontra
        and kontra
    ):
        notes.append(Line(gettext_noop("A made silent Valat voids the Kontra on the game")))
        kontra = 0
    what = (
        Line(gettext_noop("{game} won with {points}"), {"game": label, "points": thirds_text(points)})
        if won
        else Line(gettext_noop("{game} lost with {points}"), {"game": label, "points": thirds_text(points)})
    )
    if doubled:
        what = Line(
            gettext_noop("{what}, a lost Sechserdreier counts double ({formula})"),
            {"what": what, "formula": Formula((v, " × ", 2))},
        )
    return Item(what, v * (2 if doubled else 1), winner, kontra_factor(kontra), kontra)


def _fixed_valat(hand: KoenigrufenHand, valat: Valat, options: KoenigrufenOptions, void: bool) -> Item:
    """A Valat of fixed value beside the game, doubled in a solo game."""
    multipliers = options.valat_values()
    fixed = multipliers[1] if valat.announced else multipliers[0]
    solo = hand.game in SOLO_GAMES
    value = 2 * fixed if solo else fixed
    level = 0 if void else valat.kontra
    return Item(
        # The value follows the colon; a formula only where it doubles in a solo game.
        Line(
            gettext_noop("{valat} ({formula})"),
            {"valat": _valat_words(valat), "formula": Formula((fixed, " × ", 2))},
        )
        if solo
        else _valat_words(valat),
        value,
        valat.side if valat.made else valat.side.other,
        kontra_factor(level),
        level,
    )


def _valat_words(valat: Valat) -> Line:
    side = Line(SIDE_LABEL_FOR[valat.side])
    if not valat.announced:
        return Line(gettext_noop("a silent Valat of {side}"), {"side": side})
    if valat.made:
        return Line(gettext_noop("a Valat announced by {side}, made"), {"side": side})
    return Line(gettext_noop("a Valat announced by {side}, failed"), {"side": side})


def _premium_words(premium: Premium) -> Line:
    args: dict[str, Arg] = {
        "premium": Line(PREMIUM_LABEL[premium.type]),
        "side": Line(SIDE_LABEL_FOR[premium.side]),
    }
    if premium.announced:
        if premium.made:
            return Line(gettext_noop("{premium} announced by {side}, made"), args)
        return Line(gettext_noop("{premium} announced by {side}, failed"), args)
    if premium.made:
        return Line(gettext_noop("silent {premium} of {side}"), args)
    return Line(gettext_noop("silent {premium} of {side}, failed"), args)


def counts_beside_valat(premium: Premium, beside: BesideValat | None) -> bool:
    if beside is None:
        return True
    if beside is BesideValat.ANNOUNCED_ONLY:
        return premium.announced
    if beside is BesideValat.WTC:
        return premium.announced or premium.type not in HOLDING_PREMIUMS
    return premium.type in TRICK_PREMIUMS


def premium_item(
    premium: Premium,
    hand: KoenigrufenHand,
    options: KoenigrufenOptions,
    beside: BesideValat | None,
    void: bool,
) -> tuple[Item | None, Line | None]:
    """docs/rules.md §4.8: made, to its side; announced and failed, to the other side;
    silent and failed, nothing unless ``silent_failure_counts``."""
    words = _premium_words(premium)
    if not counts_beside_valat(premium, beside):
        return None, Line(gettext_noop("{what}: does not count beside the Valat"), {"what": words})
    winner = premium_winner(premium, options.silent_failure_counts)
    if winner is None:
        return None, Line(gettext_noop("{what}: counts nothing"), {"what": words})
    value, formula = premium_value(premium.type, premium.announced, hand.game, options)
    if len(formula.tokens) > 1:
        words = Line(
            gettext_noop("{what} ({formula}, doubled in a solo game)"), {"what": words, "formula": formula}
        )
    level = 0 if void or not premium.announced else premium.kontra
    return Item(words, value, winner, kontra_factor(level), level), None


def score_conceded(hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions) -> HandScore:
    """docs/rules.md §4.11: the declarer pays each of the three the game value and the bird's announced value."""
    v = game_item_value(hand, options)
    bird = hand.called_bird
    bird_value = 0
    if bird is not None:
        values = options.premium_value(PremiumType(bird.value))
        bird_value = values[1] if values else 0
    each = v + bird_value
    formula = Formula((v, " + ", bird_value)) if bird is not None else Formula((v,))
    lines = [
        Line(
            gettext_noop(
                "{game}: the called king lay in the talon and {declarer} conceded: {formula} = {each} to each of the others"
            ),
            {
                "game": Line(GAME_LABEL[hand.game]),
                "declarer": hand.declarer,
                "formula": formula,
                "each": each,
            },
        )
    ]
    deltas = zero_deltas(table.players)
    for player in table.active:
        deltas[player] = Fraction(-3 * each if player == hand.declarer else each)
    return hand_result(table, deltas, dict(deltas), lines, options)


def score_negative(hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions) -> HandScore:
    """docs/rules.md §4.12: 1 v 3; each opponent's Kontra acts between him and the declarer."""
    v = game_item_value(hand, options)
    sign = 1 if hand.won else -1
    label = Line(GAME_LABEL[hand.game])
    lines = [
        Line(
            gettext_noop("{game} won: {value} from each opponent")
            if hand.won
            else gettext_noop("{game} lost: {value} to each opponent"),
            {"game": label, "value": v},
        )
    ]
    schrift = zero_deltas(table.players)
    money = zero_deltas(table.players)
    for player in table.active:
        if player == hand.declarer:
            continue
        level = hand.opponent_kontra.get(player, 0)
        k = kontra_factor(level)
        schrift[player] -= sign * v
        schrift[hand.declarer] += sign * v
        money[player] -= sign * v * k
        money[hand.declarer] += sign * v * k
        if level:
            lines.append(
                Line(
                    gettext_noop("{player}: {kontra}, {formula} = {money} with the declarer"),
                    {
                        "player": player,
                        "kontra": Line(KONTRA_LABEL[level]),
                        "formula": Formula((v, " × ", k)),
                        "money": v * k,
                    },
                )
            )
    return hand_result(table, schrift, money, lines, options)


# --------------------------------------------------------------------------
# Renonce (docs/rules.md §4.14)


def renonce_items(hand: KoenigrufenHand, options: KoenigrufenOptions, paid_to: Side) -> list[Item]:
    """The items a regular player of side ``paid_to`` is paid: the game (a
    Sechserdreier's doubled when paid to the opponents), every announced premium
    and an announced Valat, all won by ``paid_to``."""
    game = hand.game
    v = game_item_value(hand, options)
    void = game is Game.SOLORUFER and hand.king_in_talon is KingInTalon.PLAYED
    doubled = game is Game.SECHSERDREIER and paid_to is Side.OPPONENTS
    game_kontra = 0 if void else hand.kontra
    items: list[Item] = []
    valat = hand.valat if hand.valat is not None and hand.valat.announced else None
    multipliers = options.valat_values()
    if valat is not None and options.set.valat is ValatModel.MULTIPLIER:
        level = 0 if void else max(game_kontra, valat.kontra)
        value = v * multipliers[1] * (2 if doubled else 1)
        items.append(
            Item(
                Line(
                    gettext_noop("{game} with {valat}"),
                    {"game": Line(GAME_LABEL[game]), "valat": _valat_words(valat)},
                ),
                value,
                paid_to,
                kontra_factor(level),
                level,
            )
        )
    else:
        items.append(
            Item(
                Line(GAME_LABEL[game]),
                v * (2 if doubled else 1),
                paid_to,
                kontra_factor(game_kontra),
                game_kontra,
            )
        )
        if valat is not None:
            fixed = multipliers[1] * (2 if game in SOLO_GAMES else 1)
            level = 0 if void else valat.kontra
            items.append(Item(_valat_words(valat), fixed, paid_to, kontra_factor(level), level))
    for premium in hand.premiums:
        if premium.announced:
            value, _ = premium_value(premium.type, True, game, options)
            level = 0 if void else premium.kontra
            items.append(
                Item(
                    Line(gettext_noop("{premium} announced"), {"premium": Line(PREMIUM_LABEL[premium.type])}),
                    value,
                    paid_to,
                    kontra_factor(level),
                    level,
                )
            )
    return items


def score_renonce(hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions) -> HandScore:
    """Every player who kept the rules is paid as if his side had won the game and
    every announced premium; the offender pays the sum (two share it)."""
    offenders = hand.renonce
    lines: list[Line] = [
        Line(gettext_noop("Renonce by {players}: the hand ends"), {"players": Join(offenders)})
    ]
    schrift = zero_deltas(table.players)
    money = zero_deltas(table.players)
    ours = declarer_side(hand) if hand.two_against_two else (hand.declarer,)
    regular = [p for p in table.active if p not in offenders]
    for player in regular:
        if hand.game in NEGATIVE_GAMES:
            v = game_item_value(hand, options)
            opponents = [p for p in table.active if p != hand.declarer]
            if player == hand.declarer:
                s = Fraction(3 * v)
                m = Fraction(sum(v * kontra_factor(hand.opponent_kontra.get(o, 0)) for o in opponents))
            else:
                s = Fraction(v)
                m = Fraction(v * kontra_factor(hand.opponent_kontra.get(player, 0)))
        else:
            side = Side.DECLARER if player in ours else Side.OPPONENTS
            items = renonce_items(hand, options, side)
            heads = 3 if (player == hand.declarer and not hand.two_against_two) else 1
            s = Fraction(heads * sum(item.value for item in items))
            m = Fraction(heads * sum(item.value * item.k for item in items))
            parts = Join(tuple(item.what for item in items), " + ")
            lines.append(
                Line(
                    gettext_noop("{player} is paid {parts}: {value}"),
                    {"player": player, "parts": parts, "value": s},
                )
            )
        schrift[player] += s
        money[player] += m
    share = len(offenders)
    schrift_sum = sum(schrift.values(), Fraction(0))
    money_sum = sum(money.values(), Fraction(0))
    for offender in offenders:
        schrift[offender] -= schrift_sum / share
        money[offender] -= money_sum / share
    return hand_result(table, schrift, money, lines, options)


# --------------------------------------------------------------------------
# Describing a hand for the score sheet


def _with_kontra(words: Line, level: int) -> Line:
    """An announced premium or Valat and the Kontra said on it, if any."""
    if not level:
        return words
    return Line(gettext_noop("{what} ({kontra})"), {"what": words, "kontra": Line(KONTRA_LABEL[level])})


def describe_hand(hand: KoenigrufenHand) -> Line:
    pieces: list[Arg] = [hand.declarer, Line(GAME_LABEL[hand.game])]
    if hand.game in BIRD_GAMES and hand.called_bird is not None and hand.game not in BIRD_CALLERS:
        pieces.append(Line(BIRD_LABEL[hand.called_bird]))
    if hand.partner is not None:
        pieces.append(Line(gettext_noop("with {partner}"), {"partner": hand.partner}))
    if hand.king_in_talon is KingInTalon.PLAYED:
        pieces.append(Line(gettext_noop("king in the talon, played on")))
    elif hand.king_in_talon is KingInTalon.CONCEDED:
        pieces.append(Line(gettext_noop("king in the talon, conceded")))
    if hand.each is not None:
        for name, value in hand.each.items():
            pieces.append(Line("{player} {points}", {"player": name, "points": thirds_text(value)}))
    elif hand.points is not None:
        pieces.append(thirds_text(hand.points))
    if hand.won is not None:
        pieces.append(Line(gettext_noop("won") if hand.won else gettext_noop("lost")))
    if hand.kontra:
        pieces.append(Line(KONTRA_LABEL[hand.kontra]))
    for name, level in hand.opponent_kontra.items():
        if level:
            pieces.append(
                Line(gettext_noop("{kontra} {player}"), {"kontra": Line(KONTRA_LABEL[level]), "player": name})
            )
    for premium in hand.premiums:
        called = hand.game in BIRD_GAMES and premium.type.value == getattr(hand.called_bird, "value", None)
        if called and premium.made and not premium.kontra:
            continue
        pieces.append(_with_kontra(_premium_words(premium), premium.kontra))
    if hand.valat is not None:
        pieces.append(_with_kontra(_valat_words(hand.valat), hand.valat.kontra))
    if hand.renonce:
        pieces.append(Line(gettext_noop("Renonce {players}"), {"players": Join(hand.renonce)}))
    return Line("{pieces}", {"pieces": Join(tuple(pieces), " · ")})
