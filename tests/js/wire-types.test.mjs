// The contract between the wasm core and the JS layer, type-checked: the
// records' declarations (js/wire.d.ts) are generated from the Rust types
// (src/wire/; a Rust test fails when the file is stale), the JS readers
// (js/snapshot.js, js/tracker.js, js/check/diagnostics.js) read the records
// through them (`// @ts-check`; js/tracker.js imports the wasm-bindgen glue,
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
test("the checker, its reports and the CLI type-check", () => {
  typeCheck("checker-types");
});

// Every JS file of the package says `// @ts-check`, and every one outside
// js/check/ is in the project above or the bindings' (types.test.mjs), so
// none is left unchecked.
test("every JS file is @ts-check and in a type-checked project", () => {
  const files = readdirSync(path.join(root, "js"), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".js"));
  const unchecked = files.filter((f) => !/^(#!.*\n)?\/\/ @ts-check\n/.test(readFileSync(path.join(root, "js", f), "utf8")));
  assert.deepEqual(unchecked, []);
  const listed = new Set(
    ["wire/tsconfig.json", "types/bindings-js.tsconfig.json"].flatMap((p) =>
      JSON.parse(readFileSync(path.join(root, "tests", "js", p), "utf8")).files.map((f) => path.basename(f)),
    ),
  );
  const outside = files.filter((f) => !f.includes(path.sep) && f !== "cli.js" && !listed.has(f));
  assert.deepEqual(outside, []);
});
