"""The circuit and its register (``TOURNAMENTS.md`` §14.1) and the register's PINs
(§14.2): a circuit and its organisers, register entries with numbers, a cup
joining the circuit (its register entries matched in by the key of §14.1), the
CSV import shown as a preview before it is confirmed, the export, merging two
entries of one person, and a PIN given once and checked with its limit.

The rules (the matching key, the preview's sorting, the merge, the CSV, the PIN
limit) are ``tournaments.core.circuit``; this module reads and writes the rows.
Every change runs in one transaction under the circuit's row lock, is kept in
its audit (``CircuitChange``) and, with a form's one-time token, is done once
however often the form is sent.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from plumbing import queries
from scoring.engine import InvalidInput
from scoring.engine.schema import name_problem
from scoring.engine.types import invalid
from scoring.models import NAME_LENGTH
from tournaments.core import circuit as rules
from tournaments.core import names
from tournaments.models import (
    Circuit,
    CircuitChange,
    CircuitImport,
    CircuitPinTry,
    CircuitPlayer,
    Cup,
    CupPlayer,
    Tournament,
)
from tournaments.services import cups, events

KEY_SEPARATOR = "\x1f"
PIN = re.compile(r"[0-9]{4}")
KEY_BATCH = 500  # keys asked for in one statement when a cup joins
IMPORT_KEPT_DAYS = 2  # a preview never confirmed is dropped with the next one after this


def key_text(family: str, given: str, place: str) -> str:
    """The matching key (``core.circuit.register_key``) as the register stores it."""
    return KEY_SEPARATOR.join(rules.register_key(family, given, place))


def entry_of(row: CircuitPlayer, aliases: Sequence[int] = ()) -> rules.RegisterEntry:
    """A register row as the rules see it."""
    return rules.RegisterEntry(
        row.number,
        row.family,
        row.given,
        row.place,
        tuple(row.categories or ()),
        row.public_name,
        tuple(aliases),
    )


# -- who sees what ------------------------------------------------------------------------


def circuits_of(user: User) -> QuerySet[Circuit]:
    """The circuits ``user`` runs (owner or organiser)."""
    return Circuit.objects.filter(Q(owner=user) | Q(organisers=user), deleted_at__isnull=True).distinct()


def is_organiser(circuit: Circuit, user: User) -> bool:
    return circuit.owner_id == user.pk or circuit.organisers.filter(pk=user.pk).exists()


def circuit_for(user: User, pk: int) -> Circuit:
    """A circuit ``user`` runs; ``DoesNotExist`` otherwise (the register is theirs alone)."""
    return circuits_of(user).get(pk=pk)


def circuit_seen(user: User, pk: int) -> tuple[Circuit, bool]:
    """A circuit ``user`` runs or owns a cup of, and whether ``user`` runs it;
    ``DoesNotExist`` for anyone else. Read on every view of its lists and honours:
    written out once (``queries.circuit_seen``)."""
    found = queries.circuit_seen(user.pk, pk)
    if found is None:
        raise Circuit.DoesNotExist
    circuit: Circuit = found[0]
    return circuit, found[1]


def _locked(circuit: Circuit, user: User) -> Circuit:
    """The circuit's row, locked for a change its organisers make."""
    row = Circuit.objects.select_for_update().get(pk=circuit.pk)
    if row.deleted_at is not None or not is_organiser(row, user):
        raise invalid("circuit", gettext_noop("only the circuit's organisers change its register"))
    return row


def _done(circuit: Circuit, action: str, client_token: str) -> CircuitChange | None:
    """The change a form with this one-time token made already (a double tap, a resend)."""
    if not client_token:
        return None
    return CircuitChange.objects.filter(circuit=circuit, action=action, client_token=client_token).first()


# What changes what the boards of the circuit's tournaments show of it: the register
# numbers their rows carry, the circuit they mark players in, the categories their
# side rankings count (``services.hall`` draws them once per results version).
BOARDS_FOLLOW = frozenset({"add", "import", "merge", "join"})


def _changed(circuit: Circuit, action: str, user: User, client_token: str, **values: object) -> None:
    CircuitChange.objects.create(
        circuit=circuit, action=action, user=user, client_token=client_token, **values
    )
    Circuit.objects.filter(pk=circuit.pk).update(version=F("version") + 1)
    if action in BOARDS_FOLLOW:
        Tournament.objects.filter(cup__circuit=circuit).update(
            version=F("version") + 1, results_version=F("results_version") + 1
        )


# -- the circuit --------------------------------------------------------------------------


def _text(field: str, value: str, longest: int, *, required: bool = True) -> str:
    value = " ".join(value.split())
    if (required and not value) or len(value) > longest:
        if required:
            raise invalid(field, gettext_noop("a name of 1 to {n} characters"), n=longest)
        raise invalid(field, gettext_noop("at most {n} characters"), n=longest)
    problem = (name_problem(value) or names.name_problem(value)) if value else None
    if problem is not None:
        raise InvalidInput(field, problem)
    return value


@transaction.atomic
def circuit_create(*, owner: User, name: str, season: str, client_token: str = "") -> Circuit:
    """A circuit of ``owner`` with §14.1's categories (``Damen``, ``Senioren``,
    ``Jugend``); its register starts empty and its cups join later (``cup_join``)."""
    if client_token:
        done = CircuitChange.objects.filter(action="create", user=owner, client_token=client_token).first()
        if done is not None:
            return done.circuit
    values = {"name": _text("name", name, 80), "season": _text("season", season, 40)}
    circuit = Circuit.objects.create(owner=owner, categories=list(rules.DEFAULT_CATEGORIES), **values)
    CircuitChange.objects.create(
        circuit=circuit, action="create", user=owner, client_token=client_token, after=values
    )
    return circuit


# -- the register -------------------------------------------------------------------------


def register(circuit: Circuit) -> list[CircuitPlayer]:
    """The register's entries by number, without the merged ones."""
    return list(CircuitPlayer.objects.filter(circuit=circuit, merged_into__isnull=True).order_by("number"))


def register_entries(circuit: Circuit) -> list[rules.RegisterEntry]:
    """The register as the rules see it: each kept entry with its aliases."""
    aliases: dict[int, list[int]] = {}
    for number, into in CircuitPlayer.objects.filter(circuit=circuit, merged_into__isnull=False).values_list(
        "number", "merged_into_id"
    ):
        aliases.setdefault(into, []).append(number)
    return [entry_of(row, sorted(aliases.get(row.pk, ()))) for row in register(circuit)]


def entry_find(circuit: Circuit, number: int, field: str = "number") -> CircuitPlayer:
    """The entry a number finds: its own, or the one it was merged into (an alias, §14.1)."""
    row = CircuitPlayer.objects.filter(circuit=circuit, number=number).select_related("merged_into").first()
    if row is None:
        raise invalid(field, gettext_noop("a number of the circuit's register"))
    return row.merged_into if row.merged_into is not None else row


def _next_number(circuit: Circuit, count: int = 1) -> int:
    """The first of ``count`` numbers never given: one above every number and alias
    (``core.circuit.next_number``, read as one statement: merged rows keep theirs)."""
    top = CircuitPlayer.objects.filter(circuit=circuit).aggregate(top=Max("number"))["top"] or 0
    if top + count > rules.MAX_NUMBER:
        raise invalid("number", gettext_noop("numbers go up to {n}"), n=rules.MAX_NUMBER)
    return int(top) + 1


def _room(circuit: Circuit, more: int) -> None:
    held = CircuitPlayer.objects.filter(circuit=circuit, merged_into__isnull=True).count()
    if held + more > rules.MAX_REGISTER:
        raise invalid(
            "register", gettext_noop("at most {n} players in a circuit's register"), n=rules.MAX_REGISTER
        )


def _categories(circuit: Circuit, chosen: Iterable[str]) -> list[str]:
    allowed = list(circuit.categories or ())
    picked = list(dict.fromkeys(chosen))
    if any(category not in allowed for category in picked):
        raise invalid("categories", gettext_noop("some of: {allowed}"), allowed=", ".join(allowed))
    return [category for category in allowed if category in picked]


@dataclass(frozen=True)
class Added:
    """``entry``: the entry written; ``None`` when ``offered`` entries have the same
    key (§14.1: the same person unless the organiser keeps them apart)."""

    entry: CircuitPlayer | None
    offered: tuple[CircuitPlayer, ...] = ()


@transaction.atomic
def register_add(
    *,
    circuit: Circuit,
    user: User,
    family: str,
    given: str = "",
    place: str = "",
    categories: Sequence[str] = (),
    public_name: str = "full",
    keep_apart: bool = False,
    client_token: str = "",
) -> Added:
    """A new register entry with the next number, unless entries with the same
    key are there: then they are offered and nothing is written, or, with
    ``keep_apart``, the organiser says this is someone else ("Huber Maria, Linz (2)")."""
    locked = _locked(circuit, user)
    done = _done(locked, "add", client_token)
    if done is not None and done.after:
        return Added(CircuitPlayer.objects.get(circuit=locked, number=done.after["number"]))
    family = _text("family", family, NAME_LENGTH)
    given = _text("given", given, NAME_LENGTH, required=False)
    place = _text("place", place, NAME_LENGTH, required=False)
    chosen = _categories(locked, categories)
    if public_name not in rules.PUBLIC_NAMES:
        raise invalid("public_name", gettext_noop("one of: {allowed}"), allowed=", ".join(rules.PUBLIC_NAMES))
    key = key_text(family, given, place)
    same = {row.number: row for row in register_by_keys(locked, [key]).get(key, [])}
    offered = rules.matches([entry_of(row) for row in same.values()], family, given, place)
    if offered and not keep_apart:
        return Added(None, tuple(same[entry.number] for entry in offered))
    entry = _entry_create(locked, family, given, place, categories=chosen, public_name=public_name)
    after = {**_snapshot(entry), "kept_apart_from": [row.number for row in same.values()]}
    _changed(locked, "add", user, client_token, after=after)
    return Added(entry)


def _entry_create(
    circuit: Circuit,
    family: str,
    given: str,
    place: str,
    *,
    categories: Sequence[str] = (),
    public_name: str = "full",
) -> CircuitPlayer:
    """A new entry with the next number (names checked by the caller, circuit locked)."""
    _room(circuit, 1)
    return CircuitPlayer.objects.create(
        circuit=circuit,
        number=_next_number(circuit),
        family=family,
        given=given,
        place=place,
        match_key=key_text(family, given, place),
        categories=list(categories),
        public_name=public_name,
    )


def register_names(family: str, given: str, place: str) -> tuple[str, str, str]:
    """A typed name as the register keeps it (§7's text rules, spaces made single),
    refused naming ``family``, ``given`` or ``place``."""
    return (
        _text("family", family, NAME_LENGTH),
        _text("given", given, NAME_LENGTH, required=False),
        _text("place", place, NAME_LENGTH, required=False),
    )


def register_offer(circuit: Circuit, family: str, given: str, place: str) -> tuple[CircuitPlayer, ...]:
    """The entries a typed name matches by §14.1's key, lowest number first: the ones
    offered at the door ("Bist du Nr. 4711 Huber Maria, Linz?"). Names checked."""
    family, given, place = register_names(family, given, place)
    key = key_text(family, given, place)
    same = {row.number: row for row in register_by_keys(circuit, [key]).get(key, [])}
    offered = rules.matches([entry_of(row) for row in same.values()], family, given, place)
    return tuple(same[entry.number] for entry in offered)


@transaction.atomic
def register_at_door(*, circuit: Circuit, family: str, given: str, place: str) -> tuple[CircuitPlayer, str]:
    """A player new to the register, written by herself at the door (§14.2, no
    account): the next number and a four-digit PIN, returned once and kept only as
    its hash. Entries with her key are kept apart from her (she said she is none of
    them); the audit says so, without a user."""
    family, given, place = register_names(family, given, place)
    locked = Circuit.objects.select_for_update().get(pk=circuit.pk)
    if locked.deleted_at is not None:
        raise invalid("circuit", gettext_noop("one of the circuits listed"))
    key = key_text(family, given, place)
    same = [row.number for row in register_by_keys(locked, [key]).get(key, [])]
    entry = _entry_create(locked, family, given, place)
    pin = _pin_give(entry)
    CircuitChange.objects.create(
        circuit=locked, action="door", user=None, after={**_snapshot(entry), "kept_apart_from": same}
    )
    Circuit.objects.filter(pk=locked.pk).update(version=F("version") + 1)
    entry.refresh_from_db()
    return entry, pin


def register_by_keys(circuit: Circuit, keys: Sequence[str]) -> dict[str, list[CircuitPlayer]]:
    """The kept entries of each key, lowest number first, asked in batches."""
    found: dict[str, list[CircuitPlayer]] = {}
    for start in range(0, len(keys), KEY_BATCH):
        batch = CircuitPlayer.objects.filter(
            circuit=circuit, match_key__in=keys[start : start + KEY_BATCH], merged_into__isnull=True
        ).order_by("number")
        for row in batch:
            found.setdefault(row.match_key, []).append(row)
    return found


def _snapshot(row: CircuitPlayer) -> dict[str, object]:
    return {
        "number": row.number,
        "family": row.family,
        "given": row.given,
        "place": row.place,
        "categories": list(row.categories or ()),
        "user": row.user_id,
    }


# -- import and export (§14.1) ------------------------------------------------------------


@dataclass(frozen=True)
class Conflict:
    """An import row never written silently: ``why`` is ``number`` (its number is
    another person's), ``several`` (entries kept apart share its key), ``key`` (its
    number is new but its key is an entry's: the same person under another number)
    or ``twice`` (an earlier new row of the file has its key)."""

    row: rules.ImportRow
    entries: tuple[rules.RegisterEntry, ...]
    why: str


@dataclass(frozen=True)
class ImportPlan:
    new: tuple[rules.ImportRow, ...]
    matched: tuple[tuple[rules.ImportRow, rules.RegisterEntry], ...]
    conflicts: tuple[Conflict, ...]

    def digest(self) -> str:
        """What the preview showed, so a confirmation finds the register as shown."""
        shown = {
            "new": [list(map(str, (r.number, r.family, r.given, r.place, r.categories))) for r in self.new],
            "matched": [[str(r.number), e.number, list(r.categories)] for r, e in self.matched],
            "conflicts": [[str(c.row.number), c.why, [e.number for e in c.entries]] for c in self.conflicts],
        }
        return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()


def import_plan(entries: Sequence[rules.RegisterEntry], rows: Sequence[rules.ImportRow]) -> ImportPlan:
    """``core.circuit.preview_import``, and two cases it lets through as new kept
    apart **[decision]**: a new number whose key an entry has (the same person,
    §14.1's key says, under a second number), and a key twice among the new rows."""
    preview = rules.preview_import(entries, rows)
    by_key: dict[tuple[str, str, str], rules.RegisterEntry] = {}
    for entry in sorted(entries, key=lambda e: e.number):
        by_key.setdefault(entry.key, entry)
    conflicts = [
        Conflict(row, held, "number" if row.number is not None else "several")
        for row, held in preview.conflicts
    ]
    new: list[rules.ImportRow] = []
    seen: set[tuple[str, str, str]] = set()
    for row in preview.new:
        key = rules.register_key(row.family, row.given, row.place)
        if row.number is not None and key in by_key:
            conflicts.append(Conflict(row, (by_key[key],), "key"))
        elif key in seen:
            conflicts.append(Conflict(row, (), "twice"))
        else:
            seen.add(key)
            new.append(row)
    return ImportPlan(tuple(new), preview.matched, tuple(conflicts))


def _rows(circuit: Circuit, data: bytes) -> list[rules.ImportRow]:
    try:
        return rules.read_register_csv(data, circuit.categories or rules.DEFAULT_CATEGORIES)
    except rules.InvalidRegisterCsv as error:
        raise invalid("file", gettext_noop("the CSV file: {problem}"), problem=str(error)) from None


@transaction.atomic
def register_import_preview(*, circuit: Circuit, user: User, data: bytes) -> tuple[CircuitImport, ImportPlan]:
    """What importing ``data`` (§14.1's CSV) would do: new, matched and conflicting
    rows. The register is not touched; the file waits for ``register_import_confirm``."""
    locked = _locked(circuit, user)
    if len(data) > rules.MAX_IMPORT_BYTES:
        raise invalid("file", gettext_noop("at most 2 MB"))
    plan = import_plan(register_entries(locked), _rows(locked, data))
    stale = timezone.now() - datetime.timedelta(days=IMPORT_KEPT_DAYS)
    CircuitImport.objects.filter(circuit=locked, confirmed_at__isnull=True, created_at__lt=stale).delete()
    pending = CircuitImport.objects.create(circuit=locked, user=user, data=data, preview_digest=plan.digest())
    return pending, plan


def import_pending(circuit: Circuit, import_id: int) -> tuple[CircuitImport, ImportPlan]:
    """An import of the circuit as its preview shows it now."""
    pending = CircuitImport.objects.filter(circuit=circuit, pk=import_id).first()
    if pending is None:
        raise invalid("import", gettext_noop("an import of this circuit shown as a preview"))
    return pending, import_plan(register_entries(circuit), _rows(circuit, bytes(pending.data)))


@transaction.atomic
def register_import_confirm(*, circuit: Circuit, user: User, import_id: int) -> dict[str, int]:
    """Write an import as its preview showed it: new rows get their number (or the
    next ones, in file order), matched rows gain the file's categories, conflicts
    are left out. Refused when the register changed since the preview; confirmed
    twice, it writes once (``CircuitImport.result``)."""
    locked = _locked(circuit, user)
    pending = CircuitImport.objects.select_for_update().filter(circuit=locked, pk=import_id).first()
    if pending is None:
        raise invalid("import", gettext_noop("an import of this circuit shown as a preview"))
    if pending.confirmed_at is not None and pending.result is not None:
        return dict(pending.result)
    _, plan = import_pending(locked, import_id)
    if plan.digest() != pending.preview_digest:
        raise invalid(
            "import", gettext_noop("the register changed since the preview: look at the preview again")
        )
    _room(locked, len(plan.new))
    numbered = [row.number for row in plan.new if row.number is not None]
    top = max([_next_number(locked) - 1, *numbered])
    unnumbered = sum(1 for row in plan.new if row.number is None)
    if top + unnumbered > rules.MAX_NUMBER:
        raise invalid("number", gettext_noop("numbers go up to {n}"), n=rules.MAX_NUMBER)
    made: list[CircuitPlayer] = []
    for row in plan.new:
        if row.number is None:
            top += 1
        made.append(
            CircuitPlayer(
                circuit=locked,
                number=row.number if row.number is not None else top,
                family=row.family,
                given=row.given,
                place=row.place,
                match_key=key_text(row.family, row.given, row.place),
                categories=list(row.categories),
            )
        )
    CircuitPlayer.objects.bulk_create(made, batch_size=1000)
    widened = 0
    for row, entry in plan.matched:
        kept = CircuitPlayer.objects.get(circuit=locked, number=entry.number)
        categories = _categories(locked, [*(kept.categories or ()), *row.categories])
        if categories != list(kept.categories or ()):
            CircuitPlayer.objects.filter(pk=kept.pk).update(categories=categories)
            widened += 1
    result = {
        "new": len(made),
        "matched": len(plan.matched),
        "categories": widened,
        "left_out": len(plan.conflicts),
    }
    pending.confirmed_at, pending.result = timezone.now(), result
    pending.save(update_fields=["confirmed_at", "result"])
    _changed(locked, "import", user, "", after={"import": pending.pk, **result})
    return result


def register_export(circuit: Circuit) -> str:
    """The register as §14.1's CSV (``core.circuit.register_csv``): kept entries by number."""
    return rules.register_csv(register_entries(circuit))


# -- merge (§14.1) ------------------------------------------------------------------------


@transaction.atomic
def register_merge(
    *, circuit: Circuit, user: User, number: int, other: int, client_token: str = ""
) -> CircuitPlayer:
    """Two entries of one person made one (``core.circuit.merge``): the lower number
    stays, the higher becomes its alias; categories, the account (where the kept
    one has none) and the PIN (likewise) follow, and so does every cup's entry
    linked to it: two names of one cup are merged in the cup too
    (``cups.cup_player_merge``, heard of by the ratings, as the merge of the
    numbers is: ``events.circuit_merged``). Kept in the audit with
    before and after."""
    locked = _locked(circuit, user)
    done = _done(locked, "merge", client_token)
    if done is not None and done.after:
        return CircuitPlayer.objects.get(circuit=locked, number=done.after["number"])
    one, two = entry_find(locked, number, "number"), entry_find(locked, other, "other")
    if one.pk == two.pk:
        raise invalid(
            "other",
            gettext_noop("another entry than Nr. {number}: these are one entry already"),
            number=number,
        )
    merged = rules.merge(entry_of(one), entry_of(two))
    kept, gone = (one, two) if one.number == merged.number else (two, one)
    before = {"kept": _snapshot(kept), "gone": _snapshot(gone)}
    kept.categories = list(merged.categories)
    if kept.user_id is None:
        kept.user_id = gone.user_id
    if not kept.pin_hash and gone.pin_hash:
        kept.pin_hash, kept.pin_set_at = gone.pin_hash, gone.pin_set_at
    kept.save(update_fields=["categories", "user", "pin_hash", "pin_set_at"])
    CircuitPlayer.objects.filter(merged_into=gone).update(merged_into=kept)
    CircuitPlayer.objects.filter(pk=gone.pk).update(merged_into=kept, user=None)
    CircuitPinTry.objects.filter(entry=gone).update(entry=kept)
    _cup_entries_follow(gone, kept, user)
    events.send_circuit_merged(locked, gone, kept)
    after = {**_snapshot(kept), "aliases": [gone.number]}
    _changed(locked, "merge", user, client_token, before=before, after=after)
    kept.refresh_from_db()
    return kept


def _cup_entries_follow(gone: CircuitPlayer, kept: CircuitPlayer, user: User) -> None:
    """The cups' register entries of ``gone`` count as ``kept``'s; where one cup had
    both, its entry of ``gone`` is merged into its entry of ``kept``."""
    theirs = {
        row.cup_id: row
        for row in CupPlayer.objects.filter(circuit_player=kept, merged_into__isnull=True).order_by("-pk")
    }
    for entry in CupPlayer.objects.filter(circuit_player=gone).order_by("pk"):
        CupPlayer.objects.filter(pk=entry.pk).update(circuit_player=kept)
        into = theirs.get(entry.cup_id)
        if entry.merged_into_id is None and into is not None:
            cups.cup_player_merge(cup=entry.cup, user=user, player_id=entry.pk, into_id=into.pk)
        elif entry.merged_into_id is None:
            theirs[entry.cup_id] = entry


# -- a cup joins (§14.1) ------------------------------------------------------------------


def name_splits(name: str) -> list[tuple[str, str]]:
    """Every way a cup's one-field name reads as family and given name: "Huber Maria
    Anna" is ("Huber", "Maria Anna"), ("Huber Maria", "Anna") or the family name alone."""
    words = name.split()
    return [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words) + 1)]


def name_parts(name: str) -> tuple[str, str]:
    """A cup's name written as a new register entry: "Familienname Vorname" as
    ABAKUS and §14.1 write it, the last word the given name **[decision]**; one word
    is a family name."""
    words = name.split()
    return (" ".join(words[:-1]), words[-1]) if len(words) > 1 else (name.strip(), "")


@dataclass(frozen=True)
class Joined:
    cup: Cup
    matched: int
    new: int
    merged: int


@transaction.atomic
def cup_join(*, circuit: Circuit, user: User, cup_id: int, client_token: str = "") -> Joined:
    """A cup of ``user`` (an organiser of the circuit) joins it: each name of the
    cup's register is linked to the circuit's entry of its key (the lowest number
    where entries are kept apart), or to a new entry with the next number; two
    names of the cup that are one entry are merged in the cup. Entrants, places
    and cup points stay as they are. Kept in the audit, name by name."""
    locked = _locked(circuit, user)
    done = _done(locked, "join", client_token)
    if done is not None and done.after:
        after = done.after
        return Joined(Cup.objects.get(pk=after["cup"]), after["matched"], after["new"], after["merged"])
    cup = Cup.objects.select_for_update().filter(pk=cup_id, owner=user, deleted_at__isnull=True).first()
    if cup is None:
        raise invalid("cup", gettext_noop("one of your cups"))
    if cup.circuit_id is not None:
        raise invalid(
            "cup", gettext_noop("a cup of no circuit yet: {name} belongs to one (at most one)"), name=cup.name
        )
    if Cup.objects.filter(circuit=locked, deleted_at__isnull=True).count() >= rules.MAX_CUPS:
        raise invalid("cup", gettext_noop("at most {n} cups in a circuit"), n=rules.MAX_CUPS)
    names = list(CupPlayer.objects.filter(cup=cup, merged_into__isnull=True).order_by("pk"))
    links = _link_names(locked, names)
    made = sum(1 for _, how in links.values() if how == "new")
    merged = _merge_alike(cup, names, links, user)
    for entry in CupPlayer.objects.filter(cup=cup, merged_into__isnull=False).select_related("merged_into"):
        kept = cups._kept(entry)
        CupPlayer.objects.filter(pk=entry.pk).update(circuit_player_id=kept.circuit_player_id)
    Cup.objects.filter(pk=cup.pk).update(circuit=locked, version=F("version") + 1)
    cup.circuit = locked
    after = {
        "cup": cup.pk,
        "name": str(cup),
        "matched": len(links) - made,
        "new": made,
        "merged": merged,
        "names": [
            [entry.name, entry.place, links[entry.pk][0].number, links[entry.pk][1]] for entry in names
        ],
    }
    _changed(locked, "join", user, client_token, after=after)
    return Joined(cup, len(links) - made, made, merged)


def _link_names(circuit: Circuit, names: Sequence[CupPlayer]) -> dict[int, tuple[CircuitPlayer, str]]:
    """Each cup name's circuit entry and how it was found (``matched`` or ``new``)."""
    wanted = {entry.pk: [key_text(f, g, entry.place) for f, g in name_splits(entry.name)] for entry in names}
    found = register_by_keys(circuit, sorted({key for keys in wanted.values() for key in keys}))
    links: dict[int, tuple[CircuitPlayer, str]] = {}
    made: dict[str, CircuitPlayer] = {}
    for entry in names:
        candidates = [row for key in wanted[entry.pk] for row in found.get(key, [])]
        offered = [
            match
            for family, given in name_splits(entry.name)
            for match in rules.matches([entry_of(row) for row in candidates], family, given, entry.place)
        ]
        if offered:
            number = min(match.number for match in offered)
            links[entry.pk] = (next(row for row in candidates if row.number == number), "matched")
        elif any(key in made for key in wanted[entry.pk]):
            links[entry.pk] = (next(made[key] for key in wanted[entry.pk] if key in made), "matched")
        else:
            _room(circuit, 1)
            family, given = (part[:NAME_LENGTH] for part in name_parts(entry.name))
            place = entry.place[:NAME_LENGTH]
            row = CircuitPlayer.objects.create(
                circuit=circuit,
                number=_next_number(circuit),
                family=family,
                given=given,
                place=place,
                match_key=key_text(family, given, place),
            )
            for key in wanted[entry.pk]:
                made[key] = row
            links[entry.pk] = (row, "new")
        CupPlayer.objects.filter(pk=entry.pk).update(circuit_player=links[entry.pk][0])
    return links


def _merge_alike(
    cup: Cup, names: Sequence[CupPlayer], links: dict[int, tuple[CircuitPlayer, str]], user: User
) -> int:
    """Names of one cup linked to one circuit entry are one person: merged in the
    cup (the first written kept), so its season counts them once."""
    first: dict[int, CupPlayer] = {}
    merged = 0
    for entry in names:
        number = links[entry.pk][0].pk
        if number in first:
            cups.cup_player_merge(cup=cup, user=user, player_id=entry.pk, into_id=first[number].pk)
            merged += 1
        else:
            first[number] = entry
    return merged


def cups_to_join(circuit: Circuit, user: User) -> list[Cup]:
    """The cups ``user`` owns that belong to no circuit yet."""
    return list(
        Cup.objects.filter(owner=user, deleted_at__isnull=True, circuit__isnull=True).order_by("name", "pk")
    )


# -- PINs (§14.2) -------------------------------------------------------------------------


@transaction.atomic
def register_pin_new(*, circuit: Circuit, user: User, number: int, client_token: str = "") -> str:
    """A new four-digit PIN for an entry, returned once and kept only as Django's
    password hash; its wrong tries are forgotten (the desk saw the player). Sent
    twice with one token, the second is refused: the PIN is not shown again."""
    locked = _locked(circuit, user)
    if _done(locked, "pin", client_token) is not None:
        raise invalid("token", gettext_noop("this PIN was shown once already: give a new one to see a PIN"))
    entry = entry_find(locked, number)
    had = bool(entry.pin_hash)
    pin = _pin_give(entry)
    _changed(locked, "pin", user, client_token, after={"number": entry.number, "again": had})
    return pin


@transaction.atomic
def register_public_name_set(
    *, circuit: Circuit, user: User, number: int, public_name: str, client_token: str = ""
) -> CircuitPlayer:
    """How an entry's name reads on public pages (§14.1): ``full`` ("Huber Maria")
    or ``short`` ("Huber M."); set by the circuit's organisers, kept in the audit
    with before and after. The same choice again (sent twice) changes nothing."""
    locked = _locked(circuit, user)
    entry = entry_find(locked, number)
    if public_name not in rules.PUBLIC_NAMES:
        raise invalid("public_name", gettext_noop("one of: {allowed}"), allowed=", ".join(rules.PUBLIC_NAMES))
    if entry.public_name == public_name or _done(locked, "public", client_token) is not None:
        return entry
    before = {"number": entry.number, "public_name": entry.public_name}
    CircuitPlayer.objects.filter(pk=entry.pk).update(public_name=public_name)
    entry.public_name = public_name
    _changed(
        locked, "public", user, client_token, before=before, after={**before, "public_name": public_name}
    )
    return entry


@dataclass(frozen=True)
class Listed:
    """A register entry as the organiser's pages list it: ``apart`` is the "(2)",
    "(3)" of an entry kept apart from others of its key, None for the first."""

    entry: CircuitPlayer
    apart: int | None = None


def kept_apart(circuit: Circuit, entries: Sequence[CircuitPlayer]) -> list[Listed]:
    """These entries, each with the "(2)", "(3)" it is shown with where other
    entries of the register have its key (§14.1: kept apart by the organiser;
    ``core.circuit.told_apart``): one statement."""
    same = CircuitPlayer.objects.filter(
        circuit=circuit, match_key__in=sorted({row.match_key for row in entries}), merged_into__isnull=True
    )
    apart = rules.told_apart(entry_of(row) for row in same)
    return [Listed(row, apart.get(row.number)) for row in entries]


def same_key(entry: CircuitPlayer) -> list[CircuitPlayer]:
    """The other kept entries of the register with this entry's key, by number."""
    return list(
        CircuitPlayer.objects.filter(
            circuit_id=entry.circuit_id, match_key=entry.match_key, merged_into__isnull=True
        )
        .exclude(pk=entry.pk)
        .order_by("number")
    )


def _pin_give(entry: CircuitPlayer) -> str:
    """A new PIN for the entry, kept as its hash; its wrong tries are forgotten."""
    pin = f"{secrets.randbelow(10_000):04d}"
    CircuitPlayer.objects.filter(pk=entry.pk).update(pin_hash=make_password(pin), pin_set_at=timezone.now())
    CircuitPinTry.objects.filter(entry=entry).delete()
    return pin


def pin_blocked_refusal(entry: CircuitPlayer) -> InvalidInput:
    """The answer to a PIN for a number blocked by its wrong tries: the desk registers it."""
    return invalid(
        "pin",
        gettext_noop("{tries} wrong PINs within {minutes} minutes: Nr. {number} registers at the desk now"),
        tries=rules.PIN_TRIES,
        minutes=rules.PIN_WINDOW_MINUTES,
        number=entry.number,
    )


@transaction.atomic
def register_pin_check(
    *, circuit: Circuit, number: int, pin: str, now: datetime.datetime | None = None
) -> bool:
    """Whether ``pin`` is the entry's PIN. A wrong one is counted; after
    ``PIN_TRIES`` wrong ones within ``PIN_WINDOW_MINUTES`` minutes the number is
    refused without comparing (the desk registers it). Refusals write nothing."""
    now = now or timezone.now()
    found = entry_find(circuit, number)
    entry = CircuitPlayer.objects.select_for_update().get(pk=found.pk)
    if not PIN.fullmatch(pin):
        raise invalid("pin", gettext_noop("four digits"))
    if not entry.pin_hash:
        raise invalid(
            "pin",
            gettext_noop("Nr. {number} has no PIN yet: the desk registers this player"),
            number=entry.number,
        )
    since = now - datetime.timedelta(minutes=rules.PIN_WINDOW_MINUTES)
    tries = list(CircuitPinTry.objects.filter(entry=entry, at__gt=since).values_list("at", flat=True))
    if rules.pin_blocked(tries, now):
        raise pin_blocked_refusal(entry)
    if check_password(pin, entry.pin_hash):
        return True
    CircuitPinTry.objects.filter(entry=entry, at__lte=since).delete()
    CircuitPinTry.objects.create(entry=entry, at=now)
    return False


def pin_blocked_now(entry: CircuitPlayer, now: datetime.datetime | None = None) -> bool:
    """Whether the entry registers only at the desk now (shown to the organisers)."""
    now = now or timezone.now()
    since = now - datetime.timedelta(minutes=rules.PIN_WINDOW_MINUTES)
    return rules.pin_blocked(
        CircuitPinTry.objects.filter(entry=entry, at__gt=since).values_list("at", flat=True), now
    )


def pin_free_at(entry: CircuitPlayer, now: datetime.datetime | None = None) -> datetime.datetime | None:
    """When a number blocked by wrong PINs takes one again (``core.circuit.pin_free_at``);
    ``None`` while it is not blocked."""
    now = now or timezone.now()
    since = now - datetime.timedelta(minutes=rules.PIN_WINDOW_MINUTES)
    return rules.pin_free_at(
        list(CircuitPinTry.objects.filter(entry=entry, at__gt=since).values_list("at", flat=True)), now
    )


def circuits_listed() -> list[Circuit]:
    """Every circuit not deleted, by name: a player picks hers to give her number
    (the names are public, the register is not)."""
    return list(Circuit.objects.filter(deleted_at__isnull=True).order_by("name", "season", "pk"))


def circuit_listed(pk: int, field: str = "circuit") -> Circuit:
    """A circuit not deleted; refused naming ``field`` otherwise."""
    found = Circuit.objects.filter(pk=pk, deleted_at__isnull=True).first()
    if found is None:
        raise invalid(field, gettext_noop("one of the circuits listed"))
    return found


def cup_entries_of(entry: CircuitPlayer) -> list[int]:
    """The cups' register entries (``CupPlayer`` ids) that are this circuit entry:
    linked to it or to a number merged into it, and the cup entries merged into those."""
    numbers = CircuitPlayer.objects.filter(Q(pk=entry.pk) | Q(merged_into=entry)).values("pk")
    linked = CupPlayer.objects.filter(circuit_player__in=numbers)
    return list(
        CupPlayer.objects.filter(Q(pk__in=linked) | Q(merged_into__in=linked)).values_list("pk", flat=True)
    )


def changes(circuit: Circuit, limit: int = 50) -> list[CircuitChange]:
    """The circuit's audit, newest first."""
    return list(
        CircuitChange.objects.filter(circuit=circuit).select_related("user").order_by("-at", "-id")[:limit]
    )


def cup_name_linked(entry: CupPlayer) -> None:
    """A name new in the register of a cup in a circuit (an entrant added) is
    linked to the circuit's entry of its key, or to a new one, as when the cup joined."""
    if entry.cup.circuit_id is None or entry.circuit_player_id is not None:
        return
    circuit = Circuit.objects.select_for_update().get(pk=entry.cup.circuit_id)
    _link_names(circuit, [entry])
    Circuit.objects.filter(pk=circuit.pk).update(version=F("version") + 1)
