// Loads the wasm module from the file next to this one, which bundlers
// (Vite, webpack 5, Rollup, esbuild with `new URL` support) emit as a
// separate, cacheable asset: fetched and compiled as it streams in
// browsers, read from disk in Node. The build makes this file, or
// wasm-embedded.js, the package's wasm-load.js (bench/load.bench.mjs
// measures both).
import { initSync } from "./agui_tool_calls.js";

let loading;
let ready = false;
let warming = Promise.resolve(false);

/**
 * Compiles and instantiates the wasm module, once; later calls return the
 * same promise. `warmUp` (see `init` in js/index.js): `"worker"` also
 * starts the worker (js/warm.js, loaded only then); `"idle"` then calls
 * `warmIdle`, which resolves whether it warmed this thread.
 */
export function init(warmUp, warmIdle) {
  if (loading) return loading;
  const compiled = compile(new URL("./agui_tool_calls_bg.wasm", import.meta.url));
  if (warmUp === "worker") warming = import("./warm.js").then((m) => m.warm(compiled), () => false);
  loading = compiled.then((module) => {
    initSync({ module });
    ready = true;
  });
  if (warmUp === "idle") warming = loading.then(warmIdle, () => false);
  return loading;
}

/** Whether `init()` has completed. */
export const initialized = () => ready;

/** Whether a warm-up ran to its end: resolves once it has ended; `false` when none started. */
export const warmed = () => warming;

async function compile(url) {
  if (url.protocol === "file:") {
    // Node (fetch reads no file: URLs). A specifier in a variable, ignored
    // by bundlers: browsers never take this branch.
    const fs = "node:fs/promises";
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fs);
    return WebAssembly.compile(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`agui-tool-calls: fetching ${url} failed: HTTP ${response.status}`);
  // A server that does not send application/wasm: compile the bytes.
  if (response.headers.get("content-type")?.split(";")[0].trim() !== "application/wasm") {
    return WebAssembly.compile(await response.arrayBuffer());
  }
  return WebAssembly.compileStreaming(response);
}
