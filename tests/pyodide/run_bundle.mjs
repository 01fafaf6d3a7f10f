// The engine bundle as the phone runs it, in Node: the pinned Pyodide
// (node_modules/pyodide) unpacks the bundle as static/js/engine-worker.js does,
// imports scoring.engine.offline and makes one call, its JSON argument read from
// standard input. Writes {"result": …, "loaded": [the files of the scoring
// modules imported]} as JSON. Run by tests/scoring/test_phone.py:
//
//     node tests/pyodide/run_bundle.mjs var/phone/engine-….zip score_table < argument.json
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [bundle, name] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const pyodide = await loadPyodide({ fullStdLib: false });
pyodide.unpackArchive(new Uint8Array(readFileSync(bundle)), "zip", { extractDir: "/engine" });
pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
const call = pyodide.pyimport("scoring.engine.offline").call;
const result = call(name, Buffer.concat(chunks).toString("utf-8"));
const loaded = pyodide.runPython(`
import json, sys
json.dumps(sorted(module.__file__ for name, module in sys.modules.items() if name.split(".")[0] == "scoring"))
`);
process.stdout.write(JSON.stringify({ result: JSON.parse(result), loaded: JSON.parse(loaded) }));
