/* The pages' side of the engine on the phone (engine-worker.js): starts it,
 * in a SharedWorker that outlives a navigation where the browser has one
 * (extendedLifetime), else in a worker of this page, and asks it to score.
 * A phone that cannot run it (no WebAssembly, too little memory or storage)
 * is told why, and the pages work as before: hands scored by the server. */
"use strict";

self.TarockEngine = (() => {
  let config = null;
  let target = null; // the worker's port
  let started = null;
  let failed = "";
  let loaded = false; // the engine answered its start: it scores at once
  let next = 1;
  const pending = new Map();

  function unsupported() {
    if (typeof WebAssembly !== "object") return "no WebAssembly";
    if (!self.Worker) return "no workers";
    if (navigator.deviceMemory && navigator.deviceMemory < 1) return "too little memory";
    return "";
  }

  async function storageRefused() {
    try {
      const estimate = await navigator.storage?.estimate?.();
      if (estimate?.quota && estimate.quota - (estimate.usage || 0) < 20e6) return "too little storage";
    } catch (_refused) {
      return "storage refused";
    }
    return "";
  }

  function receive(event) {
    const waiting = pending.get(event.data.id);
    if (!waiting) return;
    pending.delete(event.data.id);
    if ("error" in event.data) waiting.reject(new Error(event.data.error));
    else waiting.resolve(event.data.result);
  }

  function post(message) {
    const id = next++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      target.postMessage({ ...message, id, config });
    });
  }

  function connect(address) {
    const options = { type: "module", name: "tarockscore-engine" };
    if (self.SharedWorker) {
      try {
        const shared = new SharedWorker(address, { ...options, extendedLifetime: true });
        shared.port.addEventListener("message", receive);
        shared.port.start();
        return shared.port;
      } catch (_unavailable) {
        // a worker of this page instead
      }
    }
    const own = new Worker(address, options);
    own.addEventListener("message", receive);
    return own;
  }

  // Start the engine (once); resolves when it is ready, rejects with the reason it cannot run.
  function start(engineConfig, workerAddress) {
    if (started) return started;
    config = engineConfig;
    started = (async () => {
      const why = unsupported() || (await storageRefused());
      if (why) throw new Error(why);
      target = connect(workerAddress);
      await post({ init: config });
      return true;
    })();
    started.then(
      () => (loaded = true),
      (error) => (failed = error.message || String(error)),
    );
    return started;
  }

  function call(name, argument) {
    if (!started) return Promise.reject(new Error("not started"));
    return started.then(() => post({ call: name, argument }));
  }

  return {
    start,
    call,
    reason: () => failed,
    ready: () => Boolean(started) && !failed,
    loaded: () => loaded,
  };
})();
