"""Building and checking an Illustriertes hand: a played hand, its premiums, valat and
Mondfang, and a Trischaken (docs/rules.md §2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .illustrated_rules import (
    ALL_PASS,
    ANNOUNCED_LABEL,
    CANNOT_FAIL,
    DECLARER_ONLY,
    GAME_LABEL,
    NO_TRICK,
    PLAYED_FIELDS,
    POINT_PREMIUMS,
    PREMIUM_LABEL,
    PROFILE_LABEL,
    TALON,
    TALON_TAKEN,
    TOTAL,
    UHU,
    ULTIMOS,
    AllPass,
    Announced,
    Bid,
    CardCount,
    Game,
    IllustratedHand,
    IllustratedOptions,
    Mondfang,
    Premium,
    PremiumType,
    Profile,
    TrischakenHand,
    Valat,
    ValatBy,
    announcement_levels,
    card_points,
    premium_types,
    valat_levels,
)
from .schema import label_at
from .types import Line, Table, gettext_noop, invalid, labels, names

# --------------------------------------------------------------------------
# Building and checking a played hand


def build_played(values: Mapping[str, Any], table: Table, options: IllustratedOptions) -> IllustratedHand:
    points = values["points"]
    valat = values["valat"]
    mondfang = values["mondfang"]
    hand = IllustratedHand(
        declarer=values["declarer"],
        game=Game(values["game"]),
        bid=Bid(values["bid"]),
        points=None if points is None else int(points),
        kontra=values["kontra"],
        premiums=tuple(
            Premium(
                type=PremiumType(p["type"]),
                player=p["player"],
                announced=Announced(p["announced"]),
                made=p["made"],
                kontra=p["kontra"],
            )
            for p in values["premiums"]
        ),
        valat=None
        if valat is None
        else Valat(ValatBy(valat["by"]), Announced(valat["announced"]), valat["made"], valat["kontra"]),
        talon_rest=int(values["talon_rest"]),
        mondfang=None if mondfang is None else Mondfang(mondfang["captured_by"], mondfang["played_by"]),
        renonce=values["renonce"],
    )
    check_played(hand, table, options)
    return hand


def max_talon_rest(game: Game) -> int:
    """The most the talon cards the declarer leaves can count (all worth 5)."""
    left = TALON - TALON_TAKEN[game]
    return card_points(CardCount(fives=left)) if left else 0


def check_played(hand: IllustratedHand, table: Table, options: IllustratedOptions) -> None:
    """The cross-field rules of docs/rules.md §2.2–2.7; each refusal names its field."""
    if hand.points is None and hand.renonce is None:
        raise invalid("points", gettext_noop("missing (only a renonce hand may leave out the points)"))
    most = max_talon_rest(hand.game)
    if hand.talon_rest > most:
        raise invalid(
            "talon_rest",
            gettext_noop("in a {game} {left} talon cards are left: at most {most} points (got {got})"),
            game=GAME_LABEL[hand.game],
            left=TALON - TALON_TAKEN[hand.game],
            most=most,
            got=hand.talon_rest,
        )
    if hand.points is not None and hand.points + hand.talon_rest > TOTAL:
        raise invalid(
            "talon_rest",
            gettext_noop(
                "the declarer's {points} points and the talon's {rest} add up to more than 70; "
                "at most {most} here"
            ),
            points=hand.points,
            rest=hand.talon_rest,
            most=TOTAL - hand.points,
        )
    for index, premium in enumerate(hand.premiums, 1):
        check_premium(hand, premium, f"premiums[{index}].", options)
    check_premium_combinations(hand)
    if hand.valat is not None:
        check_valat(hand, hand.valat, options)
    if hand.mondfang is not None:
        check_mondfang(hand, hand.mondfang, table, options)


def check_premium(hand: IllustratedHand, premium: Premium, path: str, options: IllustratedOptions) -> None:
    label = PREMIUM_LABEL[premium.type]
    known = premium_types(options)
    if premium.type not in known:
        if premium.type is PremiumType.UHU:
            text = gettext_noop("Uhu counts only with the house rule “{rule}”; premiums here: {allowed}")
        else:
            text = gettext_noop("the Graz rules have no Vierzig; premiums here: {allowed}")
        raise invalid(
            f"{path}type", text, rule=Line(UHU.label), allowed=labels(PREMIUM_LABEL[t] for t in known)
        )
    if premium.type in DECLARER_ONLY and premium.player != hand.declarer:
        raise invalid(
            f"{path}player",
            gettext_noop("only the declarer ({declarer}) can score {premium}"),
            declarer=hand.declarer,
            premium=label,
        )
    levels = announcement_levels(premium.type, options.profile)
    if premium.announced not in levels:
        raise invalid(
            f"{path}announced",
            gettext_noop("under the {profile} rules {premium} may be announced: {allowed} (got {got})"),
            profile=Line(PROFILE_LABEL[options.profile]),
            premium=Line(label),
            allowed=labels(ANNOUNCED_LABEL[level] for level in levels),
            got=Line(ANNOUNCED_LABEL[premium.announced]),
        )
    if premium.kontra:
        if options.profile is Profile.BECK:
            raise invalid(
                f"{path}kontra",
                gettext_noop(
                    "under the Beck rules a premium has no Kontra of its own: the Kontra on the game doubles it"
                ),
            )
        if premium.announced is Announced.SILENT:
            raise invalid(
                f"{path}kontra",
                gettext_noop("a silent premium cannot be kontra'd"),
            )
    if premium.type in CANNOT_FAIL and not premium.made:
        raise invalid(
            f"{path}made",
            gettext_noop("{premium} cannot fail: it is recorded only when held"),
            premium=Line(label),
        )
    if premium.type in POINT_PREMIUMS and hand.renonce is None and hand.points is not None:
        needed = POINT_PREMIUMS[premium.type]
        reached = hand.points >= needed
        if premium.made != reached:
            text = (
                gettext_noop("the declarer has {points} points, so {premium} ({needed}) was made")
                if reached
                else gettext_noop("the declarer has {points} points, so {premium} ({needed}) failed")
            )
            raise invalid(f"{path}made", text, points=hand.points, premium=Line(label), needed=needed)
    valat = hand.valat
    if (
        premium.type in ULTIMOS
        and premium.made
        and valat is not None
        and valat.made
        and hand.renonce is None
        and (premium.player == hand.declarer) != (valat.by is ValatBy.DECLARER)
    ):
        raise invalid(
            f"{path}made",
            gettext_noop("the other side took every trick (valat), so {player} cannot make {premium}"),
            player=premium.player,
            premium=label,
        )


def check_premium_combinations(hand: IllustratedHand) -> None:
    """Each premium once per hand, and no two premiums that the cards rule out together."""
    first: dict[PremiumType, int] = {}
    for index, premium in enumerate(hand.premiums, 1):
        path = f"premiums[{index}].type"
        label = PREMIUM_LABEL[premium.type]
        if premium.type in first:
            raise invalid(
                path,
                gettext_noop("{premium} is already listed ({row}); it counts once per hand"),
                premium=Line(label),
                row=label_at(PLAYED_FIELDS, f"premiums[{first[premium.type]}]") or Line(""),
            )
        first[premium.type] = index
        clash = _ruled_out_by(hand.declarer, premium, hand.premiums[: index - 1])
        if clash is not None:
            raise invalid(
                path,
                gettext_noop("{premium} and {other} cannot both be held in one deal"),
                premium=label,
                other=PREMIUM_LABEL[clash],
            )


# Premiums whose cards the declarer cannot hold together with an Ohne ….
OHNE_EXCLUDES = {
    PremiumType.OHNE_KOENIGE: frozenset({PremiumType.KOENIGSTRULL}),
    PremiumType.OHNE_TRULL: frozenset({PremiumType.TAROCKTRULL, PremiumType.KOEPFE, PremiumType.PAGAT}),
}
TRULL_HOLDINGS = frozenset({PremiumType.TAROCKTRULL, PremiumType.KOEPFE})


def _ruled_out_by(declarer: str, premium: Premium, listed: Sequence[Premium]) -> PremiumType | None:
    """An earlier premium whose cards exclude those behind ``premium``: all three
    Trull cards cannot be in one hand while two are in another (or counted twice),
    and the declarer's Ohne … excludes his holding those cards."""
    earlier = {p.type: p for p in listed}
    if premium.type in TRULL_HOLDINGS:
        for other in TRULL_HOLDINGS - {premium.type}:
            if other in earlier:
                return other
    for ohne, holdings in OHNE_EXCLUDES.items():
        if premium.type is ohne:
            for other in holdings:
                if other in earlier and earlier[other].player == declarer:
                    return other
        elif premium.type in holdings and premium.player == declarer and ohne in earlier:
            return ohne
    return None


def check_valat(hand: IllustratedHand, valat: Valat, options: IllustratedOptions) -> None:
    if valat.announced is Announced.SILENT and not valat.made:
        raise invalid(
            "valat.made",
            gettext_noop("a silent valat is recorded only when made"),
        )
    levels = valat_levels(options.profile)
    if valat.announced not in levels:
        raise invalid(
            "valat.announced",
            gettext_noop("under the {profile} rules a valat may be announced: {allowed} (got {got})"),
            profile=Line(PROFILE_LABEL[options.profile]),
            allowed=labels(ANNOUNCED_LABEL[level] for level in levels),
            got=Line(ANNOUNCED_LABEL[valat.announced]),
        )
    if valat.kontra:
        if options.profile is Profile.BECK:
            raise invalid(
                "valat.kontra",
                gettext_noop(
                    "under the Beck rules the valat has no Kontra of its own: the Kontra on the game doubles it"
                ),
            )
        if valat.announced is Announced.SILENT:
            raise invalid("valat.kontra", gettext_noop("a silent valat cannot be kontra'd"))
    if not valat.made or hand.renonce is not None or hand.points is None:
        return
    if valat.by is ValatBy.DECLARER:
        expected = TOTAL - hand.talon_rest
        if hand.points != expected:
            raise invalid(
                "points",
                gettext_noop(
                    "the declarer took every trick (valat): his points are 70 less the points "
                    "left in the talon ({rest}): {expected} (got {got})"
                ),
                rest=hand.talon_rest,
                expected=expected,
                got=hand.points,
            )
        return
    # The declarer took no trick: all he has is his own discard (docs/rules.md §2.6).
    low, high = discard_points(hand.game)
    if not low <= hand.points <= high:
        if high == 0:
            text = gettext_noop(
                "the opponents took every trick (valat) and a {game} has no discard: points must be 0 (got {got})"
            )
        else:
            text = gettext_noop(
                "the opponents took every trick (valat): the declarer's points are his discard of "
                "{cards} in this {game}, from {low} to {high} (got {got})"
            )
        raise invalid(
            "points",
            text,
            game=GAME_LABEL[hand.game],
            cards=discard_cards(hand.game),
            low=low,
            high=high,
            got=hand.points,
        )


def discard_cards(game: Game) -> Line:
    """``3 cards``: how many the declarer discards, as many as he took from the talon."""
    cards = TALON_TAKEN[game]
    return Line(gettext_noop("{n} card") if cards == 1 else gettext_noop("{n} cards"), {"n": cards})


def discard_points(game: Game) -> tuple[int, int]:
    """The fewest and the most points the declarer's discard can count (docs/rules.md §2.1, 2.6):
    as many cards as he took from the talon, all plain cards or all worth 5."""
    cards = TALON_TAKEN[game]
    return card_points(CardCount(others=cards)), card_points(CardCount(fives=cards))


def check_mondfang(
    hand: IllustratedHand, mondfang: Mondfang, table: Table, options: IllustratedOptions
) -> None:
    if options.profile is not Profile.GRAZ:
        raise invalid("mondfang", gettext_noop("a Mondfang counts only under the Graz rules"))
    if mondfang.captured_by == mondfang.played_by:
        raise invalid(
            "mondfang.played_by",
            gettext_noop("the XXI and the Sküs were played by two players; not {player} twice"),
            player=mondfang.played_by,
        )
    valat = hand.valat
    if valat is not None and valat.made and hand.renonce is None:
        # The other side took no trick, so it cannot have taken the XXI (docs/rules.md §2.5).
        side = (
            (hand.declarer,)
            if valat.by is ValatBy.DECLARER
            else tuple(p for p in table.players if p != hand.declarer)
        )
        if mondfang.captured_by not in side:
            raise invalid(
                "mondfang.captured_by",
                gettext_noop(
                    "the side that made the valat took every trick, so the XXI was taken by one of "
                    "{allowed} (got {got})"
                ),
                allowed=names(side),
                got=mondfang.captured_by,
            )
    for index, premium in enumerate(hand.premiums, 1):
        holds_both = premium.type is PremiumType.TAROCKTRULL
        holds_neither = premium.type is PremiumType.OHNE_TRULL and hand.declarer in (
            mondfang.captured_by,
            mondfang.played_by,
        )
        if holds_both or holds_neither:
            raise invalid(
                "mondfang",
                gettext_noop("{row} ({premium} of {player}) rules out this Mondfang"),
                row=label_at(PLAYED_FIELDS, f"premiums[{index}]") or Line(""),
                premium=Line(PREMIUM_LABEL[premium.type]),
                player=premium.player,
            )


# --------------------------------------------------------------------------
# Building and checking a Trischaken hand


def check_trischaken_allowed(options: IllustratedOptions) -> None:
    if options.all_pass is not AllPass.TRISCHAKEN:
        labels = ALL_PASS.choice_labels
        raise invalid(
            "type",
            gettext_noop("a Trischaken hand needs the house rule “{rule}: {value}” (this session: {got})"),
            rule=Line(ALL_PASS.label),
            value=Line(labels[AllPass.TRISCHAKEN]),
            got=Line(labels[options.all_pass]),
        )


def trischaken_total() -> tuple[int, int]:
    """What the three players' points add up to in a Trischaken (docs/rules.md §2.8): all
    but the untouched talon, whose six cards hold 2 (all plain) to 26 (all worth 5)."""
    return TOTAL - card_points(CardCount(fives=TALON)), TOTAL - card_points(CardCount(others=TALON))


def build_trischaken(values: Mapping[str, Any], options: IllustratedOptions) -> TrischakenHand:
    check_trischaken_allowed(options)
    hand = TrischakenHand(
        points={name: int(value) for name, value in values["points"].items()},
        no_trick=tuple(values["no_trick"]),
    )
    for index, name in enumerate(hand.no_trick, 1):
        if hand.points[name]:
            raise invalid(
                f"no_trick[{index}]",
                gettext_noop("{player} has {points} points, so took a trick; a player without a trick has 0"),
                player=name,
                points=hand.points[name],
            )
    if len(hand.no_trick) == len(hand.points):
        raise invalid(
            "no_trick", gettext_noop("someone took the tricks: at most {n} players"), n=len(hand.points) - 1
        )
    for name, points in hand.points.items():
        if points == 0 and name not in hand.no_trick:
            # Every trick counts at least 1 point by threes, so 0 points means no trick.
            raise invalid(
                f"points.{name}",
                gettext_noop("{player} has 0 points, so took no trick: add {player} to “{where}”"),
                player=name,
                where=Line(NO_TRICK.label),
            )
    total = sum(hand.points.values())
    low, high = trischaken_total()
    if not low <= total <= high:
        raise invalid(
            "points",
            gettext_noop(
                "the talon is not played and holds {talon_low} to {talon_high} points, so the three "
                "players' points add up to {low} to {high} (got {got})"
            ),
            talon_low=TOTAL - high,
            talon_high=TOTAL - low,
            low=low,
            high=high,
            got=total,
        )
    return hand
