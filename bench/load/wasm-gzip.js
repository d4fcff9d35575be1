// @ts-check
// The package's former loader, kept for `npm run bench:load` alone: the
// module embedded gzipped (zopfli) and base64, restored by the host's
// `DecompressionStream`. The baseline the LZMA embedding is measured
// against; the same exports as js/wasm-embedded.js.
import { initSync } from "./agui_tool_calls.js";
import { wasmGzipBase64 } from "./wasm-bytes.js";

let compiled;
let loading;
let ready = false;
let warming;

export function init() {
  if (loading) return loading;
  const bytes = Uint8Array.from(atob(wasmGzipBase64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  compiled = new Response(stream).arrayBuffer().then((b) => WebAssembly.compile(b));
  loading = compiled.then((module) => {
    initSync({ module });
    ready = true;
  });
  return loading;
}

export const loadNow = () => ready;
export const initialized = () => ready;
export function warmOnce(warm) {
  const loaded = init();
  return (warming ??= warm(compiled, loaded));
}
export const warmed = () => warming ?? Promise.resolve(false);
