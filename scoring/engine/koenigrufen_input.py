"""Reading a Königrufen hand: the values tables, the fields of two shapes (one value or
one per player), the checks across fields (docs/rules.md §4.5) and writing a hand back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .koenigrufen_fields import (
    CONCEDED_KEYS,
    EACH_FIELD,
    KONTRA_FIELD,
    MAX_GAME_VALUE,
    MAX_PREMIUM_VALUE,
    POINTS_FIELD,
    RENONCE_FIELD,
    SIDE_CHOICE_LABELS,
    TRISCHAKEN_KEYS,
    KoenigrufenHand,
    KoenigrufenOptions,
    Premium,
    Valat,
)
from .koenigrufen_tariffs import (
    BIRD_CALLERS,
    BIRD_GAMES,
    BIRD_LABEL,
    FARBENSPIEL_PREMIUMS,
    FARBENSPIELE,
    GAME_LABEL,
    HOLDING_PREMIUMS,
    MAY_FAIL_SILENT,
    NEGATIVE_GAMES,
    PREMIUM_LABEL,
    RUFER_GAMES,
    SACK_THIRDS,
    TRICK_PREMIUMS,
    Bird,
    Game,
    KingInTalon,
    PremiumType,
    Tariff,
)
from .schema import clean_value, thirds_json, thirds_text
from .tarock54 import MAX_KONTRA, THIRDS, Side
from .types import InvalidInput, Line, Table, allowed_list, gettext_noop, invalid, labels, names

# --------------------------------------------------------------------------
# Reading the values tables and the fields of two shapes


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def read_game_values(raw: Any) -> dict[Game, int]:
    if not isinstance(raw, Mapping):
        raise invalid(
            "options.game_values",
            gettext_noop("must be an object of games and their values, for example dreier: 5"),
        )
    out: dict[Game, int] = {}
    for key, value in raw.items():
        path = f"options.game_values.{key}"
        if key not in tuple(Game):
            raise invalid(path, gettext_noop("not a game; games: {allowed}"), allowed=allowed_list(Game))
        if not _whole(value, 1, MAX_GAME_VALUE):
            raise invalid(
                path,
                gettext_noop("a whole number from 1 to {high} (got {got})"),
                high=MAX_GAME_VALUE,
                got=str(value),
            )
        out[Game(key)] = value
    return out


def read_premium_values(raw: Any) -> dict[str, tuple[int, int]]:
    if not isinstance(raw, Mapping):
        raise invalid(
            "options.premium_values",
            gettext_noop(
                "must be an object of premiums and their two values, for example uhu: [1, 3] (silent, announced)"
            ),
        )
    keys = (*(t.value for t in PremiumType), "valat")
    out: dict[str, tuple[int, int]] = {}
    for key, value in raw.items():
        path = f"options.premium_values.{key}"
        if key not in keys:
            raise invalid(
                path, gettext_noop("not a premium; premiums: {allowed}"), allowed=allowed_list(keys)
            )
        if not (
            isinstance(value, list)
            and len(value) == 2
            and all(_whole(v, 0, MAX_PREMIUM_VALUE) for v in value)
        ):
            raise invalid(
                path,
                gettext_noop("two whole numbers from 0 to {high}, [silent, announced] (got {got})"),
                high=MAX_PREMIUM_VALUE,
                got=str(value),
            )
        out[key] = (value[0], value[1])
    return out


def read_points(raw: Mapping[str, Any], game: Game | None, table: Table) -> Any:
    if "points" not in raw or raw["points"] is None:
        return None
    if game is Game.TRISCHAKEN:
        each = clean_value(EACH_FIELD, raw["points"], True, table.active)
        return {name: int(value * 3) for name, value in each.items()}
    if isinstance(raw["points"], Mapping):
        raise invalid(
            "points",
            gettext_noop("one number, the declarer's side's points; only a Trischaken gives each player's"),
        )
    points = clean_value(POINTS_FIELD, raw["points"], True, table.active)
    return int(points * 3)


def read_kontra(raw: Mapping[str, Any], game: Game | None, table: Table) -> Any:
    if "kontra" not in raw or raw["kontra"] is None:
        return None
    value = raw["kontra"]
    if game in NEGATIVE_GAMES:
        if not isinstance(value, Mapping):
            raise invalid(
                "kontra",
                gettext_noop("in a {game} each opponent kontras for himself: give each opponent's level"),
                game=Line(GAME_LABEL[game]) if game else "",
            )
        levels: dict[str, int] = {}
        for name, level in value.items():
            if name not in table.active or name == raw.get("declarer"):
                raise InvalidInput(
                    f"kontra.{name}",
                    Line(
                        gettext_noop("not an opponent in this hand; opponents: {allowed}"),
                        {"allowed": names(p for p in table.active if p != raw.get("declarer"))},
                    ),
                    label=_of_player(KONTRA_FIELD.label, str(name)),
                )
            levels[name] = _opponent_level(name, level)
        return levels
    if isinstance(value, Mapping):
        raise invalid(
            "kontra",
            gettext_noop(
                "one level on the game, 0 to 3; only a Piccolo or Bettel names each opponent's Kontra"
            ),
        )
    return clean_value(KONTRA_FIELD, value, True, table.active)


def _of_player(label: str, name: str) -> Line:
    """``Kontra, Bert``: a field's label with the player it is about."""
    return Line(gettext_noop("{outer}, {inner}"), {"outer": Line(label), "inner": name})


def _opponent_level(name: str, level: Any) -> int:
    if not _whole(level, 0, MAX_KONTRA):
        raise InvalidInput(
            f"kontra.{name}",
            Line(
                gettext_noop(
                    "a Kontra level from 0 to {high}: 1 Kontra, 2 Rekontra, 3 Subkontra (got {got})"
                ),
                {"high": MAX_KONTRA, "got": str(level)},
            ),
            label=_of_player(KONTRA_FIELD.label, name),
        )
    return int(level)


def read_renonce(raw: Mapping[str, Any], game: Game | None, table: Table) -> tuple[str, ...]:
    value = raw.get("renonce")
    if value is None:
        return ()
    if isinstance(value, list):
        if not 1 <= len(value) <= 2:
            raise invalid("renonce", gettext_noop("one or two players (got {n})"), n=len(value))
        # Each entry names a player: a null in the list is refused, not taken for "nobody".
        entry = replace(RENONCE_FIELD, nullable=False)
        found = tuple(clean_value(entry, name, True, table.active) for name in value)
        if len(set(found)) != len(found):
            raise invalid("renonce", gettext_noop("names a player twice"))
        return found
    return (clean_value(RENONCE_FIELD, value, True, table.active),)


# --------------------------------------------------------------------------
# Building and checking a hand (docs/rules.md §4.5)


def build_hand(
    values: Mapping[str, Any], given: set[str], table: Table, options: KoenigrufenOptions
) -> KoenigrufenHand:
    game = Game(values["game"])
    premiums = tuple(
        Premium(
            type=PremiumType(p["type"]),
            side=Side(p["side"]),
            announced=p["announced"],
            made=p["made"],
            kontra=p["kontra"],
        )
        for p in values.get("premiums", ())
    )
    valat = values.get("valat")
    kontra = values.get("kontra")
    hand = KoenigrufenHand(
        declarer=values["declarer"],
        game=game,
        bird=None if values.get("bird") is None else Bird(values["bird"]),
        partner=values.get("partner"),
        king_in_talon=None if values.get("king_in_talon") is None else KingInTalon(values["king_in_talon"]),
        points=values["points"] if game is not Game.TRISCHAKEN else None,
        won=values.get("won"),
        kontra=kontra if isinstance(kontra, int) else 0,
        opponent_kontra=dict(kontra) if isinstance(kontra, Mapping) else {},
        premiums=premiums,
        valat=None
        if valat is None
        else Valat(Side(valat["side"]), valat["announced"], valat["made"], valat["kontra"]),
        renonce=values["renonce"],
        each=values["points"] if game is Game.TRISCHAKEN else None,
    )
    check_hand(hand, given, table, options)
    if game in BIRD_CALLERS and hand.bird is None:
        hand = replace(hand, bird=BIRD_CALLERS[game])
    return hand


def _not_here(name: str, game: Game, text: str | None = None) -> InvalidInput:
    return invalid(
        name,
        text or gettext_noop("not part of a {game}"),
        game=Line(GAME_LABEL[game]),
    )


def check_hand(hand: KoenigrufenHand, given: set[str], table: Table, options: KoenigrufenOptions) -> None:
    """The cross-field rules of docs/rules.md §4.5; each refusal names its field."""
    game = hand.game
    if options.game_value(game) is None:
        raise invalid(
            "game",
            gettext_noop("the tariff {tariff} has no {game}; its games: {allowed}"),
            tariff=Line(options.set.label),
            game=Line(GAME_LABEL[game]),
            allowed=labels(GAME_LABEL[g] for g in options.games()),
        )
    if game is Game.TRISCHAKEN:
        _check_trischaken(hand, given, table)
        return
    if hand.renonce and hand.conceded:
        raise invalid("renonce", gettext_noop("a conceded hand ends before any card is played: no Renonce"))
    _check_called(hand, given)
    if hand.conceded:
        for name in sorted(given - {*CONCEDED_KEYS, "dealer", "type", "sitting_out", "note"}):
            raise invalid(
                name,
                gettext_noop(
                    "a conceded hand records only the declarer, the game, the king in the talon and the bird"
                ),
            )
        return
    if game in NEGATIVE_GAMES:
        _check_negative(hand, given)
        return
    _check_positive(hand, given, options)


def _check_trischaken(hand: KoenigrufenHand, given: set[str], table: Table) -> None:
    for name in sorted(given - {*TRISCHAKEN_KEYS, "dealer", "type", "sitting_out", "note"}):
        raise invalid(
            name,
            gettext_noop("a Trischaken records only the Trischaker, each player's points and a Renonce"),
        )
    each = hand.each
    if each is None:
        if not hand.renonce:
            raise invalid(
                "points",
                gettext_noop("each player's points are needed (only a Renonce hand leaves them out)"),
            )
        return
    for name in table.active:
        if 0 < each[name] < 4:
            raise InvalidInput(
                f"points.{name}",
                Line(
                    gettext_noop(
                        "0 without a trick, else at least 1/1: one trick holds four cards (got {got})"
                    ),
                    {"got": thirds_text(each[name])},
                ),
                label=_of_player(EACH_FIELD.label, name),
            )
    total = sum(each.values())
    if total != THIRDS:
        raise InvalidInput(
            "points",
            Line(
                gettext_noop("the four players' points add up to 70 (got {got})"),
                {"got": thirds_text(total)},
            ),
            label=Line(EACH_FIELD.label),
        )


def _check_called(hand: KoenigrufenHand, given: set[str]) -> None:
    game = hand.game
    if game not in RUFER_GAMES:
        for name in ("partner", "king_in_talon"):
            if getattr(hand, name) is not None:
                raise _not_here(
                    name, game, gettext_noop("only a Rufer game has a partner or a king in the talon")
                )
    else:
        if hand.partner is not None and hand.king_in_talon is not None:
            raise invalid(
                "partner",
                gettext_noop("the called king lay in the talon, so nobody is the partner: leave it out"),
            )
        if hand.partner is None and hand.king_in_talon is None:
            raise invalid(
                "partner",
                gettext_noop("a {game} names the partner, or says the king lay in the talon"),
                game=Line(GAME_LABEL[game]),
            )
        if hand.partner == hand.declarer:
            raise invalid("partner", gettext_noop("nobody calls his own king: the partner is another player"))
        if game is Game.SOLORUFER and hand.king_in_talon is KingInTalon.CONCEDED:
            raise invalid(
                "king_in_talon",
                gettext_noop("a Solorufer's talon stays closed until the end: it can only be played on"),
            )
    if game not in BIRD_GAMES:
        if hand.bird is not None:
            raise _not_here("bird", game, gettext_noop("only a Besserrufer or a bird-caller names a bird"))
    elif game is Game.BESSERRUFER and hand.bird is None:
        raise invalid("bird", gettext_noop("a Besserrufer names its bird: Pagat, Uhu, Kakadu or Quapil"))
    elif game in BIRD_CALLERS and hand.bird is not None and hand.bird is not BIRD_CALLERS[game]:
        raise invalid(
            "bird",
            gettext_noop("a {game} calls the {bird}"),
            game=Line(GAME_LABEL[game]),
            bird=Line(BIRD_LABEL[BIRD_CALLERS[game]]),
        )


def _check_negative(hand: KoenigrufenHand, given: set[str]) -> None:
    game = hand.game
    if hand.points is not None:
        raise _not_here("points", game, gettext_noop("a {game} is won or lost by its tricks: no points"))
    if hand.premiums:
        raise _not_here("premiums", game, gettext_noop("a {game} has no premiums"))
    if hand.valat is not None:
        raise _not_here("valat", game, gettext_noop("a {game} has no Valat"))
    if hand.won is None and not hand.renonce:
        raise invalid("won", gettext_noop("a {game} is won or lost: say which"), game=Line(GAME_LABEL[game]))
    if "kontra" in given and not hand.opponent_kontra and hand.kontra:
        raise invalid(
            "kontra",
            gettext_noop("in a {game} each opponent kontras for himself"),
            game=Line(GAME_LABEL[game]),
        )


def _check_positive(hand: KoenigrufenHand, given: set[str], options: KoenigrufenOptions) -> None:
    game = hand.game
    if hand.won is not None:
        raise _not_here(
            "won", game, gettext_noop("a {game} is decided by the points, not won or lost by tricks")
        )
    if hand.points is None and not hand.renonce:
        raise invalid(
            "points",
            gettext_noop("the declarer's side's points are needed (only a Renonce hand leaves them out)"),
        )
    seen: dict[PremiumType, int] = {}
    for index, premium in enumerate(hand.premiums, 1):
        path = f"premiums[{index}]."
        if premium.type in seen:
            raise invalid(
                f"{path}type",
                gettext_noop("{premium} is already listed (premium {row}); it counts once per hand"),
                premium=Line(PREMIUM_LABEL[premium.type]),
                row=seen[premium.type],
            )
        seen[premium.type] = index
        _check_premium(hand, premium, path, options)
    bird = hand.called_bird
    if game in BIRD_GAMES and bird is not None:
        called = next((p for p in hand.premiums if p.type.value == bird.value), None)
        if called is None or not called.announced or called.side is not Side.DECLARER:
            raise invalid(
                "premiums",
                gettext_noop(
                    "a {game} announces its bird: list the {bird}, announced, of the declarer's side"
                ),
                game=Line(GAME_LABEL[game]),
                bird=Line(BIRD_LABEL[bird]),
            )
    if hand.valat is not None:
        _check_valat(hand, hand.valat, options)


def _check_premium(hand: KoenigrufenHand, premium: Premium, path: str, options: KoenigrufenOptions) -> None:
    game = hand.game
    label = Line(PREMIUM_LABEL[premium.type])
    if options.premium_value(premium.type) is None:
        raise invalid(
            f"{path}type",
            gettext_noop("the tariff {tariff} has no {premium}; premiums here: {allowed}"),
            tariff=Line(options.set.label),
            premium=label,
            allowed=labels(PREMIUM_LABEL[t] for t in options.premium_types()),
        )
    if game in FARBENSPIELE and premium.type not in FARBENSPIEL_PREMIUMS:
        raise invalid(
            f"{path}type",
            gettext_noop(
                "in a {game} tarocks do not trump: of the premiums only Vier Könige and the Säcke count"
            ),
            game=Line(GAME_LABEL[game]),
        )
    if premium.type is PremiumType.KOENIG_ULTIMO:
        if game not in RUFER_GAMES:
            raise invalid(f"{path}type", gettext_noop("König ultimo needs a called king: Rufer games only"))
        if premium.side is not Side.DECLARER:
            raise invalid(f"{path}side", gettext_noop("König ultimo is the declarer's side's premium"))
        if game is Game.SOLORUFER and hand.king_in_talon is not None:
            raise invalid(
                f"{path}type",
                gettext_noop("the called king lay in the closed talon of this Solorufer: no König ultimo"),
            )
    if premium.kontra and not premium.announced:
        raise invalid(f"{path}kontra", gettext_noop("only an announced premium can be kontra'd"))
    if not premium.made and not premium.announced and premium.type not in MAY_FAIL_SILENT:
        raise invalid(
            f"{path}made",
            gettext_noop("a silent {premium} is recorded only when made"),
            premium=label,
        )
    if premium.type in SACK_THIRDS and hand.points is not None and not hand.renonce:
        side_thirds = hand.points if premium.side is Side.DECLARER else THIRDS - hand.points
        reached = side_thirds >= SACK_THIRDS[premium.type]
        if reached != premium.made:
            raise invalid(
                f"{path}made",
                gettext_noop("{side} has {points}, so {premium} ({needed}) was made")
                if reached
                else gettext_noop("{side} has {points}, so {premium} ({needed}) failed"),
                side=Line(SIDE_CHOICE_LABELS[premium.side]),
                points=thirds_text(side_thirds),
                premium=label,
                needed=thirds_text(SACK_THIRDS[premium.type]),
            )


def _check_valat(hand: KoenigrufenHand, valat: Valat, options: KoenigrufenOptions) -> None:
    if not valat.announced and not valat.made:
        raise invalid("valat.made", gettext_noop("a silent Valat is recorded only when made"))
    if valat.kontra and not valat.announced:
        raise invalid("valat.kontra", gettext_noop("only an announced Valat can be kontra'd"))
    if hand.renonce:
        return
    if valat.made and hand.points is not None:
        won = hand.points >= options.threshold
        if valat.side is Side.DECLARER and not won:
            raise invalid(
                "points",
                gettext_noop(
                    "the declarer's side took every trick (Valat), so it won the game: at least {need} (got {got})"
                ),
                need=thirds_text(options.threshold),
                got=thirds_text(hand.points),
            )
        if valat.side is Side.OPPONENTS and won:
            raise invalid(
                "points",
                gettext_noop(
                    "the opponents took every trick (Valat), so the declarer's side lost: below {need} (got {got})"
                ),
                need=thirds_text(options.threshold),
                got=thirds_text(hand.points),
            )
    for index, premium in enumerate(hand.premiums, 1):
        if valat.made and premium.made and premium.type in TRICK_PREMIUMS and premium.side is not valat.side:
            raise invalid(
                f"premiums[{index}].made",
                gettext_noop("the other side took every trick (Valat), so it cannot make {premium}"),
                premium=Line(PREMIUM_LABEL[premium.type]),
            )
        if (
            options.tariff is Tariff.WTC_2020
            and valat.announced
            and premium.announced
            and premium.side is valat.side
            and premium.type in HOLDING_PREMIUMS
        ):
            raise invalid(
                f"premiums[{index}].announced",
                gettext_noop(
                    "Wiener Tarockcup: the side that announces a Valat cannot also announce {premium}"
                ),
                premium=Line(PREMIUM_LABEL[premium.type]),
            )


# --------------------------------------------------------------------------
# Writing a hand back


def dump_hand(hand: KoenigrufenHand) -> dict[str, Any]:
    """A hand as the session file writes it, defaults left out."""
    out: dict[str, Any] = {"declarer": hand.declarer, "game": hand.game.value}
    if hand.bird is not None and hand.game not in BIRD_CALLERS:
        out["bird"] = hand.bird.value
    if hand.partner is not None:
        out["partner"] = hand.partner
    if hand.king_in_talon is not None:
        out["king_in_talon"] = hand.king_in_talon.value
    if hand.each is not None:
        out["points"] = {name: thirds_json(value) for name, value in hand.each.items()}
    elif hand.points is not None:
        out["points"] = thirds_json(hand.points)
    if hand.won is not None:
        out["won"] = hand.won
    if hand.opponent_kontra:
        out["kontra"] = dict(hand.opponent_kontra)
    elif hand.kontra:
        out["kontra"] = hand.kontra
    if hand.premiums:
        out["premiums"] = [_dump_item({"type": p.type.value}, p) for p in hand.premiums]
    if hand.valat is not None:
        out["valat"] = _dump_item({}, hand.valat)
    if len(hand.renonce) == 1:
        out["renonce"] = hand.renonce[0]
    elif hand.renonce:
        out["renonce"] = list(hand.renonce)
    return out


def _dump_item(out: dict[str, Any], item: Premium | Valat) -> dict[str, Any]:
    out["side"] = item.side.value
    if item.announced:
        out["announced"] = True
    if not item.made:
        out["made"] = False
    if item.kontra:
        out["kontra"] = item.kontra
    return out
