// The package in default-config production builds of the bundlers the
// README lists, each page run in headless Chromium: the main entry where
// the default target has top-level await (Vite 8, webpack 5), the init
// entry where it has not (Vite 5 and 6, whose builds refuse the main one);
// and the dev servers of the three Vite versions with the same entries.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launchChromium } from "./support/chromium.mjs";
import { serveStatic } from "./support/static-server.mjs";
import { resultOf, viteBuild, viteDev, webpackBuild } from "./support/bundle.mjs";

let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

async function pageResult(dist) {
  const server = await serveStatic({ "/": dist });
  try {
    return await resultOf(browser, `${server.url}/index.html`);
  } finally {
    await server.close();
  }
}

// The main entry starts no warm-up worker (`workers`); the init entry's
// page asks for one: `warmed`, it (js/warm.js) was bundled and ran to its end.
const expected = (entry) => ({ entry, partialArgs: { q: "bund" }, ...(entry === "main" ? { workers: 0 } : { warmed: true }) });

test("vite 8.3.8: the main entry, no configuration", async () => {
  assert.deepEqual(await pageResult(await viteBuild("bundle-main", "vite")), expected("main"));
});

test("vite 8.3.8: the init entry too", async () => {
  assert.deepEqual(await pageResult(await viteBuild("bundle-init", "vite")), expected("init"));
});

test("vite 6.4.6: the init entry, no configuration", async () => {
  assert.deepEqual(await pageResult(await viteBuild("bundle-init", "vite6")), expected("init"));
});

test("vite 5.4.9: the init entry, no configuration", async () => {
  assert.deepEqual(await pageResult(await viteBuild("bundle-init", "vite5")), expected("init"));
});

test("vite 5.4.9 and 6.4.6 refuse the main entry's top-level await (why the init entry exists)", async () => {
  for (const vite of ["vite5", "vite6"]) {
    await assert.rejects(viteBuild("bundle-main", vite), /top-level await/i, vite);
  }
});

test("webpack 5.113: the main entry, no configuration", async () => {
  assert.deepEqual(await pageResult(await webpackBuild("bundle-main")), expected("main"));
});

test("webpack 5.113: the init entry too", async () => {
  assert.deepEqual(await pageResult(await webpackBuild("bundle-init")), expected("init"));
});

// The dev servers of Vite 5 and 6 pre-bundle the package into a directory
// of their own, where the warm-up worker's file is not: the page runs
// without the warm-up (and without an error).
for (const [vite, version, fixture, warmed] of [
  ["vite", "8.3.8", "bundle-main", undefined],
  ["vite", "8.3.8", "bundle-init", true],
  ["vite6", "6.4.6", "bundle-init", "error"],
  ["vite5", "5.4.9", "bundle-init", "error"],
]) {
  test(`vite ${version} dev server: the ${fixture.slice(7)} entry, no configuration`, async () => {
    const server = await viteDev(fixture, vite);
    try {
      const entry = fixture.slice(7);
      assert.deepEqual(await resultOf(browser, `${server.url}/index.html`), entry === "main" ? expected(entry) : { ...expected(entry), warmed });
    } finally {
      await server.close();
    }
  });
}
