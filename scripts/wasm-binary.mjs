// What the build's passes over the wasm module (wasm-split.mjs,
// wasm-order.mjs, wasm-names.mjs) read and write of the binary format:
// LEB128 numbers, names, sections, imports and exports.

/** Reads a wasm module from `at`. */
export class Bytes {
  /**
   * @param {Uint8Array} wasm
   * @param {number} at
   * @param {number} [end]
   */
  constructor(wasm, at, end = wasm.length) {
    this.wasm = wasm;
    this.at = at;
    this.end = end;
  }

  /** An unsigned LEB128 number. */
  leb() {
    let value = 0;
    let scale = 1;
    let byte;
    do {
      byte = this.wasm[this.at++];
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    return value;
  }

  /** The next `n` bytes. */
  bytes(n) {
    this.at += n;
    return this.wasm.subarray(this.at - n, this.at);
  }

  /** The bytes of an unsigned LEB128 number, as they are. */
  number() {
    const from = this.at;
    this.leb();
    return this.wasm.subarray(from, this.at);
  }

  /** A name's bytes, its length first. */
  name() {
    const from = this.at;
    const length = this.leb();
    this.at += length;
    return this.wasm.subarray(from, this.at);
  }

  /** A name, as text. */
  text() {
    const length = this.leb();
    return Buffer.from(this.bytes(length)).toString();
  }

  /** A table's or memory's limits. */
  limits() {
    const flags = this.wasm[this.at++];
    this.leb();
    if (flags & 1) this.leb();
  }
}

/**
 * Each section of `wasm`, in its order: its id, where its id's byte is
 * (`header`), and where its contents start and end.
 * @param {Uint8Array} wasm
 * @returns {{ id: number, header: number, start: number, end: number }[]}
 */
export function sections(wasm) {
  const out = [];
  const r = new Bytes(wasm, 8);
  while (r.at < wasm.length) {
    const header = r.at;
    const id = wasm[r.at++];
    const size = r.leb();
    out.push({ id, header, start: r.at, end: r.at + size });
    r.at += size;
  }
  return out;
}

/**
 * The items of an import (2) or export (7) section: `module` (an
 * import's), `name`, `kind`, where the item starts, where what follows its
 * names starts (`rest`), and where it ends.
 * @param {Uint8Array} wasm
 * @param {{ id: number, start: number, end: number }} section
 */
export function interfaceItems(wasm, { id, start, end }) {
  const r = new Bytes(wasm, start, end);
  const items = Array.from({ length: r.leb() }, () => {
    const at = r.at;
    const module = id === 2 ? r.text() : undefined;
    const name = r.text();
    const rest = r.at;
    const kind = wasm[r.at++];
    if (id === 7 || kind === 0) r.leb();
    else if (kind === 1) (r.at++, r.limits());
    else if (kind === 2) r.limits();
    else if (kind === 3) r.at += 2;
    else throw new Error(`wasm: an import of kind ${kind}`);
    return { module, name, kind, at, rest, end: r.at };
  });
  if (r.at !== end) throw new Error("wasm: a section does not end where its items do");
  return items;
}

/** `n` as unsigned LEB128. */
export function uleb(n) {
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return Buffer.from(out);
}

/** A name as the binary format writes it: its length, then its UTF-8. */
export function name(text) {
  const bytes = Buffer.from(text);
  return Buffer.concat([uleb(bytes.length), bytes]);
}
