// The TypeScript declarations shipped in pkg/, checked by `tsc --noEmit`
// against a typed usage file (including what they must refuse).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./support/paths.mjs";

test("the declarations type-check a usage of the whole API", () => {
  const tsc = path.join(root, "node_modules", ".bin", "tsc");
  const result = spawnSync(tsc, ["-p", path.join(root, "tests", "js", "types")], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
