// The package as npm publishes it: pkg/ packed into a tarball (`npm pack`,
// offline), linted by publint and checked by @arethetypeswrong/cli for
// every entry. The package is ESM only (attw's `esm-only` profile: a CJS
// `require()` of an entry is Node's require of ES modules, which
// init.test.mjs shows works, since no entry awaits at the top level).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pkgDir, root } from "./support/paths.mjs";

const attw = path.join(root, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
let tarball;

before(() => {
  const dir = mkdtempSync(path.join(tmpdir(), "agui-pack-"));
  const packed = spawnSync("npm", ["pack", pkgDir, "--pack-destination", dir, "--offline", "--silent"], { encoding: "utf8" });
  assert.equal(packed.status, 0, packed.stderr);
  tarball = path.join(dir, readdirSync(dir).find((f) => f.endsWith(".tgz")));
});

test("publint finds nothing in the packed tarball", async () => {
  const { publint } = await import("publint");
  const { formatMessage } = await import("publint/utils");
  const bytes = readFileSync(tarball);
  const { messages, pkg } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) }, strict: true });
  assert.deepEqual(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`), []);
});

test("@arethetypeswrong/cli finds no problem in any entry of the packed tarball", () => {
  const result = spawnSync(process.execPath, [attw, tarball, "--profile", "esm-only", "--format", "json"], { encoding: "utf8" });
  const report = JSON.parse(result.stdout);
  // The JSON lists every problem of every mode; the profile leaves out CJS resolution (node16-cjs).
  const problems = Object.values(report.problems ?? {}).flat().filter((p) => p.resolutionKind !== "node16-cjs");
  assert.deepEqual(problems, []);
  // Every entry package.json exports was found and checked, each resolving to its declarations.
  const entries = Object.keys(report.analysis.entrypoints);
  assert.deepEqual(entries.sort(), [".", "./ag-ui", "./angular", "./element", "./full", "./init", "./package.json", "./react", "./svelte", "./vue"]);
  for (const entry of entries.filter((e) => e !== "./package.json")) {
    for (const [mode, resolution] of Object.entries(report.analysis.entrypoints[entry].resolutions)) {
      assert.match(resolution.resolution?.fileName ?? "", /\.d\.ts$/, `${entry} (${mode})`);
    }
  }
  assert.equal(result.status, 0, result.stderr);
});
