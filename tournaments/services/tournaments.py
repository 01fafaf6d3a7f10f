"""A tournament day as the organiser runs it: creating it with its settings
(``TOURNAMENTS.md`` §1.1, §11), who may run it, the audit, and its way from
provisional to final (§4.4).

Every writing function is keyword-only, runs in one transaction and locks the
tournament's row first (``locked``), so two organisers' clicks never interleave.
A refusal raises ``InvalidInput`` naming the field before anything is written.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_CEILING, Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext_noop

from club.models import Group
from scoring import services as scoring
from scoring.engine import InvalidInput
from scoring.engine.registry import terms_of
from scoring.engine.schema import clean, name_problem
from scoring.engine.types import invalid
from scoring.engine.variant import TournamentTerms
from scoring.games import for_tournaments, registry
from scoring.services import options_json
from tournaments.models import Cup, Round, TableRound, Tournament, TournamentChange
from tournaments.services import cups


def games() -> tuple[str, ...]:
    """The games a tournament is offered for (§10), by key, the default first: the registry's."""
    return tuple(for_tournaments())


def terms(variant: str) -> TournamentTerms:
    """What a tournament of ``variant`` needs of its game (``KeyError`` for a game not offered)."""
    return terms_of(for_tournaments()[variant])


def forced_options(variant: str) -> dict[str, Any]:
    """The house rules a tournament of the game never changes (§1.1): name → value."""
    return terms(variant).fixed_options()


MOST_ROUNDS = 10
MOST_HANDS = 60
NAME_LENGTH = 80
REASON_LENGTH = 200

CHOICES: dict[str, tuple[str, ...]] = {
    "kontra_cash": ("per_hand", "with_round", "charity"),
    "late_entry": ("before_round_1", "any_round"),
    "withdrawn": ("ranked", "below_finishers"),
    "short_field": ("filler", "bye"),
    "draw_timing": ("upfront", "per_round"),
    "avoid_repeats": ("minimise", "off"),
    "table_seating": ("slip", "at_table"),
    "last_round": ("drawn", "by_standings"),
    "signoff": ("scorer_and_check", "scorer", "organiser"),
}
TIE_PRESETS = ("better_rounds", "tirol_2019")
TIE_CRITERIA = ("rounds_desc", "best_round", "table_ranks", "lots", "shared")


def defaults(variant: str) -> dict[str, Any]:
    """Every setting of §11 with its default for the game (French per §10)."""
    game = terms(variant)
    return {
        "rounds": game.rounds,
        "hands_at_four": game.hands,
        "hands_at_five": hands_at_five(game.hands),
        "entry_fee": None,
        "kontra_cash": "per_hand" if game.kontra_cash else None,
        "late_entry": "before_round_1",
        "withdrawn": "ranked",
        "short_field": "filler",
        "draw_timing": "upfront",
        "avoid_repeats": "minimise",
        "table_seating": "slip",
        "last_round": "drawn",
        "signoff": "scorer_and_check",
        "round_minutes": None,
        "complaint_minutes": 15,
        "tie_break": "better_rounds",
        "rank_points": None,
        "prizes": [],
        "prize_raffle": False,
    }


def default_money_rate(variant: str) -> Decimal | None:
    return terms(variant).money_rate


def hands_at_five(hands_at_four: int) -> int:
    """A five-table plays as many hands per player as a four-table: × 5/4, rounded up."""
    return int((Decimal(hands_at_four) * 5 / 4).to_integral_value(rounding=ROUND_CEILING))


# -- checking what was given ---------------------------------------------------------------


def _whole(key: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise invalid(key, gettext_noop("a whole number from {low} to {high}"), low=low, high=high)
    return value


def _choice(key: str, value: Any) -> str:
    if value not in CHOICES[key]:
        raise invalid(key, gettext_noop("one of: {allowed}"), allowed=", ".join(CHOICES[key]))
    return str(value)


def _minutes(key: str, value: Any, least: int = 1) -> int | None:
    return None if value is None else _whole(key, value, least, 600)


def _amount(key: str, value: Any) -> str | None:
    """An amount of money as a decimal string with cents, or None."""
    if value is None or value == "":
        return None
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        amount = Decimal(-1)
    if not amount.is_finite() or amount < 0 or amount >= 100000:
        raise invalid(key, gettext_noop("empty, or an amount from 0 to 99999.99"))
    return str(amount.quantize(Decimal("0.01")))


def _tie_break(value: Any) -> str | list[str]:
    if isinstance(value, str) and value in TIE_PRESETS:
        return value
    if (
        isinstance(value, list)
        and value
        and all(isinstance(v, str) and v in TIE_CRITERIA for v in value)
        and len(set(value)) == len(value)
    ):
        return list(value)
    allowed = ", ".join((*TIE_PRESETS, *TIE_CRITERIA))
    raise invalid("tie_break", gettext_noop("a preset or a list of criteria: {allowed}"), allowed=allowed)


def _rank_points(value: Any) -> list[int] | None:
    if value is None or value == []:
        return None
    if (
        isinstance(value, list)
        and len(value) <= 5
        and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in value)
    ):
        return list(value)
    raise invalid(
        "rank_points", gettext_noop("empty, or up to 5 whole numbers from 0 to 1000, one per table rank")
    )


def _prizes(value: Any) -> list[dict[str, Any]]:
    """Prizes as [{"from": 1, "to": 1, "text": "", "amount": "120.00"}, …], places rising, not overlapping."""
    if not isinstance(value, list) or len(value) > 100:
        raise invalid("prizes", gettext_noop("a list of at most 100 prizes"))
    prizes, last = [], 0
    for prize in value:
        if not isinstance(prize, Mapping) or set(prize) - {"from", "to", "text", "amount"}:
            raise invalid("prizes", gettext_noop("each prize: places, a text and/or an amount"))
        low, high = prize.get("from"), prize.get("to", prize.get("from"))
        if not isinstance(low, int) or not isinstance(high, int) or not last < low <= high <= 400:
            raise invalid("prizes", gettext_noop("places from 1 to 400, rising, each place once"))
        text = str(prize.get("text") or "").strip()
        amount = _amount("prizes", prize.get("amount"))
        if (not text and amount is None) or len(text) > 80 or (text and name_problem(text)):
            raise invalid(
                "prizes", gettext_noop("each prize: a text of up to 80 characters and/or an amount")
            )
        prizes.append({"from": low, "to": high, "text": text, "amount": amount})
        last = high
    return prizes


def check_settings(variant: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """Every setting with the value in force: ``given`` over the game's defaults,
    each checked; an unknown key or a value out of range raises ``InvalidInput``."""
    values = defaults(variant)
    unknown = sorted(set(given) - set(values))
    if unknown:
        raise invalid(unknown[0], gettext_noop("not a setting of a tournament"))
    values.update(given)
    if "hands_at_five" not in given and "hands_at_four" in given:
        values["hands_at_five"] = hands_at_five(
            _whole("hands_at_four", given["hands_at_four"], 1, MOST_HANDS)
        )
    checked: dict[str, Any] = {
        "rounds": _whole("rounds", values["rounds"], 1, MOST_ROUNDS),
        "hands_at_four": _whole("hands_at_four", values["hands_at_four"], 1, MOST_HANDS),
        "hands_at_five": _whole("hands_at_five", values["hands_at_five"], 1, MOST_HANDS),
        "entry_fee": _amount("entry_fee", values["entry_fee"]),
        "round_minutes": _minutes("round_minutes", values["round_minutes"]),
        # 0: no window, the ranking can be made final at once (§4.4), as without minutes.
        "complaint_minutes": _minutes("complaint_minutes", values["complaint_minutes"], 0),
        "tie_break": _tie_break(values["tie_break"]),
        "rank_points": _rank_points(values["rank_points"]),
        "prizes": _prizes(values["prizes"]),
        "prize_raffle": bool(values["prize_raffle"]),
    }
    kontra = terms(variant).kontra_cash
    for key in CHOICES:
        if key == "kontra_cash" and not kontra:
            checked[key] = None  # a game without Kontra cash: French Tarot (§10)
        else:
            checked[key] = _choice(key, values[key])
    if (
        "shared" in (checked["tie_break"] if isinstance(checked["tie_break"], list) else [])
        and checked["prizes"]
    ):
        raise invalid("tie_break", gettext_noop("shared places are allowed only without prizes"))
    return checked


def check_options(variant: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The house rules, defaults included; Königrufen's Kontra-free Schrift and
    single rounds forced (a different value given is refused, naming it)."""
    forced = forced_options(variant)
    for key, value in forced.items():
        if key in given and given[key] != value:
            raise invalid(f"options.{key}", gettext_noop("is fixed for a tournament: no"))
    game = registry()[variant]
    values = {**given, **forced}
    shown = {f.name for f in game.option_fields}
    clean(game.option_fields, {k: v for k, v in values.items() if k in shown}, (), "options.")
    try:
        return options_json(game.parse_options(values, ()))  # and what no form shows (game_values, …)
    except InvalidInput as error:
        raise InvalidInput(
            error.field if error.field.startswith("options.") else f"options.{error.field}", error.line
        ) from None


def _name(value: str) -> str:
    value = value.strip()
    if not value or len(value) > NAME_LENGTH:
        raise invalid("name", gettext_noop("a name of 1 to {n} characters"), n=NAME_LENGTH)
    problem = name_problem(value)
    if problem is not None:
        raise InvalidInput("name", problem)
    return value


def _money_rate(value: Decimal | None) -> Decimal | None:
    if value is not None and (not value.is_finite() or value <= 0 or value >= 10000):
        raise invalid("money_rate", gettext_noop("empty, or more than 0 and less than 10000"))
    return value


def new_seed() -> str:
    """A six-digit draw number picked by the server."""
    return f"{secrets.randbelow(1_000_000):06d}"


def check_seed(value: str) -> str:
    value = value.strip()
    if len(value) != 6 or not value.isascii() or not value.isdecimal():
        raise invalid("seed", gettext_noop("six digits, such as 482915"))
    return value


def reason_text(value: str, *, required: bool = True) -> str:
    value = value.strip()
    if (required and not value) or len(value) > REASON_LENGTH or (value and name_problem(value)):
        raise invalid("reason", gettext_noop("a reason of 1 to {n} characters"), n=REASON_LENGTH)
    return value


# -- who may run a tournament --------------------------------------------------------------


def organised_by(user: User) -> QuerySet[Tournament]:
    """The tournaments ``user`` owns or helps to run, not deleted."""
    return (
        Tournament.objects.filter(Q(owner=user) | Q(organisers=user), deleted_at__isnull=True)
        .distinct()
        .order_by("-played_on", "-created_at", "-id")
    )


def tournament_for(user: User, pk: int) -> Tournament:
    """A tournament ``user`` runs (owner or co-organiser); ``DoesNotExist`` for anyone else."""
    return organised_by(user).select_related("cup", "group").get(pk=pk)


def locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked for this transaction (taken first by every writer)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def changed(tournament: Tournament) -> None:
    """Something the pages show changed: a new version (pages and polls compare it),
    and a new results version: an organiser's change may move the ranking."""
    Tournament.objects.filter(pk=tournament.pk).update(
        version=F("version") + 1, results_version=F("results_version") + 1
    )
    tournament.refresh_from_db(fields=["version", "results_version"])
    # The board's and the hall's ranked parts drawn anew once committed, as after a
    # sign-off (``results.bump``): a round released is the moment every phone looks.
    from tournaments.services import hall  # hall reads teams, which reads this module

    transaction.on_commit(lambda: hall.after_change(tournament), robust=True)


def done_already(tournament: Tournament, client_token: str) -> TournamentChange | None:
    """The change a form with this one-time token made already (a double tap, a resend)."""
    if not client_token:
        return None
    return TournamentChange.objects.filter(tournament=tournament, client_token=client_token).first()


def audit(
    tournament: Tournament,
    action: str,
    user: User | None,
    *,
    round_number: int | None = None,
    table_number: int | None = None,
    reason: str = "",
    before: Any = None,
    after: Any = None,
    client_token: str = "",
) -> TournamentChange:
    return TournamentChange.objects.create(
        tournament=tournament,
        action=action,
        user=user,
        round_number=round_number,
        table_number=table_number,
        reason=reason,
        before=before,
        after=after,
        client_token=client_token,
    )


def played(tables: QuerySet[TableRound]) -> QuerySet[TableRound]:
    """Those of ``tables`` with a recorded hand (one not deleted)."""
    return tables.filter(session__hands__isnull=False, session__hands__deleted_at__isnull=True).distinct()


def drawn(tournament: Tournament) -> bool:
    """Whether round 1 is drawn: from then on the settings are fixed."""
    return tournament.rounds.exclude(status=Round.Status.PLANNED).exists()


# -- creating and setting up ---------------------------------------------------------------


def _group(owner: User, group: Group | None) -> Group | None:
    if group is not None and not group.memberships.filter(user=owner).exists():
        raise invalid("group", gettext_noop("must be one of your groups"))
    return group


@transaction.atomic
def tournament_create(
    *,
    owner: User,
    name: str,
    played_on: date,
    variant: str = "",
    options: Mapping[str, Any] | None = None,
    settings: Mapping[str, Any] | None = None,
    money_rate: Decimal | str | None = "default",
    group: Group | None = None,
    cup: Cup | None = None,
    cup_final: bool = False,
    cup_factor: int = 1,
    organisers: Sequence[str] = (),
    seed: str = "",
) -> Tournament:
    """A new tournament in registration, every setting with the value in force.
    ``money_rate`` None is "no money"; left out, the game's default (€ 0.10 for
    Königrufen, none for French Tarot). Königrufen's house rules start at ``ooe_2023``."""
    offered = games()
    variant = variant or offered[0]  # the default game
    if variant not in offered:
        raise invalid("variant", gettext_noop("one of: {allowed}"), allowed=", ".join(offered))
    tournament = Tournament.objects.create(
        owner=owner,
        name=_name(name),
        played_on=played_on,
        variant=variant,
        options=check_options(variant, options or {}),
        settings=check_settings(variant, settings or {}),
        money_rate=_money_rate(default_money_rate(variant) if isinstance(money_rate, str) else money_rate),
        group=_group(owner, group),
        seed=check_seed(seed) if seed else new_seed(),
        board_token=secrets.token_urlsafe(24),
        screen_token=secrets.token_urlsafe(24),  # the hall screen's own link (views.board.screen)
    )
    cups.tournament_cup_set(tournament=tournament, user=owner, cup=cup, final=cup_final, factor=cup_factor)
    _set_organisers(tournament, organisers)
    audit(tournament, TournamentChange.Action.CREATE, owner, after={"settings": tournament.settings})
    return tournament


def _set_organisers(tournament: Tournament, usernames: Sequence[str]) -> None:
    names = [n.strip() for n in usernames if n.strip()]
    users = list(User.objects.filter(username__in=names).exclude(pk=tournament.owner_id))
    missing = sorted(set(names) - {u.username for u in users} - {tournament.owner.username})
    if missing:
        raise invalid("organisers", gettext_noop("no registered user is called {name}"), name=missing[0])
    tournament.organisers.set(users)
    # The table-rounds' sessions follow: their editors are the organisers now, so a
    # co-organiser taken off the list records at no table any more.
    tables = TableRound.objects.filter(round__tournament=tournament, session__isnull=False)
    scoring.sessions_set_editors(session_ids=tables.values("session_id"), users=users)


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    user: User,
    name: str,
    played_on: date,
    options: Mapping[str, Any],
    settings: Mapping[str, Any],
    money_rate: Decimal | None,
    organisers: Sequence[str] | None = None,
    cup: Cup | None = None,
    cup_final: bool = False,
    cup_factor: int = 1,
) -> Tournament:
    """Change name, day, co-organisers and, until round 1 is drawn, house rules and settings."""
    row = locked(tournament)
    new_settings = check_settings(row.variant, settings)
    new_rate = _money_rate(money_rate)
    if drawn(row):  # fixed for every table from round 1 on
        if (new_settings, new_rate) != (row.settings, row.money_rate):
            raise invalid("settings", gettext_noop("are fixed once round 1 is drawn"))
        new_options = row.options
    else:
        new_options = check_options(row.variant, options)
    before = {"name": row.name, "settings": row.settings, "options": row.options, **_cup_of(row)}
    row.name, row.played_on = _name(name), played_on
    row.settings, row.options, row.money_rate = new_settings, new_options, new_rate
    row.save()
    cups.tournament_cup_set(tournament=row, user=user, cup=cup, final=cup_final, factor=cup_factor)
    if organisers is not None and user.pk == row.owner_id:
        _set_organisers(row, organisers)
    after = {"settings": row.settings, **_cup_of(row)}
    audit(row, TournamentChange.Action.SETTINGS, user, before=before, after=after)
    changed(row)
    return row


def _cup_of(tournament: Tournament) -> dict[str, Any]:
    """The tournament's cup as the audit keeps it."""
    return {"cup": tournament.cup_id, "cup_final": tournament.cup_final, "cup_factor": tournament.cup_factor}


# -- provisional, final, reopened (§4.4) ---------------------------------------------------


@dataclass(frozen=True)
class OpenTables:
    """Tables of a round not yet signed, ended or typed in, by number."""

    round_number: int
    tables: tuple[int, ...]


def open_tables(round_: Round) -> tuple[int, ...]:
    locked_states = (TableRound.Status.SIGNED, TableRound.Status.ENDED, TableRound.Status.DESK)
    return tuple(round_.tables.exclude(status__in=locked_states).values_list("number", flat=True))


def refuse_open(round_: Round, field: str) -> None:
    """Refused naming the tables of the round still open, if there are any."""
    still = open_tables(round_)
    if still:
        raise invalid(
            field,
            gettext_noop("round {round} is not complete: tables {tables} are still open"),
            round=round_.number,
            tables=", ".join(map(str, still)),
        )


def last_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(number=tournament.settings["rounds"]).first()


def complaint_until(tournament: Tournament) -> datetime | None:
    """When the complaint window closes (§4.4): ``complaint_minutes`` after the
    tournament was last made provisional; None without a window or while not provisional."""
    minutes = tournament.settings.get("complaint_minutes")
    made = (
        tournament.changes.filter(action=TournamentChange.Action.PROVISIONAL).order_by("-at").first()
        if tournament.status == Tournament.Status.PROVISIONAL
        else None
    )
    if made is None or not minutes:
        return None
    return made.at + timedelta(minutes=minutes)


@transaction.atomic
def tournament_provisional(*, tournament: Tournament, user: User, client_token: str = "") -> Tournament:
    """After the last table of the last round: the ranking is provisional and the
    places and cup points are written (``results.write_places``)."""
    from tournaments.services import cups, results

    row = locked(tournament)
    if done_already(row, client_token):
        return row
    if row.status != Tournament.Status.RUNNING:
        raise invalid("status", gettext_noop("only a running tournament can be made provisional"))
    final_round = last_round(row)
    if final_round is None or final_round.status == Round.Status.PLANNED:
        raise invalid("status", gettext_noop("the last round is not drawn yet"))
    for round_ in row.rounds.exclude(status=Round.Status.PLANNED).order_by("number"):
        refuse_open(round_, "status")  # an earlier round's table opened again counts too
    row.status = Tournament.Status.PROVISIONAL
    row.save(update_fields=["status"])
    audit(row, TournamentChange.Action.PROVISIONAL, user, client_token=client_token)
    changed(row)
    results.write_places(row, final=False)
    cups.cup_changed(row)
    return row


@transaction.atomic
def tournament_final(*, tournament: Tournament, user: User, client_token: str = "") -> Tournament:
    """The organiser confirms after the complaint window: prize list and cup points are
    fixed. Refused while complaints are taken, naming until when; without a window
    (``complaint_minutes`` empty) at once."""
    from tournaments.services import cups, results

    row = locked(tournament)
    if done_already(row, client_token):
        return row
    if row.status != Tournament.Status.PROVISIONAL:
        raise invalid("status", gettext_noop("only a provisional tournament can be made final"))
    until = complaint_until(row)
    if until is not None and timezone.now() < until:
        raise invalid(
            "status",
            gettext_noop("complaints are taken until {until}: the ranking can be made final after that"),
            until=formats.time_format(timezone.localtime(until), "TIME_FORMAT"),
        )
    row.status, row.closed_at = Tournament.Status.FINAL, timezone.now()
    row.save(update_fields=["status", "closed_at"])
    audit(row, TournamentChange.Action.FINAL, user, client_token=client_token)
    changed(row)
    results.write_places(row, final=True)
    cups.cup_changed(row)
    return row


@transaction.atomic
def tournament_reopen(
    *, tournament: Tournament, user: User, reason: str, client_token: str = ""
) -> Tournament:
    """A final tournament provisional again, so a table can be opened; kept with who, when and why."""
    from tournaments.services import cups

    row = locked(tournament)
    if done_already(row, client_token):
        return row
    why = reason_text(reason)
    if row.status != Tournament.Status.FINAL:
        raise invalid("status", gettext_noop("only a final tournament can be reopened"))
    row.status, row.closed_at = Tournament.Status.PROVISIONAL, None
    row.save(update_fields=["status", "closed_at"])
    row.places.update(final=False)
    cups.cup_changed(row)
    audit(row, TournamentChange.Action.REOPEN, user, reason=why, client_token=client_token)
    changed(row)
    return row
