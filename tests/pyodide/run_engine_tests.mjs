// The engine's own test suite (tests/engine, tests/koenigrufen/engine) under the pinned Pyodide, in Node:
// the same scoring/engine/ package the phone runs, proven by the same tests as on
// CPython. Run by `make test-pyodide` (part of `make test`):
//
//     node tests/pyodide/run_engine_tests.mjs [pytest arguments…]
//
// The runtime is node_modules/pyodide (npm ci, package-lock.json). pytest and
// Hypothesis are the pure-Python wheels pinned in tests/pyodide/requirements.txt,
// which `make test-pyodide` downloads into var/pyodide-test/ (no network here).
// The repository is mounted read-only in spirit at /repo; tests/conftest.py (Django)
// is not loaded, and Hypothesis gets the same profile it has there (no deadline).
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const wheels = join(repo, "var", "pyodide-test");
if (!existsSync(wheels) || !readdirSync(wheels).some((name) => name.startsWith("pytest-"))) {
  console.error(`no test wheels in ${wheels}: run make test-pyodide`);
  process.exit(2);
}

const started = Date.now();
// EVENING_EXAMPLES: how many random evenings the Evening's property test plays per game.
const examples = process.env.EVENING_EXAMPLES ? { EVENING_EXAMPLES: process.env.EVENING_EXAMPLES } : {};
const pyodide = await loadPyodide({
  env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1", HOME: "/home/pyodide", ...examples },
});
console.log(
  `Pyodide ${pyodide.version} (Python ${pyodide.runPython("import sys; sys.version.split()[0]")}) loaded in ${Date.now() - started} ms`,
);
for (const [source, target] of [
  [repo, "/repo"],
  [wheels, "/wheels"],
]) {
  pyodide.FS.mkdirTree(target);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: source }, target);
}

pyodide.globals.set("ARGS", pyodide.toPy(process.argv.slice(2)));
const code = pyodide.runPython(`
import os, sys, zipfile
os.makedirs("/site", exist_ok=True)
for name in sorted(os.listdir("/wheels")):
    if name.endswith(".whl"):
        zipfile.ZipFile("/wheels/" + name).extractall("/site")
sys.path[:0] = ["/repo", "/site"]
os.chdir("/repo")
sys.dont_write_bytecode = True

# A tenth of each property test's examples (tests/engine/examples.py), the rest as on CPython.
os.environ["TAROCK_EXAMPLES_SCALE"] = "10"
from hypothesis import settings
settings.register_profile("tarockscore", deadline=None, max_examples=10)
settings.load_profile("tarockscore")

import pytest
arguments = list(ARGS) or ["tests/engine", "tests/koenigrufen/engine"]
int(pytest.main(["-q", "-p", "no:cacheprovider", "--noconftest", "-c", "tests/pyodide/pytest.ini", "--rootdir", "/repo", *arguments]))
`);
process.exit(code);
