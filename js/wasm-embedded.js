// @ts-check
// Loads the wasm module embedded in the package (LZMA, base64): no file
// to serve, fetch or configure, in any host or bundler. The build bundles
// this file, or wasm-file.js, into the package's tracker.js as its
// wasm-load.js (bench/load.bench.mjs measures both). Nothing runs at
// import: `init` (or, in Node, `loadNow`) starts the work.
//
// LZMA, not gzip, with the module's code split by operand first: 13 KB
// less for every page to download (docs/size.md, "The module embedded as
// LZMA" and "The code section split by operand"); no host decodes it, so
// a 4 KB wasm module of the package's own (unpack/) does, synchronously,
// and puts the code back together.
//
// The bytes come from the entry the page imports: wasm-bytes.js (the main
// entry's module) or wasm-bytes-full.js (`agui-tool-calls/full`'s), each
// handing them over by `provide` as it is evaluated. This module imports
// neither, so that a page downloads only the one its entry names.
import { initSync } from "./agui_tool_calls.js";

/** @type {Record<string, [size: number, unpack: string, packed: string]>} */
const sources = {};
/** @type {string | undefined} */
let chosen;

/**
 * Called by a bytes module as it is evaluated: `"main"` or `"full"`, the
 * module's size, its decoder and the module (base64). The full module is
 * the one loaded when both are here. Each argument is read once, so a
 * minifier that inlines this function copies no string: one that finds a
 * string named in two places may copy it into each (Vite 8's did, and an
 * app downloaded the module twice).
 * @param {string} name
 * @param {number} size
 * @param {string} unpack
 * @param {string} packed
 */
export function provide(name, size, unpack, packed) {
  sources[name] = [size, unpack, packed];
}

let compiled;
let loading;
let ready = false;
let warming;

/** Compiles and instantiates the wasm module, once; later calls return the same promise. */
export function init() {
  if (loading) return loading;
  compiled = Promise.resolve().then(() => WebAssembly.compile(unpacked()));
  loading = compiled.then((module) => {
    initSync({ module }); // a no-op where `loadNow` got there first
    ready = true;
  });
  return loading;
}

/**
 * In Node (20.16+, 22.3+), compiles and instantiates the module
 * synchronously, for a tracker made before `init()` resolved. Returns
 * whether the module is ready; a browser gets `false`: compiling the
 * module there would block the page, so it waits for `init()`.
 */
export function loadNow() {
  if (!ready && globalThis.process?.getBuiltinModule) {
    const module = new WebAssembly.Module(unpacked());
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

/** The module the page loads (`"main"` or `"full"`), once chosen: `undefined` before. */
export const loadedModule = () => chosen;

/**
 * The bytes of module `name` (the full one when a page has both),
 * unpacked (exported for the build's check and the benchmarks, not by the
 * package). The bytes are a view of the decoder's memory: compiling
 * copies them, and the decoder is then garbage.
 * @param {string} [name]
 */
export function unpacked(name = (chosen ??= sources.full ? "full" : "main")) {
  const source = sources[name];
  if (!source) throw new Error("agui-tool-calls: import the tracker from the package's main entry or agui-tool-calls/full");
  const [wasmSize, unpackBase64, wasmLzmaBase64] = source;
  const packed = decodeBase64(wasmLzmaBase64);
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(decodeBase64(unpackBase64)));
  const { memory, unpack } = /** @type {{ memory: WebAssembly.Memory, unpack: (at: number, packed: number, size: number) => number }} */ (exports);
  // Past everything the decoder uses: the input, the output, the split
  // module (the output's size and a 64-byte header, see unpack/src/code.rs),
  // then its probabilities (at most 2 * 14,135 bytes, from an even address).
  const at = memory.buffer.byteLength;
  memory.grow(Math.ceil((packed.length + 2 * wasmSize + 64 + 28_272) / 65_536));
  new Uint8Array(memory.buffer, at, packed.length).set(packed);
  if (unpack(at, packed.length, wasmSize) !== 0) throw new Error("agui-tool-calls: the embedded wasm module is corrupt");
  return new Uint8Array(memory.buffer, at + packed.length, wasmSize);
}

/**
 * @param {string} base64
 * @returns {Uint8Array<ArrayBuffer>}
 */
function decodeBase64(base64) {
  // Native where the engine has it (Chromium 140+, Firefox 133+, Safari
  // 18.2+, Node 25+): the loop below runs over every byte, cold, at load.
  const typed = /** @type {typeof Uint8Array & { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }} */ (Uint8Array);
  if (typeof typed.fromBase64 === "function") return typed.fromBase64(base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
