// Loads the wasm module embedded in the package (gzipped, base64): no file
// to serve, fetch or configure, in any host or bundler. The build makes
// this file, or wasm-file.js, the package's wasm-load.js
// (bench/load.bench.mjs measures both).
import { initSync } from "./agui_tool_calls.js";
import { wasmGzipBase64 } from "./wasm-bytes.js";

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
  const compiled = gunzip(wasmGzipBase64).then((bytes) => WebAssembly.compile(bytes));
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

async function gunzip(base64) {
  // Node 20.16+ and 22.3+: its zlib, synchronously. Through
  // `DecompressionStream` + `Response`, Node would first load its whole
  // fetch implementation, about 9% of a cold process. Reached through
  // `process` at run time, so that bundlers see no Node import.
  const zlib = globalThis.process?.getBuiltinModule?.("node:zlib");
  if (zlib) return zlib.gunzipSync(decodeBase64(base64));
  const stream = new Blob([decodeBase64(base64)]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

function decodeBase64(base64) {
  // Native where the engine has it (Chromium 140+, Firefox 133+, Safari
  // 18.2+, Node 25+): the loop below runs over every byte, cold, at import.
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
