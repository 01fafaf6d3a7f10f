// Random evenings on the phone's engine, all in one start of the pinned Pyodide
// (node_modules/pyodide): the engine bundle unpacked as static/js/engine-worker.js
// does, tests/engine/evening_play.py put beside it (it imports only the standard
// library and the engine), and every case of a JSON list replayed on the bundle's
// Evening (evening_play.replay_all). Writes {"results": […], "loaded": [the files
// of the modules it imported from the bundle and beside it], "seconds": …} as JSON.
// Run by tests/scoring/test_evening_pyodide.py:
//
//     node tests/pyodide/run_evenings.mjs var/phone/engine-….zip cases.json results.json
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const [bundle, cases, results] = process.argv.slice(2);
const player = join(resolve(dirname(fileURLToPath(import.meta.url)), "..", "engine"), "evening_play.py");
const started = Date.now();
const pyodide = await loadPyodide({ fullStdLib: false });
pyodide.unpackArchive(new Uint8Array(readFileSync(bundle)), "zip", { extractDir: "/engine" });
pyodide.FS.mkdirTree("/player");
pyodide.FS.writeFile("/player/evening_play.py", readFileSync(player));
pyodide.runPython("import sys; sys.path[:0] = ['/engine', '/player']; sys.dont_write_bytecode = True");
const replayAll = pyodide.pyimport("evening_play").replay_all;
const replayed = replayAll(readFileSync(cases, "utf-8"));
const loaded = pyodide.runPython(`
import json, sys
json.dumps(sorted(
    module.__file__ for name, module in sys.modules.items()
    if name.split(".")[0] in ("scoring", "evening_play")
))
`);
writeFileSync(
  results,
  `{"results":${replayed},"loaded":${loaded},"seconds":${(Date.now() - started) / 1000}}`,
);
