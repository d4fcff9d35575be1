// The TypeScript declarations shipped in pkg/, checked by `tsc --noEmit`
// against typed usage files (including what they must refuse), and the
// README's React quick start, type-checked as written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "./support/paths.mjs";

const tsc = path.join(root, "node_modules", ".bin", "tsc");
const typesDir = path.join(root, "tests", "js", "types");

test("the declarations type-check a usage of the whole API", () => {
  const result = spawnSync(tsc, ["-p", typesDir], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

/** Type-checks `source` as a file of its own, under target/ (ignored by git) so that `react` resolves. */
function typeCheck(name, source) {
  const dir = path.join(root, "target", "readme-types", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "example.tsx"), source);
  const config = { extends: path.join(typesDir, "tsconfig.json"), files: ["example.tsx"] };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
  return spawnSync(tsc, ["-p", dir], { encoding: "utf8" });
}

test("the README's React quick start type-checks under --strict", () => {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const example = readme.match(/## React quick start, with typed tools\n[\s\S]*?```tsx\n([\s\S]*?)```/)[1];
  const result = typeCheck("react", example);
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test("the package README's typed-arguments example type-checks under --strict", () => {
  const readme = readFileSync(path.join(root, "pkg-template", "README.md"), "utf8");
  const example = readme.match(/### Typed arguments \(TypeScript\)\n[\s\S]*?```ts\n([\s\S]*?)```/)[1];
  const result = typeCheck("typed", `import { ToolCallTracker } from "agui-tool-calls";\n${example}`);
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
