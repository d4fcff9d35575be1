// @ts-check
// The warm-up on a worker (`init({ warmUp: "worker" })`): compiles the wasm
// functions a stream runs before a page's first stream, on another thread.
// V8 compiles a wasm function on its first call, on the thread that calls
// it, and a page cannot ask for eager compilation (the compile-hints
// section, `metadata.code.compilation_priority`, is read only behind an
// experimental V8 flag, Chromium 156 included): a page's first stream paid
// about 12 ms of its main thread for it (bench/perf/cold-chromium.mjs).
// A worker sharing the compiled module runs a small stream through it; the
// code V8 compiles there, and the optimised code its tier-up makes, is the
// module's, so the page's own calls find it ready. Loaded only when asked
// for: a page that does not warm up downloads neither this file nor the
// worker's.

/**
 * Starts the warm-up's worker, in a browser page, without waiting for
 * `compiled` (the module): the worker starts up while the page compiles
 * it, then runs `frames` (event-stream bytes) through it. Resolves
 * whether the warm-up ran to its end; anywhere else (Node, a worker), or
 * on a page that refuses the worker (its CSP, a bundler that did not emit
 * the file), resolves `false` and the page loses only the head start.
 */
export function warm(compiled, frames) {
  if (typeof Worker !== "function" || typeof document === "undefined") return Promise.resolve(false);
  return new Promise((resolve) => {
    let worker;
    try {
      // This spelling is what Vite and webpack recognise and bundle.
      worker = new Worker(new URL("./warm-worker.js", import.meta.url), { type: "module" });
    } catch {
      return resolve(false);
    }
    const done = (ok) => (worker.terminate(), resolve(ok));
    worker.onmessage = (e) => done(e.data === true);
    worker.onerror = () => done(false);
    worker.onmessageerror = () => done(false);
    compiled.then((module) => worker.postMessage({ module, frames }), () => done(false));
  });
}
