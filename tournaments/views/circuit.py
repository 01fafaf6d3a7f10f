"""The circuit's pages for its organisers (``TOURNAMENTS.md`` §14.1): the circuits
of an account and a new one, a circuit's page, its register (the list only for
its organisers), the CSV import with its preview, the export, merging two
entries, a PIN given once, and a cup joining.

A circuit exists for its organisers and for the owners of its cups (404 for
anyone else); everything of the register is its organisers' alone."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from plumbing.requests import Request, posted_token, whole
from scoring.engine import InvalidInput
from scoring.public import render_line
from tournaments.core.circuit import MAX_IMPORT_BYTES
from tournaments.forms import CircuitForm, RegisterEntryForm, RegisterImportForm, RegisterMergeForm
from tournaments.models import Circuit
from tournaments.services import circuit as circuits
from tournaments.views.organiser import refuse

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
    offered: tuple[object, ...] = ()
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
    entries = _entries(circuit, search)
    context = {"circuit": circuit, "form": form, "offered": offered, "search": search, "entries": entries}
    return render(request, "tournaments/circuit/register.html", context, status=400 if form.errors else 200)


def _entries(circuit: Circuit, search: str) -> list[object]:
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
    """One entry: its aliases, its cups' names, its PIN's state; a new PIN shown once."""
    circuit = run_circuit(request, kid)
    try:
        entry = circuits.entry_find(circuit, number)
    except InvalidInput:
        raise Http404("no such number") from None
    pin = None
    if request.method == "POST":
        try:
            pin = circuits.register_pin_new(
                circuit=circuit, user=request.user, number=entry.number, client_token=posted_token(request)
            )
        except InvalidInput as error:
            messages.error(request, render_line(error.line))
        entry.refresh_from_db()
    context = {"circuit": circuit, "entry": entry, "pin": pin, "blocked": circuits.pin_blocked_now(entry)}
    return render(request, "tournaments/circuit/entry.html", context)


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
