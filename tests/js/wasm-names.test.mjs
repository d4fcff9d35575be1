// The wasm module's imports and exports named by a letter
// (scripts/wasm-names.mjs, which the build runs), in the module and in the
// wasm-bindgen glue alike. The package's own module and glue are checked by
// every other suite, which runs them renamed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renamed, renamedGlue, shortNames } from "../../scripts/wasm-names.mjs";

const section = (id, bytes) => [id, bytes.length, ...bytes];
const vec = (items) => [items.length, ...items.flat()];
const name = (text) => [text.length, ...Buffer.from(text)];

/** A module importing `./glue_bg.js` `__wbg_k_0123`, exporting memory, `double` (2 k()) and `table`; `exportsFirst` lists its exports in another order. */
const module = (exportsFirst = false) => {
  const exports = [[...name("memory"), 2, 0], [...name("double"), 0, 1], [...name("table"), 1, 0]];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, 0, 1, 0x7f]])),
    ...section(2, vec([[...name("./glue_bg.js"), ...name("__wbg_k_0123"), 0, 0]])),
    ...section(3, vec([[0]])),
    ...section(4, vec([[0x70, 0, 1]])),
    ...section(5, vec([[0, 1]])),
    ...section(7, vec(exportsFirst ? exports.reverse() : exports)),
    ...section(10, vec([[7, 0, 0x10, 0, 0x41, 2, 0x6c, 0x0b]])),
  ]);
};

test("every import and export but memory gets a letter, in the names' order", () => {
  assert.deepEqual(
    [...shortNames(module())],
    [
      ["./glue_bg.js", "a"],
      ["__wbg_k_0123", "b"],
      ["double", "c"],
      ["table", "d"],
    ],
  );
  // Another module with the same names gets the same letters, as one glue for two modules needs.
  assert.deepEqual([...shortNames(module(true))], [...shortNames(module())]);
});

test("renamed, the module is the same program under the new names", () => {
  const names = shortNames(module());
  const wasm = renamed(module(), names);
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(wasm), { a: { b: () => 21 } });
  assert.deepEqual(Object.keys(exports).sort(), ["c", "d", "memory"]);
  assert.equal(exports.c(), 42);
  assert.ok(exports.memory instanceof WebAssembly.Memory);
  assert.equal(Buffer.from(wasm).includes("__wbg_k_0123"), false);
});

test("the glue reads and hands over the same names, and a name it would leave fails the build", () => {
  const names = shortNames(module());
  const glue = [
    "function __wbg_get_imports() {",
    "    const import0 = {",
    "        __wbg_k_0123: function() {",
    "            return wasm.double();",
    "        },",
    "    };",
    "    return {",
    '        "./glue_bg.js": import0,',
    "    };",
    "}",
    "const t = wasm.table; const m = wasm.memory;",
  ].join("\n");
  assert.equal(
    renamedGlue(glue, names),
    [
      "function __wbg_get_imports() {",
      "    const import0 = {",
      "        b: function() {",
      "            return wasm.c();",
      "        },",
      "    };",
      "    return {",
    '        "a": import0,',
    "    };",
      "}",
      "const t = wasm.d; const m = wasm.memory;",
    ].join("\n"),
  );
  assert.throws(() => renamedGlue(`${glue}\nconst f = instance.exports.double;`, names), /names double where/);
});
