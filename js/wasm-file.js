// @ts-check
// Loads the wasm module from a file next to this one, which bundlers
// (Vite, webpack 5, Rollup, esbuild with `new URL` support) emit as a
// separate, cacheable asset: fetched and compiled as it streams in
// browsers, read from disk in Node. The build bundles this file, or
// wasm-embedded.js, into the package's tracker.js as its wasm-load.js
// (bench/load.bench.mjs measures both). Nothing runs at import.
import { initSync } from "./agui_tool_calls.js";

/** @type {Record<string, URL>} */
const sources = {};

/**
 * Called by a bytes module as it is evaluated (see wasm-embedded.js):
 * `"main"` or `"full"`, and the URL of its `.wasm` file, which it spells
 * `new URL("./<file>", import.meta.url)` for bundlers to find.
 * @param {string} name
 * @param {URL} url
 */
export function provide(name, url) {
  sources[name] = url;
}

/** @type {string | undefined} */
let chosen;

const url = () => {
  const found = sources[(chosen ??= sources.full ? "full" : "main")];
  if (!found) throw new Error("agui-tool-calls: import the tracker from the package's main entry or agui-tool-calls/full");
  return found;
};
let compiled;
let loading;
let ready = false;
let warming;

/** Compiles and instantiates the wasm module, once; later calls return the same promise. */
export function init() {
  if (loading) return loading;
  compiled = compile(url());
  loading = compiled.then((module) => {
    initSync({ module }); // a no-op where `loadNow` got there first
    ready = true;
  });
  return loading;
}

/** In Node, compiles and instantiates the module synchronously (see wasm-embedded.js); whether it is ready. */
export function loadNow() {
  const fs = globalThis.process?.getBuiltinModule?.("node:fs");
  if (!ready && fs && url().protocol === "file:") {
    const module = new WebAssembly.Module(fs.readFileSync(url()));
    initSync({ module });
    ready = true;
    compiled ??= Promise.resolve(module);
    loading ??= Promise.resolve();
  }
  return ready;
}

/** Whether the module is ready. */
export const initialized = () => ready;

/** Starts `warm(compiled, loaded)` unless a warm-up started before (see wasm-embedded.js). */
export function warmOnce(warm) {
  const loaded = init();
  return (warming ??= warm(compiled, loaded));
}

/** Whether a warm-up ran to its end: resolves once it has ended; `false` when none started. */
export const warmed = () => warming ?? Promise.resolve(false);

/** The module the page loads (`"main"` or `"full"`), once chosen: `undefined` before. */
export const loadedModule = () => chosen;

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
