// Compiles the wasm functions a stream runs before a page's first stream,
// on another thread. V8 compiles a wasm function on its first call, on the
// thread that calls it, and a page cannot ask for eager compilation (the
// compile-hints section, `metadata.code.compilation_priority`, is read only
// behind an experimental V8 flag, Chromium 156 included): a page's first
// stream paid about 12 ms of its main thread for it (bench/perf/cold-chromium.mjs).
// A worker sharing the compiled module runs a small stream through it; the
// code V8 compiles there, and the optimised code its tier-up makes, is the
// module's, so the page's own calls find it ready.
let warming = Promise.resolve(false);

/**
 * Starts the warm-up's worker, in a browser page, and returns what hands it
 * the compiled module, without waiting: the worker starts up while the page
 * compiles the module. Anywhere else (Node, a worker) does nothing. A page
 * that refuses the worker (its CSP, a bundler that did not emit the file)
 * loses only the warm-up.
 */
export function warmer() {
  if (typeof Worker !== "function" || typeof document === "undefined") return () => {};
  let worker;
  warming = new Promise((resolve) => {
    try {
      // This spelling is what Vite and webpack recognise and bundle.
      worker = new Worker(new URL("./warm-worker.js", import.meta.url), { type: "module" });
      const done = (ok) => (worker.terminate(), resolve(ok));
      worker.onmessage = (e) => done(e.data === true);
      worker.onerror = () => done(false);
      worker.onmessageerror = () => done(false);
    } catch {
      resolve(false);
    }
  });
  return (module) => worker?.postMessage(module);
}

/** Whether the warm-up ran to its end: resolves once it has ended, or false when none started. */
export const warmed = () => warming;
