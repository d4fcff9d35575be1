// The built package in real headless Chromium: a plain module page, a
// module worker, a page under a strict CSP, Vite production builds with no
// plugins, and the React hook.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";
import { launchChromium } from "./support/chromium.mjs";
import { serveStatic } from "./support/static-server.mjs";
import { fixturesDir, pkgDir, root } from "./support/paths.mjs";

let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

async function resultOf(url, timeout = 10_000) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.result !== undefined || false, null, { timeout }).catch(() => {});
  const result = await page.evaluate(() => window.result);
  await page.close();
  assert.deepEqual(errors, []);
  return result;
}

test("loads in a plain <script type=module> page", async () => {
  const server = await serveStatic({ "/pkg/": pkgDir, "/": fixturesDir });
  try {
    const result = await resultOf(`${server.url}/module-page.html`);
    assert.deepEqual(result, { argsText: '{"q":"wasm"}', frozen: true });
  } finally {
    await server.close();
  }
});

test("the tracker, round-trip and partial-value suites pass in Chromium too", async () => {
  // The same test files as in Node, with `node:test` and `node:assert/strict`
  // mapped to small browser stand-ins (tests/js/support/in-browser/).
  const server = await serveStatic({ "/pkg/": pkgDir, "/tests/js/": path.join(root, "tests", "js") });
  try {
    const files = ["tracker.test.mjs", "round-trip.test.mjs", "partial-value.test.mjs"].map((f) => `file=${f}`).join("&");
    const results = await resultOf(`${server.url}/tests/js/support/in-browser/suite.html?${files}`, 120_000);
    const failed = results.filter((r) => !r.ok);
    assert.deepEqual(failed, []);
    assert.ok(results.length >= 30, `ran ${results.length} tests`);
  } finally {
    await server.close();
  }
});

test("loads in a module worker", async () => {
  const server = await serveStatic({ "/pkg/": pkgDir, "/": fixturesDir });
  try {
    const result = await resultOf(`${server.url}/worker-page.html`);
    assert.deepEqual(result, { argsText: '{"q":"worker"}' });
  } finally {
    await server.close();
  }
});

test("s6_works_under_a_strict_csp_without_unsafe_eval", async () => {
  // No 'unsafe-eval': the package never calls eval or new Function. Only
  // compiling the wasm module itself needs 'wasm-unsafe-eval'.
  const csp = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'";
  const server = await serveStatic({ "/pkg/": pkgDir, "/": fixturesDir }, { "content-security-policy": csp });
  try {
    const result = await resultOf(`${server.url}/csp-page.html`);
    assert.deepEqual(result, { partialArgs: { q: "csp" } });
  } finally {
    await server.close();
  }
});

/** Builds a fixture app with Vite (no plugins, no config) against pkg/. */
async function viteBuild(fixture) {
  const app = mkdtempSync(path.join(tmpdir(), "agui-vite-"));
  cpSync(path.join(fixturesDir, fixture), app, { recursive: true });
  mkdirSync(path.join(app, "node_modules"));
  symlinkSync(pkgDir, path.join(app, "node_modules", "agui-tool-calls"), "dir");
  for (const dep of ["react", "react-dom", "scheduler"]) {
    symlinkSync(path.join(root, "node_modules", dep), path.join(app, "node_modules", dep), "dir");
  }
  await build({ root: app, logLevel: "error", configFile: false, build: { outDir: path.join(app, "dist") } });
  return path.join(app, "dist");
}

test("loads from a Vite production build without plugins", async () => {
  const server = await serveStatic({ "/": await viteBuild("vite-app") });
  try {
    const result = await resultOf(`${server.url}/index.html`);
    assert.deepEqual(result, { argsText: '{"q":"vite"}' });
  } finally {
    await server.close();
  }
});

test("n1_use_tool_calls_rerenders_only_the_card_of_the_changed_call", async () => {
  const server = await serveStatic({ "/": await viteBuild("react-app") });
  try {
    const { before, after, text } = await resultOf(`${server.url}/index.html`);
    assert.equal(text, 'writer: {"text":"hello"}');
    for (const id of ["a", "b", "c"]) assert.equal(after[id], before[id], `card ${id} did not re-render`);
    assert.equal(after.d, before.d + 4, "the streaming card re-rendered once per delta");
  } finally {
    await server.close();
  }
});
