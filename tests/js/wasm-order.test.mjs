// The embedded module's functions ordered by likeness (scripts/wasm-order.mjs,
// which the build runs after wasm-opt): the module is the same program,
// every function index renumbered. The package's own module is checked by
// every other suite, which runs it ordered.
import { test } from "node:test";
import assert from "node:assert/strict";
import { likeness, ordered } from "../../scripts/wasm-order.mjs";

const section = (id, bytes) => [id, bytes.length, ...bytes];
const vec = (items) => [items.length, ...items.flat()];
const name = (text) => [text.length, ...Buffer.from(text)];
const body = (code) => [code.length + 1, 0, ...code];

// Functions 1 to 5 (0 is imported): 1 and 3 alike, so that 3 comes second
// and 2 third. The call to 3, the exports and table elements naming 2 and
// 3, a global's reference to 3, the start function (2) and their types in
// the function section all change once ordered.
const bodies = [
  [0x41, 5, 0x41, 6, 0x6a, 0x41, 7, 0x6a, 0x10, 3, 0x6a, 0x0b], // 1: 18 + f3()
  [0x41, 42, 0x24, 0, 0x0b], // 2, the start function: g = 42
  [0x41, 5, 0x41, 6, 0x6a, 0x41, 7, 0x6a, 0x41, 0, 0x10, 4, 0x6a, 0x0b], // 3: 18 + f4(0)
  [0x41, 0xe4, 0x00, 0x0b], // 4, of one parameter: 100
  [0x10, 0, 0x41, 1, 0x6a, 0x0b], // 5: k() + 1
];

/** The module, with an element segment of flags `elementFlags` (0: function indices). */
const module = (elementFlags = 0) =>
  new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, 0, 1, 0x7f], [0x60, 0, 0], [0x60, 1, 0x7f, 1, 0x7f]])), // () -> i32, () -> (), (i32) -> i32
    ...section(2, vec([[...name("env"), ...name("k"), 0, 0]])),
    ...section(3, vec([[0], [1], [0], [2], [0]])),
    ...section(4, vec([[0x70, 0, 2]])),
    ...section(6, vec([[0x7f, 1, 0x41, 0, 0x0b], [0x70, 0, 0xd2, 3, 0x0b]])), // g, and f: a reference to 3
    ...section(7, vec([[...name("a"), 0, 1], [...name("b"), 0, 3], [...name("c"), 0, 4], [...name("d"), 0, 5], [...name("t"), 1, 0], [...name("g"), 3, 0], [...name("f"), 3, 1]])),
    ...section(8, [2]),
    ...section(9, vec([elementFlags === 0 ? [0, 0x41, 0, 0x0b, ...vec([[3], [4]])] : [4, 0x41, 0, 0x0b, ...vec([[0xd2, 3, 0x0b], [0xd2, 4, 0x0b]])]])),
    ...section(10, vec(bodies.map(body))),
  ]);

/** What the module computes, through each way a function is named. */
function run(wasm) {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(wasm), { env: { k: () => 10 } });
  return { a: exports.a(), b: exports.b(), c: exports.c(), d: exports.d(), table: [exports.t.get(0)(), exports.t.get(1)()], g: exports.g.value, f: exports.f.value() };
}

test("ordered, the module computes the same through its calls, exports, table, globals and start function", () => {
  const before = module();
  const after = ordered(before);
  assert.deepEqual(run(before), { a: 136, b: 118, c: 100, d: 11, table: [118, 100], g: 42, f: 118 });
  assert.deepEqual(run(after), run(before));
  // The order did change: the second function is now the one like the first, which calls with a shorter index.
  assert.notDeepEqual(after, Buffer.from(before));
  assert.equal(after.length, before.length);
});

test("each function follows the one most like it, from the first", () => {
  const codes = bodies.map((code) => Uint8Array.from([0, ...code]));
  assert.deepEqual(likeness(codes), [0, 2, 1, 3, 4]);
  assert.deepEqual(likeness([]), []);
});

test("a function index it could not renumber fails the build", () => {
  assert.throws(() => ordered(module(4)), /element segment of expressions/);
  assert.throws(() => ordered(new Uint8Array([...module(), ...section(0, [...name("name"), 1, 1, 0])])), /name section/);
});
