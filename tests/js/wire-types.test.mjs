// The contract between the wasm core and the JS layer, type-checked: the
// records' declarations (js/wire.d.ts) are generated from the Rust types
// (src/wire/; a Rust test fails when the file is stale), the JS readers
// (js/snapshot.js, js/index.js, js/check/diagnostics.js) read the records
// through them (`// @ts-check`; js/index.js imports the wasm-bindgen glue,
// found in pkg/, so this runs after the build), and tests/js/wire/
// contract.ts holds the public declarations of js/index.d.ts to them. So a
// field renamed in Rust, or the fast-path tuple reordered, fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./support/paths.mjs";

const tsc = path.join(root, "node_modules", ".bin", "tsc");

test("the js layer and the public declarations type-check against the generated records", () => {
  const result = spawnSync(tsc, ["-p", path.join(root, "tests", "js", "wire")], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
