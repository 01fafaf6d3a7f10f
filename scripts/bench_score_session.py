"""Benchmark: ``manage.py score_session`` on a generated 100-hand session, as a whole process.

    .venv/bin/python scripts/bench_score_session.py [--hands 100] [--runs 21]

Each run is a fresh process (interpreter start, imports, reading, scoring,
printing), timed from outside. Two routes, run alternately so that both see the
same machine load:

- ``manage.py score_session FILE``: the engine alone, Django never imported;
- ``manage.py score_session FILE --verbosity 1``: any Django option sends the
  command through Django's start-up, as every run did before.

Python normally caches compiled modules: here the runs keep them in a
throw-away directory (``PYTHONPYCACHEPREFIX``), written by a first run of each
route. ``--no-bytecode`` measures a checkout run with ``PYTHONDONTWRITEBYTECODE``
set: the app's own modules are compiled again on every start (the standard
library's and the installed packages' compiled modules are used as installed).
Prints the median, fastest and slowest run of each. Target: the engine-only
median at most 0.25 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.bench_pdf import generated_session  # noqa: E402

TARGET = 0.25


def run(command: list[str], env: dict[str, str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, cwd=ROOT, env=env, check=False)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"score_session failed: {result.stderr.decode()}")
    return elapsed, result.stdout


def summary(times: list[float]) -> str:
    return f"median {statistics.median(times):.3f} s, fastest {min(times):.3f} s, slowest {max(times):.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--no-bytecode", action="store_true", help="compile every module on every start")
    args = parser.parse_args()

    env = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DEBUG")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPYCACHEPREFIX", None)
    with tempfile.TemporaryDirectory(prefix="tarock-score-") as workdir:
        if args.no_bytecode:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            env["PYTHONPYCACHEPREFIX"] = str(Path(workdir) / "pycache")
        path = Path(workdir) / "session.json"
        path.write_text(json.dumps(generated_session(args.hands, 4)), encoding="utf-8")
        engine = [sys.executable, str(ROOT / "manage.py"), "score_session", str(path)]
        django = [*engine, "--verbosity", "1"]
        if not args.no_bytecode:  # one run of each writes the compiled modules
            run(engine, env)
            run(django, env)
        times: dict[str, list[float]] = {"engine": [], "django": []}
        outputs = set()
        for _ in range(args.runs):
            for route, command in (("engine", engine), ("django", django)):
                elapsed, out = run(command, env)
                times[route].append(elapsed)
                outputs.add(out)
    if len(outputs) != 1:
        sys.exit("the two routes printed different results")
    hands = len(json.loads(outputs.pop())["hands"])
    median = statistics.median(times["engine"])
    verdict = "ok" if median <= TARGET else "over the target"
    cache = "the app's compiled again each run (PYTHONDONTWRITEBYTECODE)" if args.no_bytecode else "cached"
    print(f"hands: {hands}, runs: {args.runs} each, compiled modules: {cache}")
    print(f"engine only:    {summary(times['engine'])}   target ≤ {TARGET} s: {verdict}")
    print(f"through Django: {summary(times['django'])}")


if __name__ == "__main__":
    main()
