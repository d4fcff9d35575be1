// The built package in real headless Chromium: a plain module page, and a
// Vite production build with no plugins.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";
import { launchChromium } from "./support/chromium.mjs";
import { serveStatic } from "./support/static-server.mjs";
import { fixturesDir, pkgDir } from "./support/paths.mjs";

let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

async function resultOf(url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.result !== undefined || false, null, { timeout: 10_000 }).catch(() => {});
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

test("loads from a Vite production build without plugins", async () => {
  const app = mkdtempSync(path.join(tmpdir(), "agui-vite-"));
  cpSync(path.join(fixturesDir, "vite-app"), app, { recursive: true });
  mkdirSync(path.join(app, "node_modules"));
  symlinkSync(pkgDir, path.join(app, "node_modules", "agui-tool-calls"), "dir");
  await build({ root: app, logLevel: "error", build: { outDir: path.join(app, "dist") } });
  const server = await serveStatic({ "/": path.join(app, "dist") });
  try {
    const result = await resultOf(`${server.url}/index.html`);
    assert.deepEqual(result, { argsText: '{"q":"vite"}' });
  } finally {
    await server.close();
  }
});
