/* The scoring engine on the phone: Pyodide running the release's own
 * scoring/engine/ package (the bundle built by scoring/phone.py), in a
 * SharedWorker kept across a table's pages where the browser can (else a
 * worker per page). Pages ask it by message: {id, init: {runtime, bundle}} once,
 * then {id, call, argument} with a function of scoring/engine/offline.py and its
 * JSON; each answer is {id, result} or {id, error}. */

const engines = new Map(); // bundle address → the engine's call, once loaded

function load(config) {
  if (!engines.has(config.bundle)) {
    engines.set(
      config.bundle,
      (async () => {
        const { loadPyodide } = await import(`${config.runtime}pyodide.mjs`);
        const pyodide = await loadPyodide({ indexURL: config.runtime, fullStdLib: false });
        const bundle = await fetch(config.bundle);
        if (!bundle.ok) throw new Error(`engine bundle: ${bundle.status}`);
        pyodide.unpackArchive(await bundle.arrayBuffer(), "zip", { extractDir: "/engine" });
        pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
        return pyodide.pyimport("scoring.engine.offline").call;
      })(),
    );
    engines.get(config.bundle).catch(() => engines.delete(config.bundle));
  }
  return engines.get(config.bundle);
}

async function handle(reply, message) {
  const { id } = message;
  try {
    if (message.init) {
      await load(message.init);
      reply({ id, result: "ready" });
      return;
    }
    const call = await load(message.config);
    reply({ id, result: JSON.parse(call(message.call, JSON.stringify(message.argument))) });
  } catch (error) {
    reply({ id, error: String(error?.message ? error.message : error) });
  }
}

if (typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope) {
  self.addEventListener("connect", (event) => {
    const port = event.ports[0];
    port.addEventListener("message", (message) => handle((answer) => port.postMessage(answer), message.data));
    port.start();
  });
} else {
  self.addEventListener("message", (message) => handle((answer) => self.postMessage(answer), message.data));
}
