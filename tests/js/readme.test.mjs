// The README's usage example, run as written (against pkg/), with the
// values its comments promise.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root, pkgDir } from "./support/paths.mjs";

test("the README usage example runs and prints what its comments say", async () => {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const example = readme.match(/## Usage\n\n```js\n([\s\S]*?)```/)[1];
  const source = example.replace('from "agui-tool-calls"', `from ${JSON.stringify(pathToFileURL(path.join(pkgDir, "index.js")).href)}`);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "agui-readme-")), "example.mjs");
  writeFileSync(file, source);
  const printed = [];
  const log = console.log;
  console.log = (value) => printed.push(value);
  try {
    await import(pathToFileURL(file).href);
  } finally {
    console.log = log;
  }
  assert.deepEqual(printed, [{ service: "chec" }, "valid", ["user", "assistant", "tool"]]);
  const promised = [...example.matchAll(/console\.log\(.*\); \/\/ (.*)/g)].map((m) => m[1]);
  assert.deepEqual(promised, ["{ service: 'chec' }", "valid", "[ 'user', 'assistant', 'tool' ]"]);
});

test("the READMEs and docs name no path of the machine they were made on", () => {
  // Screenshots too: docs/inspector.png comes from tests/js/inspector.test.mjs, which gives the inspector a relative path.
  const files = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", path.join("pkg-template", "README.md")];
  for (const name of readdirSync(path.join(root, "docs"))) if (name.endsWith(".md")) files.push(path.join("docs", name));
  for (const file of files) {
    assert.doesNotMatch(readFileSync(path.join(root, file), "utf8"), /(^|[\s`'"(])\/(work|root|home|tmp)\//m, file);
  }
});
