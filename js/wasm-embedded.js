// Loads the wasm module embedded in the package (gzipped, base64): no file
// to serve, fetch or configure, in any host or bundler. The build makes
// this file, or wasm-file.js, the package's wasm-load.js
// (bench/load.bench.mjs measures both).
import { initSync } from "./agui_tool_calls.js";
import { wasmGzipBase64 } from "./wasm-bytes.js";

let loading;
let ready = false;

/** Compiles and instantiates the wasm module, once; later calls return the same promise. */
export function init() {
  loading ??= gunzip(wasmGzipBase64)
    .then((bytes) => WebAssembly.compile(bytes))
    .then((module) => {
      initSync({ module });
      ready = true;
    });
  return loading;
}

/** Whether `init()` has completed. */
export const initialized = () => ready;

async function gunzip(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}
