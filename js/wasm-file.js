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
 * same promise. `warm(compiled, loaded)`, given the module's promise and
 * the instance's, starts the warm-up (`init` in js/index.js) and resolves
 * whether it ran to its end.
 */
export function init(warm) {
  if (loading) return loading;
  const compiled = compile(new URL("./agui_tool_calls_bg.wasm", import.meta.url));
  loading = compiled.then((module) => {
    initSync({ module });
    ready = true;
  });
  warming = warm(compiled, loading);
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
