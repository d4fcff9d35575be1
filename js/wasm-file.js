// Loads the wasm module from the file next to this one, which bundlers
// (Vite, webpack 5, Rollup, esbuild with `new URL` support) emit as a
// separate, cacheable asset: fetched and compiled as it streams in
// browsers, read from disk in Node. The build makes this file, or
// wasm-embedded.js, the package's wasm-load.js (bench/load.bench.mjs
// measures both).
import { initSync } from "./agui_tool_calls.js";
import { warmer } from "./warm.js";

let loading;
let ready = false;

/** Compiles and instantiates the wasm module, once; later calls return the same promise. */
export function init() {
  if (loading) return loading;
  const warm = warmer();
  loading = compile(new URL("./agui_tool_calls_bg.wasm", import.meta.url)).then((module) => {
    initSync({ module });
    ready = true;
    warm(module);
  });
  return loading;
}

/** Whether `init()` has completed. */
export const initialized = () => ready;

export { warmed } from "./warm.js";

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
