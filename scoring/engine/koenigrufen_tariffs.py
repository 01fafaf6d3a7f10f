"""Königrufen's games, premiums and tariff sets, one per cup, with the Trischaken schemes
(docs/rules.md §4.3–4.4): the data the rest of the game reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from .types import gettext_noop

# --------------------------------------------------------------------------
# The games


class Game(StrEnum):
    TRISCHAKEN = "trischaken"
    RUFER = "rufer"
    PICCOLO = "piccolo"
    ZWICCOLO = "zwiccolo"
    BETTEL = "bettel"
    SOLORUFER = "solorufer"
    BESSERRUFER = "besserrufer"
    PAGATRUFER = "pagatrufer"
    UHURUFER = "uhurufer"
    KAKADURUFER = "kakadurufer"
    QUAPILRUFER = "quapilrufer"
    FARBENDREIER = "farbendreier"
    SECHSERDREIER = "sechserdreier"
    DREIER = "dreier"
    FARBENSOLO = "farbensolo"
    PICCOLO_OUVERT = "piccolo_ouvert"
    ZWICCOLO_OUVERT = "zwiccolo_ouvert"
    BETTEL_OUVERT = "bettel_ouvert"
    SOLODREIER = "solodreier"


GAME_LABEL = {
    Game.TRISCHAKEN: gettext_noop("Trischaken"),
    Game.RUFER: gettext_noop("Rufer"),
    Game.PICCOLO: gettext_noop("Piccolo"),
    Game.ZWICCOLO: gettext_noop("Zwiccolo"),
    Game.BETTEL: gettext_noop("Bettel"),
    Game.SOLORUFER: gettext_noop("Solorufer"),
    Game.BESSERRUFER: gettext_noop("Besserrufer"),
    Game.PAGATRUFER: gettext_noop("Pagatrufer"),
    Game.UHURUFER: gettext_noop("Uhurufer"),
    Game.KAKADURUFER: gettext_noop("Kakadurufer"),
    Game.QUAPILRUFER: gettext_noop("Quapilrufer"),
    Game.FARBENDREIER: gettext_noop("Farbendreier"),
    Game.SECHSERDREIER: gettext_noop("Sechserdreier"),
    Game.DREIER: gettext_noop("Dreier"),
    Game.FARBENSOLO: gettext_noop("Farbensolo"),
    Game.PICCOLO_OUVERT: gettext_noop("Piccolo ouvert"),
    Game.ZWICCOLO_OUVERT: gettext_noop("Zwiccolo ouvert"),
    Game.BETTEL_OUVERT: gettext_noop("Bettel ouvert"),
    Game.SOLODREIER: gettext_noop("Solodreier"),
}


class Bird(StrEnum):
    PAGAT = "pagat"
    UHU = "uhu"
    KAKADU = "kakadu"
    QUAPIL = "quapil"


class PremiumType(StrEnum):
    TRULL = "trull"
    VIER_KOENIGE = "vier_koenige"
    PAGAT = "pagat"
    UHU = "uhu"
    KAKADU = "kakadu"
    QUAPIL = "quapil"
    KOENIG_ULTIMO = "koenig_ultimo"
    MONDFANG = "mondfang"
    SACK_1 = "sack_1"
    SACK_2 = "sack_2"


PREMIUM_LABEL = {
    PremiumType.TRULL: gettext_noop("Trull"),
    PremiumType.VIER_KOENIGE: gettext_noop("Vier Könige"),
    PremiumType.PAGAT: gettext_noop("Pagat"),
    PremiumType.UHU: gettext_noop("Uhu"),
    PremiumType.KAKADU: gettext_noop("Kakadu"),
    PremiumType.QUAPIL: gettext_noop("Quapil"),
    PremiumType.KOENIG_ULTIMO: gettext_noop("König ultimo"),
    PremiumType.MONDFANG: gettext_noop("Mondfang"),
    PremiumType.SACK_1: gettext_noop("1. Sack"),
    PremiumType.SACK_2: gettext_noop("2. Sack"),
}
BIRD_LABEL = {bird: PREMIUM_LABEL[PremiumType(bird.value)] for bird in Bird}


class KingInTalon(StrEnum):
    PLAYED = "played"
    CONCEDED = "conceded"


class Tariff(StrEnum):
    OOE_2023 = "ooe_2023"
    SAUWALD_2019 = "sauwald_2019"
    WTC_2020 = "wtc_2020"
    TIROL_2020 = "tirol_2020"
    TAROCKAPP = "tarockapp"


class Scheme(StrEnum):
    """How a Trischaken is paid (docs/rules.md §4.13)."""

    OOE = "ooe"
    SAUWALD = "sauwald"
    WTC = "wtc"
    TIROL = "tirol"
    TAROCKAPP = "tarockapp"


class ValatModel(StrEnum):
    MULTIPLIER = "multiplier"  # the Valat replaces the game item: game value × 4 / × 8
    FIXED = "fixed"  # the Valat is a premium worth 10 / 20 beside the game item


class WinThreshold(StrEnum):
    P35_2 = "35/2"
    P35_1 = "35/1"


THRESHOLD_THIRDS = {WinThreshold.P35_2: 107, WinThreshold.P35_1: 106}

BIRD_CALLERS = {
    Game.PAGATRUFER: Bird.PAGAT,
    Game.UHURUFER: Bird.UHU,
    Game.KAKADURUFER: Bird.KAKADU,
    Game.QUAPILRUFER: Bird.QUAPIL,
}
BIRD_GAMES = frozenset({Game.BESSERRUFER, *BIRD_CALLERS})
RUFER_GAMES = frozenset({Game.RUFER, Game.SOLORUFER, *BIRD_GAMES})
SOLO_GAMES = frozenset({Game.SOLORUFER, Game.SOLODREIER, Game.FARBENSOLO})
FARBENSPIELE = frozenset({Game.FARBENDREIER, Game.FARBENSOLO})
NEGATIVE_GAMES = frozenset(
    {
        Game.PICCOLO,
        Game.ZWICCOLO,
        Game.BETTEL,
        Game.PICCOLO_OUVERT,
        Game.ZWICCOLO_OUVERT,
        Game.BETTEL_OUVERT,
    }
)
POSITIVE_GAMES = frozenset(Game) - NEGATIVE_GAMES - {Game.TRISCHAKEN}
BIRDS = frozenset({PremiumType.PAGAT, PremiumType.UHU, PremiumType.KAKADU, PremiumType.QUAPIL})
# What a silent premium that failed can be: played in its trick and the trick lost.
MAY_FAIL_SILENT = BIRDS | {PremiumType.KOENIG_ULTIMO}
# Made by taking tricks: the side without a trick (beside a made Valat) cannot make them.
TRICK_PREMIUMS = BIRDS | {PremiumType.KOENIG_ULTIMO, PremiumType.MONDFANG}
FARBENSPIEL_PREMIUMS = frozenset({PremiumType.VIER_KOENIGE, PremiumType.SACK_1, PremiumType.SACK_2})
# The Säcke: a side reaches 45/2 / 55/2.
SACK_THIRDS = {PremiumType.SACK_1: 137, PremiumType.SACK_2: 167}
HOLDING_PREMIUMS = frozenset({PremiumType.TRULL, PremiumType.VIER_KOENIGE})

PREMIUM_VALUES: dict[PremiumType, tuple[int, int]] = {
    PremiumType.PAGAT: (1, 2),
    PremiumType.UHU: (2, 4),
    PremiumType.KAKADU: (3, 6),
    PremiumType.QUAPIL: (4, 8),
    PremiumType.KOENIG_ULTIMO: (1, 2),
    PremiumType.TRULL: (1, 2),
    PremiumType.VIER_KOENIGE: (1, 2),
}
TIROL_EXTRAS: dict[PremiumType, tuple[int, int]] = {
    PremiumType.MONDFANG: (1, 2),
    PremiumType.SACK_1: (1, 2),
    PremiumType.SACK_2: (1, 2),
}
VALAT_MULTIPLIERS = (4, 8)
VALAT_FIXED = (10, 20)


class BesideValat(StrEnum):
    """Which premiums count beside a Valat (docs/rules.md §4.9)."""

    ANNOUNCED_ONLY = "announced_only"  # multiplier sets: announced ones only
    WTC = "wtc"  # all except silent Trull and silent Vier Könige
    TIROL = "tirol"  # birds, König ultimo, Mondfang; no Trull, Vier Könige, Säcke


@dataclass(frozen=True)
class TariffSet:
    """One cup's values (docs/rules.md §4.4): game values per opponent, in the table's order."""

    label: str
    games: Mapping[Game, int]
    valat: ValatModel
    beside_valat: BesideValat
    silent_valat_voids_kontra: bool
    extras: Mapping[PremiumType, tuple[int, int]]
    scheme: Scheme


TARIFFS: dict[Tariff, TariffSet] = {
    Tariff.OOE_2023: TariffSet(
        gettext_noop("OÖ 4/2023"),
        {
            Game.TRISCHAKEN: 1,
            Game.RUFER: 1,
            Game.PICCOLO: 2,
            Game.BETTEL: 2,
            Game.SOLORUFER: 2,
            Game.BESSERRUFER: 1,
            Game.FARBENDREIER: 3,
            Game.SECHSERDREIER: 4,
            Game.DREIER: 4,
            Game.FARBENSOLO: 6,
            Game.PICCOLO_OUVERT: 6,
            Game.BETTEL_OUVERT: 7,
            Game.SOLODREIER: 8,
        },
        ValatModel.MULTIPLIER,
        BesideValat.ANNOUNCED_ONLY,
        False,
        {},
        Scheme.OOE,
    ),
    Tariff.SAUWALD_2019: TariffSet(
        gettext_noop("Sauwald 2019"),
        {
            Game.TRISCHAKEN: 1,
            Game.RUFER: 1,
            Game.PICCOLO: 2,
            Game.BETTEL: 2,
            Game.SOLORUFER: 2,
            Game.BESSERRUFER: 1,
            Game.SECHSERDREIER: 4,
            Game.DREIER: 4,
            Game.FARBENSOLO: 5,
            Game.PICCOLO_OUVERT: 6,
            Game.BETTEL_OUVERT: 7,
            Game.SOLODREIER: 8,
        },
        ValatModel.MULTIPLIER,
        BesideValat.ANNOUNCED_ONLY,
        False,
        {},
        Scheme.SAUWALD,
    ),
    Tariff.WTC_2020: TariffSet(
        gettext_noop("Wiener Tarockcup 2020"),
        {
            Game.TRISCHAKEN: 2,
            Game.RUFER: 1,
            Game.PICCOLO: 2,
            Game.ZWICCOLO: 2,
            Game.BETTEL: 4,
            Game.SOLORUFER: 2,
            Game.PAGATRUFER: 1,
            Game.UHURUFER: 1,
            Game.KAKADURUFER: 1,
            Game.QUAPILRUFER: 1,
            Game.FARBENDREIER: 5,
            Game.SECHSERDREIER: 4,
            Game.DREIER: 5,
            Game.FARBENSOLO: 10,
            Game.PICCOLO_OUVERT: 6,
            Game.ZWICCOLO_OUVERT: 6,
            Game.BETTEL_OUVERT: 8,
            Game.SOLODREIER: 10,
        },
        ValatModel.FIXED,
        BesideValat.WTC,
        True,
        {},
        Scheme.WTC,
    ),
    Tariff.TIROL_2020: TariffSet(
        gettext_noop("Tiroler Tarockcup 2020"),
        {
            Game.TRISCHAKEN: 2,
            Game.RUFER: 1,
            Game.PICCOLO: 2,
            Game.BETTEL: 4,
            Game.SOLORUFER: 2,
            Game.BESSERRUFER: 1,
            Game.FARBENDREIER: 5,
            Game.SECHSERDREIER: 4,
            Game.DREIER: 5,
            Game.FARBENSOLO: 10,
            Game.PICCOLO_OUVERT: 8,
            Game.ZWICCOLO_OUVERT: 8,
            Game.BETTEL_OUVERT: 8,
            Game.SOLODREIER: 10,
        },
        ValatModel.FIXED,
        BesideValat.TIROL,
        False,
        TIROL_EXTRAS,
        Scheme.TIROL,
    ),
    Tariff.TAROCKAPP: TariffSet(
        gettext_noop("tarockapp.at"),
        {
            Game.TRISCHAKEN: 1,
            Game.RUFER: 1,
            Game.PICCOLO: 1,
            Game.ZWICCOLO: 1,
            Game.BETTEL: 3,
            Game.SOLORUFER: 2,
            Game.BESSERRUFER: 1,
            Game.FARBENDREIER: 4,
            Game.SECHSERDREIER: 3,
            Game.DREIER: 4,
            Game.FARBENSOLO: 8,
            Game.PICCOLO_OUVERT: 5,
            Game.BETTEL_OUVERT: 7,
            Game.SOLODREIER: 8,
        },
        ValatModel.MULTIPLIER,
        BesideValat.ANNOUNCED_ONLY,
        False,
        {},
        Scheme.TAROCKAPP,
    ),
}
TARIFF_LABEL = {tariff: tariff_set.label for tariff, tariff_set in TARIFFS.items()}
SCHEME_LABEL = {
    Scheme.OOE: gettext_noop("OÖ"),
    Scheme.SAUWALD: gettext_noop("Sauwald"),
    Scheme.WTC: gettext_noop("Wiener Tarockcup"),
    Scheme.TIROL: gettext_noop("Tirol"),
    Scheme.TAROCKAPP: gettext_noop("tarockapp.at"),
}
