// The phone's engine compiled by the phone's own Python: reads {"path": "source", …}
// as JSON on standard input and writes {"path": "<base64 of the .pyc>", …}, each
// module compiled by the pinned Pyodide (node_modules/pyodide) into an
// unchecked-hash .pyc of its Python version (a .pyc loads only on the Python that
// wrote it; the server's CPython is another). Run by scoring/phone.py (build_phone).
import { loadPyodide } from "pyodide";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.globals.set("SOURCES", Buffer.concat(chunks).toString("utf-8"));
const compiled = pyodide.runPython(`
import base64, json
from importlib import _bootstrap_external as external
from importlib.util import source_hash

def compiled(path, source):
    data = source.encode()
    code = compile(data, path, "exec", dont_inherit=True)
    return external._code_to_hash_pyc(code, source_hash(data), checked=False)

json.dumps({path: base64.b64encode(compiled(path, source)).decode() for path, source in json.loads(SOURCES).items()})
`);
process.stdout.write(compiled);
