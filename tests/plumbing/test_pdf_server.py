"""One PDF drawing server per machine under gunicorn, one per process elsewhere
(plumbing/pdf.py): what each process draws through, and what happens when the
machine's server is gone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plumbing import pdf

ROOT = Path(__file__).resolve().parents[2]

# A process that draws one PDF and says whether it had to start a server of its own.
DRAW = """
import sys
from plumbing import pdf
data = pdf.html_to_pdf("<p>Tarock</p>")
own = pdf._server.process
sys.stdout.write(f"{data[:4].decode()} {'own' if own is not None else 'machine'}")
if own is not None:
    pdf.stop_drawing_server()
"""


def draw_in_a_new_process(env: dict[str, str]) -> str:
    result = subprocess.run(
        [sys.executable, "-c", DRAW],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def machine_server(monkeypatch):
    monkeypatch.delenv(pdf.SOCKET_ENV, raising=False)
    process = pdf.start_machine_server()
    path = os.environ[pdf.SOCKET_ENV]
    yield process, path
    pdf.stop_machine_server(process)


def test_processes_started_after_the_machines_server_draw_through_it_and_start_none_of_their_own(
    machine_server,
):
    process, path = machine_server
    env = {**os.environ, pdf.SOCKET_ENV: path}
    assert draw_in_a_new_process(env) == "%PDF machine"
    assert draw_in_a_new_process(env) == "%PDF machine"
    assert process.poll() is None  # the drawings were forked from it; it goes on


def test_a_process_whose_machine_server_is_gone_starts_one_of_its_own_and_draws(tmp_path):
    env = {**os.environ, pdf.SOCKET_ENV: str(tmp_path / "gone.sock")}
    assert draw_in_a_new_process(env) == "%PDF own"


def test_without_a_machine_server_a_process_draws_through_its_own(monkeypatch):
    env = {k: v for k, v in os.environ.items() if k != pdf.SOCKET_ENV}
    assert draw_in_a_new_process(env) == "%PDF own"


def test_the_machines_server_limits_its_own_time_and_memory_as_a_process_of_its_own_does(machine_server):
    client = pdf.DrawingServer()
    # A drawing's time counts from its request, a server still starting included: the
    # limits tested here are the drawings', so the server is up first (its start takes
    # 2 s on a quiet machine and over 10 s on a busy one).
    status, answer = client.draw(b"<p>Tarock</p>", 300, pdf.MEMORY_BYTES)
    assert status == pdf.DRAWN, answer
    status, answer = client.draw(b"<p>" + b"Tarock " * 20_000 + b"</p>", 0.2, pdf.MEMORY_BYTES)
    assert status == pdf.TOO_LONG
    status, answer = client.draw(b"<p>" + b"Tarock " * 200_000 + b"</p>", 30, 64 * 1024 * 1024)
    assert status == pdf.FAILED
    status, answer = client.draw(b"<p>Tarock</p>", 30, pdf.MEMORY_BYTES)
    assert status == pdf.DRAWN and answer.startswith(b"%PDF")
    assert client.process is None  # all three through the machine's server


def test_the_machines_server_ends_when_the_process_that_started_it_ends(tmp_path):
    script = (
        "import os, sys, time\n"
        "from plumbing import pdf\n"
        "process = pdf.start_machine_server()\n"
        "print(process.pid, flush=True)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    server = int(result.stdout.split()[0])
    for _ in range(100):  # it looks for its parent once a second
        if not Path(f"/proc/{server}").exists() or "Z" in Path(f"/proc/{server}/stat").read_text().split()[2]:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the drawing server outlived the process that started it")


def test_manage_py_starts_the_drawing_server_first_only_for_a_command_that_prints():
    sys.path.insert(0, str(ROOT))
    import manage

    assert manage.prints(["manage.py", "export_session", "7", "--format", "pdf", "--output", "x.pdf"])
    assert manage.prints(["manage.py", "export_session", "7", "--format=pdf"])
    assert not manage.prints(["manage.py", "export_session", "7", "--format", "json"])
    assert not manage.prints(["manage.py", "migrate", "--format", "pdf"])
    assert not manage.prints(["manage.py"])


def test_export_session_as_a_command_draws_the_pdf(tmp_path):
    env = {
        **{k: v for k, v in os.environ.items() if k != pdf.SOCKET_ENV},
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }

    def manage(*words: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *words],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    manage("migrate", "-v0")
    manage("shell", "-c", "from django.contrib.auth.models import User; User.objects.create_user('carl')")
    session = manage(
        "import_session", str(ROOT / "tests" / "fixtures" / "illustrated-seed-series.json"), "--owner", "carl"
    )
    manage("export_session", session.strip(), "--format", "pdf", "--output", str(tmp_path / "sheet.pdf"))
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
