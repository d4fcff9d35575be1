// A wasm module with its functions reordered so that each follows the one
// most like it: LZMA then finds more of a function's code in the one just
// before it (docs/size.md, "Functions ordered by likeness"). The module is
// the same program: every function index (calls, `ref.func`, exports,
// table elements, the start function) is renumbered to the new order, and
// imported functions keep theirs.

import { Bytes, interfaceItems, sections as sectionsOf, uleb } from "./wasm-binary.mjs";
import { Reader, STREAMS } from "./wasm-split.mjs";

/**
 * `wasm` with its defined functions in the order `likeness` gives. Throws
 * on a construct whose function indices it would not renumber (an element
 * segment of expressions, say): the build then fails rather than ship a
 * module that calls the wrong functions.
 * @param {Uint8Array} wasm
 * @returns {Buffer}
 */
export function ordered(wasm) {
  const sections = sectionsOf(wasm);
  const imported = importedFunctions(wasm, sections.find((s) => s.id === 2));
  const bodies = functionBodies(wasm, sections.find((s) => s.id === 10));
  const order = likeness(bodies.map((f) => wasm.subarray(f.code, f.end)));
  /** Old function index -> new. */
  const renumber = new Uint32Array(imported + bodies.length);
  for (let i = 0; i < imported; i++) renumber[i] = i;
  order.forEach((old, now) => (renumber[imported + old] = imported + now));
  const rewrite = {
    3: (r) => vector(r, () => r.number(), order),
    6: (r) => vector(r, () => Buffer.concat([r.bytes(2), r.constant(renumber)])),
    7: (r) => vector(r, () => Buffer.concat([r.name(), r.export(renumber)])),
    8: (r) => [r.func(renumber)],
    9: (r) => vector(r, () => r.element(renumber)),
    10: () => [uleb(bodies.length), ...order.map((old) => body(wasm, bodies[old], renumber))],
  };
  const parts = [wasm.subarray(0, 8)];
  for (const { id, start, end } of sections) {
    if (id === 0 && new Bytes(wasm, start, end).text() === "name") throw new Error("wasm-order: a name section would name the wrong functions");
    const content = rewrite[id] ? Buffer.concat(rewrite[id](new Renumbering(wasm, start, end))) : wasm.subarray(start, end);
    parts.push(Buffer.from([id]), uleb(content.length), content);
  }
  return Buffer.concat(parts);
}

/**
 * An order of `codes` (their indices) that puts like code together, as a
 * greedy walk finds it: from the first function, each time the function
 * not yet placed that shares the most three-byte sequences with the last
 * one placed, relative to the two's together (Jaccard). Quadratic in the
 * functions: under 2 s for each of the package's modules, at build.
 * @param {Uint8Array[]} codes
 * @returns {number[]}
 */
export function likeness(codes) {
  const grams = codes.map(trigrams);
  const left = codes.map((_, i) => i);
  const order = [];
  let last = left.shift();
  while (last !== undefined) {
    order.push(last);
    let best = -1;
    let bestShare = -1;
    for (let k = 0; k < left.length; k++) {
      const share = jaccard(grams[last], grams[left[k]]);
      if (share > bestShare) [best, bestShare] = [k, share];
    }
    last = best < 0 ? undefined : left.splice(best, 1)[0];
  }
  return order;
}

/** The distinct three-byte sequences of `code`, sorted. */
function trigrams(code) {
  const out = new Uint32Array(Math.max(0, code.length - 2));
  for (let i = 0; i < out.length; i++) out[i] = (code[i] << 16) | (code[i + 1] << 8) | code[i + 2];
  out.sort();
  return out.filter((g, i) => i === 0 || g !== out[i - 1]);
}

/** |a ∩ b| / |a ∪ b| of two sorted sets. */
function jaccard(a, b) {
  let both = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) (both++, i++, j++);
    else if (a[i] < b[j]) i++;
    else j++;
  }
  const either = a.length + b.length - both;
  return either === 0 ? 0 : both / either;
}

/** How many functions the module imports: they come first in the index space. */
function importedFunctions(wasm, section) {
  return section ? interfaceItems(wasm, section).filter((item) => item.kind === 0).length : 0;
}

/** Each function body of the code section: where its locals start (`code`) and where it ends. */
function functionBodies(wasm, section) {
  if (!section) throw new Error("wasm-order: no code section");
  const r = new Bytes(wasm, section.start, section.end);
  return Array.from({ length: r.leb() }, () => {
    const size = r.leb();
    const code = r.at;
    r.at += size;
    return { code, end: r.at };
  });
}

/** A function body with its callees renumbered, and its new size. */
function body(wasm, { code, end }, renumber) {
  const callees = new Callees(wasm, code, end);
  const parts = [];
  let from = code;
  for (const [at, after, index] of callees.found) {
    parts.push(wasm.subarray(from, at), uleb(renumber[index]));
    from = after;
  }
  parts.push(wasm.subarray(from, end));
  const content = Buffer.concat(parts);
  return Buffer.concat([uleb(content.length), content]);
}

/** Walks one body's code as the split form does, noting where each callee's index is. */
class Callees extends Reader {
  constructor(wasm, code, end) {
    super(wasm, code, Array.from({ length: STREAMS }, () => ({ push() {} })));
    /** @type {[at: number, after: number, index: number][]} */
    this.found = [];
    for (let declarations = this.leb(); declarations > 0; declarations--) (this.leb(), this.at++);
    while (this.at < end) this.instruction();
    if (this.at !== end) throw new Error("wasm-order: a function does not end at its size");
  }

  callee() {
    const at = this.at;
    const index = this.leb();
    this.found.push([at, this.at, index]);
  }
}

/** A section's contents: a vector of `item`s, each the bytes it returns, in `order` if given. */
function vector(r, item, order) {
  const items = Array.from({ length: r.leb() }, item);
  if (r.at !== r.end) throw new Error("wasm-order: a section does not end where its items do");
  return [uleb(items.length), ...(order ? order.map((i) => items[i]) : items)];
}

/** Reads a section's contents, returning what it read, renumbered where it names a function. */
class Renumbering extends Bytes {
  /** A function index, renumbered. */
  func(renumber) {
    const index = this.leb();
    if (index >= renumber.length) throw new Error(`wasm-order: function ${index} does not exist`);
    return uleb(renumber[index]);
  }

  /** An export's kind and index, renumbered if it is a function. */
  export(renumber) {
    const kind = this.wasm[this.at++];
    return Buffer.concat([Buffer.from([kind]), kind === 0 ? this.func(renumber) : uleb(this.leb())]);
  }

  /** A constant expression (a global's value, a segment's offset), `ref.func` renumbered. */
  constant(renumber) {
    const op = this.wasm[this.at++];
    let operand;
    if (op === 0xd2) operand = this.func(renumber);
    else if (op === 0x41 || op === 0x42 || op === 0x23) operand = this.number();
    else if (op === 0x43 || op === 0x44 || op === 0xd0) operand = this.bytes(op === 0x43 ? 4 : op === 0x44 ? 8 : 1);
    else throw new Error(`wasm-order: a constant expression of opcode 0x${op.toString(16)}`);
    if (this.wasm[this.at++] !== 0x0b) throw new Error("wasm-order: a constant expression of more than one instruction");
    return Buffer.concat([Buffer.from([op]), operand, Buffer.from([0x0b])]);
  }

  /** An element segment of function indices (flags 0 to 3), renumbered. */
  element(renumber) {
    const flags = this.leb();
    if (flags > 3) throw new Error(`wasm-order: an element segment of expressions (flags ${flags})`);
    const parts = [uleb(flags)];
    if (flags === 2) parts.push(uleb(this.leb()));
    if (!(flags & 1)) parts.push(this.constant(renumber));
    if (flags & 3) parts.push(this.bytes(1));
    const count = this.leb();
    parts.push(uleb(count));
    for (let i = 0; i < count; i++) parts.push(this.func(renumber));
    return Buffer.concat(parts);
  }
}
