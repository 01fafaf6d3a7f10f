"""The circuit's pages for its organisers (``TOURNAMENTS.md`` §14.1): the circuits
of an account and a new one, a circuit's page, its register (the list only for
its organisers), the CSV import with its preview, the export, merging two
entries, a PIN given once, and a cup joining.

A circuit exists for its organisers and for the owners of its cups (404 for
anyone else); everything of the register is its organisers' alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from plumbing import caching, pages
from plumbing.requests import Request, posted_token, whole
from plumbing.uploads import accepts_upload, upload_too_large
from scoring.engine import InvalidInput
from scoring.public import number, render_line
from tournaments.core import circuit_file as circuit_files
from tournaments.core.circuit import MAX_IMPORT_BYTES
from tournaments.forms import (
    CircuitFinalForm,
    CircuitForm,
    CupTierForm,
    PublicNameForm,
    RegisterEntryForm,
    RegisterImportForm,
    RegisterMergeForm,
)
from tournaments.models import Circuit, CircuitPlayer, Cup
from tournaments.services import circuit as circuits
from tournaments.services import circuit_final as finals
from tournaments.services import printouts
from tournaments.views.cups import kept_pdf
from tournaments.views.organiser import printout, refuse

REGISTER_SHOWN = 200  # entries listed at once; a search finds the others


def run_circuit(request: Request, kid: int) -> Circuit:
    """The circuit if the user is one of its organisers; a 404 otherwise."""
    try:
        return circuits.circuit_for(request.user, kid)
    except Circuit.DoesNotExist:
        raise Http404("no such circuit") from None


@login_required
@require_http_methods(["GET", "POST"])
def circuit_list(request: Request) -> HttpResponse:
    """The circuits the user runs, and a new one."""
    form = CircuitForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            made = circuits.circuit_create(
                owner=request.user, client_token=posted_token(request), **form.cleaned_data
            )
        except InvalidInput as error:
            refuse(form, error)
        else:
            return redirect("circuit_detail", kid=made.pk)
    context = {"circuits": circuits.circuits_of(request.user), "form": form}
    return render(request, "tournaments/circuit/list.html", context, status=400 if form.errors else 200)


@login_required
@require_GET
def circuit_detail(request: Request, kid: int) -> HttpResponse:
    """The circuit, its cups and, for its organisers, the way to the register."""
    try:
        circuit, organiser = circuits.circuit_seen(request.user, kid)
    except Circuit.DoesNotExist:
        raise Http404("no such circuit") from None
    context = {
        "circuit": circuit,
        "organiser": organiser,
        "cups": circuit.cups.filter(deleted_at__isnull=True).order_by("name"),
        "changes": circuits.changes(circuit) if organiser else [],
    }
    return render(request, "tournaments/circuit/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def circuit_register(request: Request, kid: int) -> HttpResponse:
    """The register (its organisers only): a search, the entries, and a new one;
    a name already there is offered instead of written twice."""
    circuit = run_circuit(request, kid)
    form = RegisterEntryForm(
        request.POST if request.method == "POST" else None, categories=circuit.categories
    )
    offered: tuple[CircuitPlayer, ...] = ()
    if form.is_valid():
        try:
            added = circuits.register_add(
                circuit=circuit, user=request.user, client_token=posted_token(request), **form.cleaned_data
            )
        except InvalidInput as error:
            refuse(form, error)
        else:
            if added.entry is not None:
                messages.success(request, gettext("Nr. {number} added").format(number=added.entry.number))
                return redirect("circuit_register", kid=circuit.pk)
            offered = added.offered
    search = request.GET.get("q", "").strip()[:40]
    context = {"circuit": circuit, "form": form, "search": search, **_listed(circuit, search, offered)}
    return render(request, "tournaments/circuit/register.html", context, status=400 if form.errors else 200)


def _listed(circuit: Circuit, search: str, offered: Sequence[CircuitPlayer]) -> dict[str, object]:
    """The entries found and those offered, each with its "(2)" where kept apart."""
    entries = _entries(circuit, search)
    listed = circuits.kept_apart(circuit, [*entries, *offered])
    return {"entries": listed[: len(entries)], "offered": listed[len(entries) :]}


def _entries(circuit: Circuit, search: str) -> list[CircuitPlayer]:
    rows = circuit.players.filter(merged_into__isnull=True).order_by("number")
    if search.isdecimal():
        rows = rows.filter(number=int(search))
    elif search:
        rows = rows.filter(family__icontains=search) | rows.filter(given__icontains=search)
    return list(rows[:REGISTER_SHOWN])


@login_required
@require_http_methods(["GET", "POST"])
def circuit_import(request: Request, kid: int) -> HttpResponse:
    """The CSV import: the file's preview (new, matched, conflicting), then its confirmation."""
    circuit = run_circuit(request, kid)
    if request.method == "POST" and request.POST.get("action") == "confirm":
        return _import_confirm(request, circuit)
    form = RegisterImportForm(request.POST or None, request.FILES or None)
    pending = plan = None
    if form.is_valid():
        try:
            pending, plan = circuits.register_import_preview(
                circuit=circuit,
                user=request.user,
                data=form.cleaned_data["file"].read(MAX_IMPORT_BYTES + 1),
            )
        except InvalidInput as error:
            refuse(form, error)
    context = {"circuit": circuit, "form": form, "pending": pending, "plan": plan}
    return render(request, "tournaments/circuit/import.html", context, status=400 if form.errors else 200)


def _import_confirm(request: Request, circuit: Circuit) -> HttpResponse:
    try:
        done = circuits.register_import_confirm(
            circuit=circuit, user=request.user, import_id=whole(request.POST.get("import")) or 0
        )
    except InvalidInput as error:
        messages.error(request, render_line(error.line))
        return redirect("circuit_import", kid=circuit.pk)
    text = gettext("Imported: {new} new, {matched} matched, {left_out} left out")
    messages.success(request, text.format(**done))
    return redirect("circuit_register", kid=circuit.pk)


@login_required
@require_GET
def circuit_export(request: Request, kid: int) -> HttpResponse:
    """The register as §14.1's CSV."""
    circuit = run_circuit(request, kid)
    answer = HttpResponse(circuits.register_export(circuit).encode(), content_type="text/csv; charset=utf-8")
    answer["Content-Disposition"] = f'attachment; filename="register-{circuit.pk}.csv"'
    return answer


@login_required
@require_http_methods(["GET", "POST"])
def circuit_merge(request: Request, kid: int) -> HttpResponse:
    """Two entries of one person made one, kept in the audit."""
    circuit = run_circuit(request, kid)
    form = RegisterMergeForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            kept = circuits.register_merge(
                circuit=circuit, user=request.user, client_token=posted_token(request), **form.cleaned_data
            )
        except InvalidInput as error:
            refuse(form, error)
        else:
            messages.success(request, gettext("Merged into Nr. {number}").format(number=kept.number))
            return redirect("circuit_merge", kid=circuit.pk)
    context = {"circuit": circuit, "form": form}
    return render(request, "tournaments/circuit/merge.html", context, status=400 if form.errors else 200)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def circuit_entry(request: Request, kid: int, number: int) -> HttpResponse:
    """One entry: its aliases, its cups' names, its PIN's state, the entries kept
    apart from it and how its name reads on public pages; a new PIN shown once."""
    circuit = run_circuit(request, kid)
    entry = _entry(circuit, number)
    pin = None
    if request.method == "POST":
        try:
            pin = circuits.register_pin_new(
                circuit=circuit, user=request.user, number=entry.number, client_token=posted_token(request)
            )
        except InvalidInput as error:
            messages.error(request, render_line(error.line))
        entry.refresh_from_db()
    return _entry_page(
        request,
        circuit,
        entry,
        PublicNameForm(initial={"public_name": entry.public_name}, names=_names(entry)),
        pin,
    )


@login_required
@require_http_methods(["POST"])
def circuit_entry_public_name(request: Request, kid: int, number: int) -> HttpResponse:
    """The entry's name on public pages set (``full`` or ``short``), kept in the audit."""
    circuit = run_circuit(request, kid)
    entry = _entry(circuit, number)
    form = PublicNameForm(request.POST, names=_names(entry))
    if form.is_valid():
        try:
            circuits.register_public_name_set(
                circuit=circuit,
                user=request.user,
                number=entry.number,
                public_name=form.cleaned_data["public_name"],
                client_token=posted_token(request),
            )
        except InvalidInput as error:
            refuse(form, error)
        else:
            messages.success(request, gettext("Name on public pages saved"))
            return redirect("circuit_entry", kid=circuit.pk, number=entry.number)
    return _entry_page(request, circuit, entry, form, None, status=400)


def _names(entry: CircuitPlayer) -> tuple[str, str]:
    """The entry's name in full and short, as public pages would show it."""
    shown = circuits.entry_of(entry)
    return replace(shown, public_name="full").public(), replace(shown, public_name="short").public()


def _entry(circuit: Circuit, number: int) -> CircuitPlayer:
    try:
        return circuits.entry_find(circuit, number)
    except InvalidInput:
        raise Http404("no such number") from None


def _entry_page(
    request: Request,
    circuit: Circuit,
    entry: CircuitPlayer,
    form: PublicNameForm,
    pin: str | None,
    status: int = 200,
) -> HttpResponse:
    mine, *alike = circuits.kept_apart(circuit, [entry, *circuits.same_key(entry)])  # "(2)"
    context = {
        "circuit": circuit,
        "entry": entry,
        "apart": mine.apart,
        "pin": pin,
        "blocked": circuits.pin_blocked_now(entry),
        "alike": alike,
        "form": form,
        "shown_as": circuits.entry_of(entry).public(),
    }
    return render(request, "tournaments/circuit/entry.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def circuit_join(request: Request, kid: int) -> HttpResponse:
    """A cup of the organiser joins the circuit, its register matched in."""
    circuit = run_circuit(request, kid)
    if request.method == "POST":
        try:
            joined = circuits.cup_join(
                circuit=circuit,
                user=request.user,
                cup_id=whole(request.POST.get("cup")) or 0,
                client_token=posted_token(request),
            )
        except InvalidInput as error:
            messages.error(request, render_line(error.line))
            return redirect("circuit_join", kid=circuit.pk)
        text = gettext("{cup} joined: {matched} names matched, {new} new numbers")
        messages.success(request, text.format(cup=joined.cup, matched=joined.matched, new=joined.new))
        return redirect("circuit_detail", kid=circuit.pk)
    context = {"circuit": circuit, "cups": circuits.cups_to_join(circuit, request.user)}
    return render(request, "tournaments/circuit/join.html", context)


# -- the final of the circuit (§14.7) -----------------------------------------------------
#
# The tiers and the final are set by the circuit's organisers. The three lists
# (qualification per cup, the circuit's qualified players, the Gesamtwertung) and
# their PDFs are seen by its organisers and by the owners of its cups, who hang
# them at their own tournaments: they show only what §14.1 lets a public page
# show, the name per ``public_name``, the place and the number. They have no
# address without an account [decision]: the player's own view shows her status.


def seen_circuit(request: Request, kid: int) -> tuple[Circuit, bool]:
    """The circuit if the user runs it or owns one of its cups; a 404 otherwise."""
    try:
        return circuits.circuit_seen(request.user, kid)
    except Circuit.DoesNotExist:
        raise Http404("no such circuit") from None


@login_required
@require_http_methods(["GET", "POST"])
def circuit_tiers(request: Request, kid: int) -> HttpResponse:
    """Each cup's tier beside its average attendance, its ``min_events`` and
    whether it qualifies; the organisers change one cup at a time."""
    circuit = run_circuit(request, kid)
    posted = (request.POST.get("cup", "") if request.method == "POST" else "")[:12]
    form = CupTierForm(request.POST if request.method == "POST" else None, auto_id=f"cup{posted}-%s")
    if form.is_valid() and _tier_saved(request, circuit, form):
        messages.success(request, gettext("Tier saved"))
        return redirect("circuit_tiers", kid=circuit.pk)
    rows = [
        (cup, form if form.is_bound and posted == str(cup.cup.pk) else _tier_form(cup.cup))
        for cup in finals.standings(circuit).cups
    ]
    shown = any(row[1] is form for row in rows)
    context = {"circuit": circuit, "rows": rows, "form": form, "unshown": form.errors and not shown}
    return render(request, "tournaments/circuit/tiers.html", context, status=400 if form.errors else 200)


def _tier_saved(request: Request, circuit: Circuit, form: CupTierForm) -> bool:
    """The posted cup's tier set; a refusal beside the field it names."""
    try:
        finals.cup_tier_set(
            circuit=circuit,
            user=request.user,
            cup_id=form.cleaned_data["cup"],
            tier=form.cleaned_data["tier"],
            tier_table=form.cleaned_data["tier_table"],
            min_events=form.cleaned_data["min_events"],
            qualifies=form.cleaned_data["qualifies"],
            client_token=posted_token(request),
        )
    except InvalidInput as error:
        refuse(form, error)
        return False
    return True


def _tier_form(cup: Cup) -> CupTierForm:
    return CupTierForm(initial=_tier_initial(cup), auto_id=f"cup{cup.pk}-%s")


def _tier_initial(cup: Cup) -> dict[str, object]:
    return {
        "cup": cup.pk,
        "tier": cup.circuit_tier,
        "tier_table": ", ".join(map(str, cup.circuit_tier_table or [])),
        "min_events": cup.circuit_min_events,
        "qualifies": cup.circuit_qualifies,
    }


@login_required
@require_http_methods(["GET", "POST"])
def circuit_final(request: Request, kid: int) -> HttpResponse:
    """The season's final (a tournament of one of the circuit's cups) and ``open_final``."""
    circuit = run_circuit(request, kid)
    choices = [
        (str(t.pk), f"{t.name} · {t.played_on:%d.%m.%Y} · {t.cup}") for t in finals.final_choices(circuit)
    ]
    form = CircuitFinalForm(
        request.POST if request.method == "POST" else None,
        choices=choices,
        initial={"final": circuit.final_id or "", "open_final": circuit.open_final},
    )
    if form.is_valid():
        try:
            finals.final_set(
                circuit=circuit, user=request.user, client_token=posted_token(request), **form.cleaned_data
            )
        except InvalidInput as error:
            refuse(form, error)
        else:
            messages.success(request, gettext("Final saved"))
            return redirect("circuit_detail", kid=circuit.pk)
    context = {"circuit": circuit, "form": form}
    return render(request, "tournaments/circuit/final.html", context, status=400 if form.errors else 200)


def kept_lists(circuit: Circuit) -> tuple[list[Cup], dict[str, Any]]:
    """The circuit's cups and what a page of §14.7's lists needs: the key of this
    version of the lists (the page's tables are kept under it, ``{% cache %}``) and
    the lists themselves, read from the cache or built only when the page draws them."""
    cup_rows = finals.circuit_cups(circuit)
    context: dict[str, Any] = {
        "kept_key": finals.standings_key(circuit, cup_rows),
        "cache_seconds": caching.SECONDS,
        "standing": SimpleLazyObject(lambda: finals.standings(circuit, cup_rows)),
    }
    return cup_rows, context


def _cup_standing(cup_rows: list[Cup], standing: Any, cid: int) -> Any:
    """The cup's standing (drawn when asked for); a 404 for a cup not of the circuit or not qualifying."""
    found = next((cup for cup in cup_rows if cup.pk == cid), None)
    if found is None:
        raise Http404("no such cup in the circuit")
    if not found.circuit_qualifies:
        raise Http404("this cup does not qualify for the final")
    return SimpleLazyObject(lambda: standing.cup(cid))


@login_required
@require_GET
def circuit_qualification(request: Request, kid: int, cid: int) -> HttpResponse:
    """A cup's qualification list (§14.7): place, name, participations,
    Vorrundenpunkte, "qualifiziert" or the tournaments still missing."""
    circuit, organiser = seen_circuit(request, kid)
    cup_rows, context = kept_lists(circuit)
    context.update(
        {"circuit": circuit, "organiser": organiser, "cup": _cup_standing(cup_rows, context["standing"], cid)}
    )
    context["cup_id"] = cid
    context["cup_row"] = next(cup for cup in cup_rows if cup.pk == cid)
    return _kept_list(request, "tournaments/circuit/qualification.html", context, cup_rows, cid)


def _kept_list(
    request: Request, template: str, context: dict[str, Any], cup_rows: list[Cup], *more: object
) -> HttpResponse:
    """A page of §14.7's lists kept whole per version of the lists, per circuit and
    cup names and per role (organiser or a cup's owner), as a group's season table
    is: a page seen before is one lookup and the tokens put in."""
    circuit = context["circuit"]
    names = (circuit.name, circuit.season, [(cup.pk, cup.name) for cup in cup_rows])
    key = (context["kept_key"], names, context["organiser"], *more)
    return pages.render_kept(request, template, context, key)


@login_required
@require_GET
def circuit_qualification_pdf(request: Request, kid: int, cid: int) -> HttpResponse:
    circuit, _ = seen_circuit(request, kid)
    cup_rows, context = kept_lists(circuit)
    cup = _cup_standing(cup_rows, context["standing"], cid)
    back = reverse("circuit_qualification", args=[kid, cid])
    draw = kept_pdf(
        f"{context['kept_key']}:qualification:{cid}", lambda: printouts.qualification_pdf(circuit, cup)
    )
    return printout(request, draw, back)


@login_required
@require_GET
def circuit_qualified(request: Request, kid: int) -> HttpResponse:
    """The circuit's qualified players by Vorrundenpunkte, each with the cup that gave them."""
    circuit, organiser = seen_circuit(request, kid)
    cup_rows, context = kept_lists(circuit)
    context.update({"circuit": circuit, "organiser": organiser})
    return _kept_list(request, "tournaments/circuit/qualified.html", context, cup_rows)


@login_required
@require_GET
def circuit_qualified_pdf(request: Request, kid: int) -> HttpResponse:
    circuit, _ = seen_circuit(request, kid)
    _, context = kept_lists(circuit)
    standing = context["standing"]
    back = reverse("circuit_qualified", args=[kid])
    return printout(
        request, kept_pdf(f"{context['kept_key']}:qualified", lambda: printouts.qualified_pdf(standing)), back
    )


@login_required
@require_GET
def circuit_gesamtwertung(request: Request, kid: int) -> HttpResponse:
    """The final's Gesamtwertung: Vorrundenpunkte + Finalpunkte, with its tie-breaks."""
    circuit, organiser = seen_circuit(request, kid)
    cup_rows, context = kept_lists(circuit)
    context.update({"circuit": circuit, "organiser": organiser})
    return _kept_list(request, "tournaments/circuit/gesamtwertung.html", context, cup_rows)


@login_required
@require_GET
def circuit_gesamtwertung_pdf(request: Request, kid: int) -> HttpResponse:
    circuit, _ = seen_circuit(request, kid)
    _, context = kept_lists(circuit)
    standing = context["standing"]
    back = reverse("circuit_gesamtwertung", args=[kid])
    draw = kept_pdf(f"{context['kept_key']}:gesamtwertung", lambda: printouts.gesamtwertung_pdf(standing))
    return printout(request, draw, back)


# -- the circuit file (§14.10) ------------------------------------------------------------


@login_required
@require_GET
def circuit_file(request: Request, kid: int) -> HttpResponse:
    """The circuit's season as ``tarockscore-circuit/1`` (what ``write_circuit`` writes)."""
    circuit = run_circuit(request, kid)
    answer = HttpResponse(
        finals.export_text(circuit).encode(), content_type="application/json; charset=utf-8"
    )
    name = slugify(f"{circuit.name}-{circuit.season}") or "circuit"
    answer["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return answer


@accepts_upload(finals.MOST_BYTES)
@login_required
@require_http_methods(["GET", "POST"])
def circuit_file_import(request: Request) -> HttpResponse:
    """A circuit from a circuit file, the importer its owner. Read as
    ``score_circuit`` reads it: a refusal is its one line (400)."""
    error = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload_too_large(request):
                raise circuit_files.too_large()
            data = upload.read(finals.MOST_BYTES + 1) if upload else b""
            made = finals.import_file(owner=request.user, data=data, client_token=posted_token(request))
        except circuit_files.InvalidCircuit as refusal:
            error = refusal.describe(gettext, number)
        except InvalidInput as refusal:
            error = f"{refusal.field}: {render_line(refusal.line)}"
        else:
            return redirect("circuit_detail", kid=made.pk)
    return render(
        request, "tournaments/circuit/file_import.html", {"error": error}, status=400 if error else 200
    )
