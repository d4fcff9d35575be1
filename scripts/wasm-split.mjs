// A wasm module's split form, which the build compresses with LZMA in its
// place: the code section's opcodes in one stream and each kind of operand
// in a stream of its own. Each stream then repeats itself more than the
// interleaved code did, and LZMA finds it: the module's LZMA stream 8%
// smaller (docs/size.md, "The code section split by operand"). The
// package's decoder (unpack/src/code.rs) puts the module back together;
// the layout and the streams are defined there.

import { Bytes, sections } from "./wasm-binary.mjs";

/** The streams, by their index in the split form (unpack/src/code.rs). */
const SIZE = 0;
const LOCALS = 1;
const BLOCK = 2;
const BRANCH = 3;
const BRANCH_IF = 4;
const SET = 5;
const LOCAL = 6;
const GLOBAL = 7;
const STORE = 8;
const OFFSET = 9;
const I32 = 10;
const I64 = 11;
const FLOAT = 12;
const MISC = 13;
const OP = 14;
export const STREAMS = 15;
/** The header: the length of the bytes before the code section's contents, then each stream's, as little-endian u32s. */
export const HEADER = 4 * (1 + STREAMS);

/**
 * The split form of `wasm`, `HEADER` bytes longer than it. Throws on an
 * instruction it does not know (a SIMD one, say), which the decoder could
 * not give back: the build then fails rather than ship it.
 * @param {Uint8Array} wasm
 * @returns {Buffer}
 */
export function split(wasm) {
  const code = sections(wasm).find((section) => section.id === 10);
  if (!code) throw new Error("wasm-split: no code section");
  const streams = Array.from({ length: STREAMS }, () => []);
  const r = new Reader(wasm, code.start, streams);
  const count = r.copyLeb(SIZE);
  for (let f = 0; f < count; f++) {
    const size = r.copyLeb(SIZE);
    const end = r.at + size;
    const declarations = r.copyLeb(LOCALS);
    for (let i = 0; i < declarations; i++) {
      r.copyLeb(LOCALS);
      r.copy(LOCALS, 1);
    }
    while (r.at < end) r.instruction();
    if (r.at !== end) throw new Error(`wasm-split: function ${f} does not end at its size`);
  }
  if (r.at !== code.end) throw new Error("wasm-split: the code section does not end at its size");
  const header = Buffer.alloc(HEADER);
  header.writeUInt32LE(code.start, 0);
  streams.forEach((bytes, i) => header.writeUInt32LE(bytes.length, 4 * (1 + i)));
  return Buffer.concat([header, wasm.subarray(0, code.start), ...streams.map((bytes) => Buffer.from(bytes)), wasm.subarray(code.end)]);
}

/** Reads the code, copying each part to its stream. */
export class Reader extends Bytes {
  constructor(wasm, at, streams) {
    super(wasm, at);
    this.streams = streams;
  }

  /** Copies one LEB128 number to stream `s`; returns it (as unsigned). */
  copyLeb(s) {
    const from = this.at;
    const value = this.leb();
    this.streams[s].push(...this.wasm.subarray(from, this.at));
    return value;
  }

  /** Copies `n` bytes to stream `s`. */
  copy(s, n) {
    this.streams[s].push(...this.wasm.subarray(this.at, this.at + n));
    this.at += n;
  }

  /** The function index of a `call` or `ref.func`: with the opcodes, since a callee follows its call closely. */
  callee() {
    this.copyLeb(OP);
  }

  /** One instruction: its opcode, then each operand to its stream. */
  instruction() {
    const op = this.wasm[this.at];
    this.copy(OP, 1);
    if (op >= 0x02 && op <= 0x04) this.copyLeb(BLOCK);
    else if (op === 0x0c) this.copyLeb(BRANCH);
    else if (op === 0x0d) this.copyLeb(BRANCH_IF);
    else if (op === 0x0e) {
      const targets = this.copyLeb(BRANCH);
      for (let i = 0; i <= targets; i++) this.copyLeb(BRANCH);
    } else if (op === 0x10 || op === 0xd2) this.callee();
    else if (op === 0x11) {
      this.copyLeb(OP);
      this.copyLeb(MISC);
    } else if (op === 0x1c) this.copy(MISC, this.copyLeb(MISC));
    else if (op === 0x20) this.copyLeb(LOCAL);
    else if (op === 0x21 || op === 0x22) this.copyLeb(SET);
    else if (op === 0x23 || op === 0x24) this.copyLeb(GLOBAL);
    else if (op === 0x25 || op === 0x26) this.copyLeb(MISC);
    else if (op >= 0x28 && op <= 0x3e) {
      this.copyLeb(OP);
      this.copyLeb(op >= 0x36 ? STORE : OFFSET);
    } else if (op === 0x3f || op === 0x40 || op === 0xd0) this.copy(MISC, 1);
    else if (op === 0x41) this.copyLeb(I32);
    else if (op === 0x42) this.copyLeb(I64);
    else if (op === 0x43) this.copy(FLOAT, 4);
    else if (op === 0x44) this.copy(FLOAT, 8);
    else if (op === 0xfc) this.prefixed(this.copyLeb(OP));
    else if (!noOperands(op)) throw new Error(`wasm-split: unknown opcode 0x${op.toString(16)} at byte ${this.at - 1}`);
  }

  /** The operands of `0xfc` instruction `sub`. */
  prefixed(sub) {
    if (sub === 8) {
      this.copyLeb(MISC);
      this.copy(MISC, 1);
    } else if (sub === 9 || sub === 13 || (sub >= 15 && sub <= 17)) this.copyLeb(MISC);
    else if (sub === 10) this.copy(MISC, 2);
    else if (sub === 11) this.copy(MISC, 1);
    else if (sub === 12 || sub === 14) {
      this.copyLeb(MISC);
      this.copyLeb(MISC);
    } else if (sub > 7) throw new Error(`wasm-split: unknown instruction 0xfc ${sub}`);
  }
}

/** Whether `op` is an instruction without operands: control, parametric and numeric ones. */
const noOperands = (op) => op <= 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x1a || op === 0x1b || (op >= 0x45 && op <= 0xc4) || op === 0xd1;
