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
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./support/paths.mjs";

const tsc = path.join(root, "node_modules", ".bin", "tsc");

function typeCheck(project) {
  const result = spawnSync(tsc, ["-p", path.join(root, "tests", "js", project)], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stdout + result.stderr);
}

test("the js layer and the public declarations type-check against the generated records", () => {
  typeCheck("wire");
});

// The checker and its CLI run in Node (and the inspector's page in a
// browser): every file is `// @ts-check` (the pragma, not `checkJs`, so the
// generated wasm-bindgen glue they import is not held to it), against Node's
// declarations.
test("the checker, its reports and the CLI type-check, every file of them", () => {
  const files = [path.join("js", "cli.js"), ...readdirSync(path.join(root, "js", "check"), { recursive: true }).map((f) => path.join("js", "check", String(f)))];
  const unchecked = files.filter((f) => f.endsWith(".js") && !/^(#!.*\n)?\/\/ @ts-check\n/.test(readFileSync(path.join(root, f), "utf8")));
  assert.deepEqual(unchecked, []);
  typeCheck("checker-types");
});
