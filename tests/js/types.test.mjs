// The TypeScript declarations shipped in pkg/, checked by `tsc --noEmit`
// against typed usage files (including what they must refuse). The
// READMEs' code blocks: tests/js/readme-types.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./support/paths.mjs";

const tsc = path.join(root, "node_modules", ".bin", "tsc");
const typesDir = path.join(root, "tests", "js", "types");

test("the declarations type-check a usage of the whole API", () => {
  const result = spawnSync(tsc, ["-p", typesDir], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test("the bindings' JS (`// @ts-check`) type-checks against the declarations and the frameworks' types", () => {
  const result = spawnSync(tsc, ["-p", path.join(typesDir, "bindings-js.tsconfig.json")], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
