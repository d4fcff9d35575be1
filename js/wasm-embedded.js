// @ts-check
// Loads the wasm module embedded in the package (gzipped, base64): no file
// to serve, fetch or configure, in any host or bundler. The build makes
// this file, or wasm-file.js, the package's wasm-load.js
// (bench/load.bench.mjs measures both). Nothing runs at import: `init`
// (or, in Node, `loadNow`) starts the work.
import { initSync } from "./agui_tool_calls.js";
import { wasmGzipBase64 } from "./wasm-bytes.js";

let compiled;
let loading;
let ready = false;
let warming;

/** Compiles and instantiates the wasm module, once; later calls return the same promise. */
export function init() {
  if (loading) return loading;
  compiled = gunzip().then((bytes) => WebAssembly.compile(bytes));
  loading = compiled.then((module) => {
    initSync({ module }); // a no-op where `loadNow` got there first
    ready = true;
  });
  return loading;
}

/**
 * Where Node's zlib is at hand (Node 20.16+, 22.3+), compiles and
 * instantiates the module synchronously, for a tracker made before
 * `init()` resolved. Returns whether the module is ready; a browser has no
 * synchronous gunzip, and gets `false`.
 */
export function loadNow() {
  const zlib = nodeZlib();
  if (!ready && zlib) {
    const module = new WebAssembly.Module(zlib.gunzipSync(gzipped()));
    initSync({ module });
    ready = true;
    compiled ??= Promise.resolve(module);
    loading ??= Promise.resolve();
  }
  return ready;
}

/** Whether the module is ready. */
export const initialized = () => ready;

/**
 * Starts `warm(compiled, loaded)`, given the module's promise and the
 * instance's, unless a warm-up started before (then its promise); loads
 * the module first if nothing did. Resolves whether it ran to its end.
 */
export function warmOnce(warm) {
  const loaded = init();
  return (warming ??= warm(compiled, loaded));
}

/** Whether a warm-up ran to its end: resolves once it has ended; `false` when none started. */
export const warmed = () => warming ?? Promise.resolve(false);

// Reached through `process` at run time, so that bundlers see no Node import.
const nodeZlib = () => globalThis.process?.getBuiltinModule?.("node:zlib");

/**
 * The module's gzip bytes, decoded from wasm-bytes.js: the one place that
 * names the embedded string. A minifier that finds it named in two places,
 * or passed as an argument, may copy the string into each (Vite 8's did:
 * an app downloaded the module twice).
 */
function gzipped() {
  return decodeBase64(wasmGzipBase64);
}

async function gunzip() {
  // Node 20.16+ and 22.3+: its zlib, synchronously. Through
  // `DecompressionStream` + `Response`, Node would first load its whole
  // fetch implementation, about 9% of a cold process.
  const zlib = nodeZlib();
  const bytes = gzipped();
  if (zlib) return zlib.gunzipSync(bytes);
  const stream = new Blob([/** @type {BlobPart} */ (bytes)]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

function decodeBase64(base64) {
  // Native where the engine has it (Chromium 140+, Firefox 133+, Safari
  // 18.2+, Node 25+): the loop below runs over every byte, cold, at load.
  const typed = /** @type {typeof Uint8Array & { fromBase64?: (text: string) => Uint8Array }} */ (Uint8Array);
  if (typeof typed.fromBase64 === "function") return typed.fromBase64(base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
