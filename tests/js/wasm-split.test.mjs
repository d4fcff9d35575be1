// The embedded module's split form (scripts/wasm-split.mjs, which the build
// compresses) and the package's decoder (unpack/src/code.rs, shipped in
// pkg/wasm-bytes.js): every kind of instruction the split form takes apart
// comes back byte for byte through the loader the package ships. The build
// checks the package's own modules the same way (`checkEmbedding`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { uleb } from "../../scripts/wasm-binary.mjs";
import { HEADER, STREAMS, split } from "../../scripts/wasm-split.mjs";
import { pkgDir } from "./support/paths.mjs";

const { provide, unpacked } = await import(pathToFileURL(path.join(pkgDir, "tracker.js")).href);

// The decoder the package ships: the third argument of `provide` in the main entry's bytes module (minified).
const decoder = /\("main",\d+,"([^"]+)"/.exec(readFileSync(path.join(pkgDir, "wasm-bytes.js"), "utf8"))[1];

const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];
const body = (locals, code) => {
  const bytes = [...uleb(locals.length), ...locals.flat(), ...code];
  return [...uleb(bytes.length), ...bytes];
};

// Every operand kind, with LEB128 numbers of one byte and of several.
const everyKind = [
  [0x02, 0x40], [0x03, 0x7f], [0x04, 0x80, 0x01], // block, loop, if: a value type, none, a type index
  [0x0c, 0x00], [0x0d, 0x81, 0x01], // br, br_if
  [0x0e, 0x02, 0x00, 0x81, 0x01, 0x02], // br_table: two targets and the default
  [0x10, 0xff, 0x01], [0x11, 0x05, 0x00], [0xd2, 0x07], // call, call_indirect, ref.func
  [0x1c, 0x02, 0x7f, 0x6f], // select with types
  [0x20, 0x00], [0x21, 0x80, 0x01], [0x22, 0x03], [0x23, 0x00], [0x24, 0x01], [0x25, 0x00], [0x26, 0x01],
  [0x28, 0x02, 0x80, 0x80, 0x04], [0x36, 0x02, 0x08], [0x3e, 0x01, 0x00], // loads and stores
  [0x3f, 0x00], [0x40, 0x00], // memory.size, memory.grow
  [0x41, 0x7f], [0x41, 0xe5, 0x8e, 0x26], [0x42, 0x80, 0x80, 0x80, 0x80, 0x10], // i32.const, i64.const
  [0x43, 0x00, 0x00, 0x80, 0x3f], [0x44, 0x18, 0x2d, 0x44, 0x54, 0xfb, 0x21, 0x09, 0x40], // f32.const, f64.const
  [0xd0, 0x6f], [0xd1], // ref.null, ref.is_null
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((sub) => [0xfc, sub]), // the saturating truncations
  [0xfc, 0x08, 0x01, 0x00], [0xfc, 0x09, 0x01], [0xfc, 0x0a, 0x00, 0x00], [0xfc, 0x0b, 0x00], // bulk memory
  [0xfc, 0x0c, 0x01, 0x00], [0xfc, 0x0d, 0x01], [0xfc, 0x0e, 0x00, 0x01], [0xfc, 0x0f, 0x00], [0xfc, 0x10, 0x00], [0xfc, 0x11, 0x00], // tables
  [0x6a], [0x45], [0xc4], [0x00], [0x01], [0x05], [0x0f], [0x1a], [0x1b], // no operands
  [0x0b],
].flat();

/** A module: a type section, the code of `bodies`, and a custom section after it. */
const module = (...bodies) =>
  new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 0, 0]),
    ...section(10, [...uleb(bodies.length), ...bodies.flat()]),
    ...section(0, [4, ...Buffer.from("name"), 1, 2, 3]),
  ]);

/** `split` compressed as the build does, then unpacked by the package's loader and decoder. */
function roundTrip(name, splitForm, size) {
  const xz = spawnSync("xz", ["--format=lzma", "--lzma1=preset=9e,lc=1,lp=0,pb=0", "--stdout"], { input: splitForm });
  assert.equal(xz.status, 0, String(xz.stderr));
  provide(name, size, decoder, xz.stdout.toString("base64"));
  return Buffer.from(unpacked(name));
}

test("every kind of instruction comes back byte for byte, locals and sizes of several bytes included", () => {
  const wasm = module(body([[3, 0x7f], [0x81, 0x01, 0x7e]], everyKind), body([], [0x0b]), body([[1, 0x7c]], new Array(200).fill(0x01).concat(0x0b)));
  const splitForm = split(wasm);
  // The header: the bytes before the code section's contents, then each stream's length.
  const [before, ...streams] = Array.from({ length: 1 + STREAMS }, (_, i) => splitForm.readUInt32LE(4 * i));
  const after = section(0, [4, ...Buffer.from("name"), 1, 2, 3]).length;
  assert.equal(splitForm.length, HEADER + wasm.length);
  assert.equal(before + streams.reduce((a, b) => a + b, 0) + after, wasm.length);
  assert.deepEqual([...splitForm.subarray(HEADER, HEADER + before)], [...wasm.subarray(0, before)]);
  // The opcodes are the last stream, with the called functions' indices and
  // nothing else of the first instructions: block types and branch depths
  // are in streams of their own.
  const ops = HEADER + before + streams.slice(0, -1).reduce((a, b) => a + b, 0);
  assert.deepEqual([...splitForm.subarray(ops, ops + 14)], [0x02, 0x03, 0x04, 0x0c, 0x0d, 0x0e, 0x10, 0xff, 0x01, 0x11, 0x05, 0xd2, 0x07, 0x1c]);
  assert.deepEqual(roundTrip("kinds", splitForm, wasm.length), Buffer.from(wasm));
});

test("the package's own decoder comes back too", () => {
  const own = Buffer.from(decoder, "base64");
  assert.deepEqual(roundTrip("decoder", split(own), own.length), own);
});

test("an instruction the decoder would not know fails the split, so the build stops", () => {
  assert.throws(() => split(module(body([], [0xfd, 0x0c, 0x0b]))), /unknown opcode 0xfd/);
  assert.throws(() => split(module(body([], [0xfc, 0x12, 0x00, 0x0b]))), /unknown instruction 0xfc 18/);
});

test("a split form whose streams do not add up is refused as corrupt, not decoded into something else", () => {
  const wasm = module(body([], everyKind));
  const good = split(wasm);
  // One byte moved from the opcodes (the last stream) to the first: the same total, the wrong streams.
  const moved = Buffer.from(good);
  moved.writeUInt32LE(good.readUInt32LE(4) + 1, 4);
  moved.writeUInt32LE(good.readUInt32LE(4 * STREAMS) - 1, 4 * STREAMS);
  assert.throws(() => roundTrip("moved", moved, wasm.length), /the embedded wasm module is corrupt/);
  // The bytes before the code one longer: every stream read from one byte on.
  const shifted = Buffer.from(good);
  shifted.writeUInt32LE(good.readUInt32LE(0) + 1, 0);
  assert.throws(() => roundTrip("shifted", shifted, wasm.length), /the embedded wasm module is corrupt/);
});
