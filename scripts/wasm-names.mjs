// Short names for what the wasm module imports and exports, in the module
// and in the wasm-bindgen glue alike. wasm-bindgen names an import after
// its JS function and a hash (`__wbg_random_46eecb9854535153`), and an
// export after its Rust item (`wasmtracker_feedArgs`); each is spelled out
// in the module and again in the glue, where a minifier cannot shorten it
// (a property name). One letter each instead: 0.7 KB less on the page
// (docs/size.md, "Short import and export names"). `memory` keeps its name:
// the package's own JS reads it.

import { interfaceItems, name as nameBytes, sections, uleb } from "./wasm-binary.mjs";

/**
 * Each name `wasm` imports (its modules' and functions') or exports, but
 * `memory`, mapped to a short one: the names sorted, then `a`, `b`, ...
 * `Z`, `aa`, ... So two modules with the same imports and exports get the
 * same names, as one glue needs.
 * @param {Uint8Array} wasm
 * @returns {Map<string, string>}
 */
export function shortNames(wasm) {
  const names = new Set();
  for (const item of importsAndExports(wasm)) {
    if (item.module !== undefined) names.add(item.module);
    if (item.name !== "memory") names.add(item.name);
  }
  return new Map([...names].sort().map((name, i) => [name, short(i)]));
}

/**
 * `wasm` with its imports and exports named by `names` (see `shortNames`);
 * a name not in it is kept.
 * @param {Uint8Array} wasm
 * @param {Map<string, string>} names
 * @returns {Buffer}
 */
export function renamed(wasm, names) {
  const parts = [];
  let from = 0;
  const rename = (name) => nameBytes(names.get(name) ?? name);
  for (const section of sections(wasm).filter(({ id }) => id === 2 || id === 7)) {
    const items = interfaceItems(wasm, section);
    const content = [uleb(items.length)];
    for (const item of items) {
      if (item.module !== undefined) content.push(rename(item.module));
      content.push(rename(item.name), wasm.subarray(item.rest, item.end));
    }
    const body = Buffer.concat(content);
    parts.push(wasm.subarray(from, section.header), Buffer.from([section.id]), uleb(body.length), body);
    from = section.end;
  }
  parts.push(wasm.subarray(from));
  return Buffer.concat(parts);
}

/**
 * The wasm-bindgen glue `source` with the module's names replaced by
 * `names`: the exports it reads (`wasm.<name>`), the functions it hands
 * over (the keys of `__wbg_get_imports`'s object) and their module. Throws
 * if a name is left, which would mean the glue's form has changed.
 * @param {string} source
 * @param {Map<string, string>} names
 * @returns {string}
 */
export function renamedGlue(source, names) {
  let out = source;
  for (const [name, to] of names) {
    const word = name.replace(/\./g, "\\.");
    out = out
      .replace(new RegExp(`\\bwasm\\.${word}\\b`, "g"), `wasm.${to}`)
      .replace(new RegExp(`^(\\s*)${word}:`, "gm"), `$1${to}:`)
      .replace(new RegExp(`^(\\s*)"${word}":`, "gm"), `$1"${to}":`);
    if (new RegExp(`(?<![\\w$])${word}(?![\\w$])`).test(out)) {
      throw new Error(`the wasm-bindgen glue names ${name} where scripts/wasm-names.mjs does not rename it: update renamedGlue`);
    }
  }
  return out;
}

/** `i` as a name: a to z, A to Z, then two letters. */
function short(i) {
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  return i < letters.length ? letters[i] : short(Math.floor(i / letters.length) - 1) + letters[i % letters.length];
}

/** The imports and exports of `wasm`, in its order. */
function importsAndExports(wasm) {
  return sections(wasm)
    .filter(({ id }) => id === 2 || id === 7)
    .flatMap((section) => interfaceItems(wasm, section));
}
