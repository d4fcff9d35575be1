// Every entry of the package (`.`, `/init`, `/react`, `/ag-ui`, `/vue`,
// `/angular`, `/element`) in the default-config production builds and dev
// servers of the bundlers the README lists, each page run in headless
// Chromium: Vite 5, 6 and 8 and webpack 5 (Next.js:
// tests/js/next.test.mjs). The `bundle-entries` app uses them all as a chat
// app on @ag-ui/client does; `bundle-init` asks for the worker warm-up,
// whose file each bundler must emit. `/svelte` ships a component only the
// Svelte compiler's plugin builds: tests/js/svelte.test.mjs (Vite 8).
// `bundle-full` restores a saved thread through `/full`: each app's
// bundle holds its entry's wasm module, once, and not the other.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { launchChromium } from "./support/chromium.mjs";
import { root } from "./support/paths.mjs";
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
    return await resultOf(browser, `${server.url}/index.html`, 30_000, { console: true });
  } finally {
    await server.close();
  }
}

// The app's own warning: one bundle over webpack's 244 KiB hint or Vite's
// 500 kB (React, and @ag-ui/client with its dependencies, are most of it).
// And Vite 8's note that plugin callbacks took most of a build
// ([PLUGIN_TIMINGS]): it times the machine, and a loaded one gets it
// (Vite's own worker plugin, 3.5 s for one call in a 4.1 s build, against
// 0.8 s for the whole build on an idle machine). Any other warning fails
// the build's test.
const packageWarnings = (warnings) =>
  warnings.filter((w) => !/asset size limit|entrypoint size limit|webpack performance recommendations|chunks are larger than 500 kB|\[PLUGIN_TIMINGS\]/.test(w));

// Every entry works, the tracker rendered through the hooks and fed by
// HttpAgent; `init()` started no warm-up worker.
// The Vue, Angular and element bindings show the same call.
const entries = {
  sameModule: true,
  args: { q: "bundled" },
  run: "finished",
  rendered: 'search: {"q":"bundled"}',
  workers: 0,
  bindings: { vue: ["search"], angular: ["search"], element: ["search"] },
};
// The init entry's page asked for the worker warm-up: it was bundled and ran to its end.
const warmed = (warmed) => ({ entry: "init", partialArgs: { q: "bund" }, warmed });

const bundlers = [
  ["vite", "8.3.8"],
  ["vite6", "6.4.6"],
  ["vite5", "5.4.9"],
];

/**
 * The last 64 characters of an embedded module's base64 (the last string
 * its bytes' module hands the loader): the end of its LZMA stream, which
 * depends on everything before it, found once in an app that holds it
 * once (a shorter mark can turn up inside the data by chance). Not the
 * first: the two modules' streams share their header (xz writes no size)
 * and may share the start of their data, as the modules share their first
 * sections.
 */
const markOf = (bytes) => readFileSync(path.join(root, "pkg", bytes), "utf8").match(/"[A-Za-z0-9+/]*([A-Za-z0-9+/]{64})=*"\)/)[1];
const marks = { main: markOf("wasm-bytes.js"), full: markOf("wasm-bytes-full.js") };
assert.notEqual(marks.main, marks.full, "each module has a mark of its own");

/** How many copies of each embedded wasm module (the main entry's, the full one) a build's scripts hold. */
function embeddedCopies(dist) {
  const copies = { main: 0, full: 0 };
  for (const dir of [dist, path.join(dist, "assets")]) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".js"))) {
      const text = readFileSync(path.join(dir, file), "utf8");
      for (const name of Object.keys(copies)) copies[name] += text.split(marks[name]).length - 1;
    }
  }
  return copies;
}

// The full entry's app: the saved thread loaded, the standing approval back.
const full = { standingApprovals: [{ tool: "deploy", toolCallId: "c1" }], bindings: ["function", "function"] };

for (const [vite, version] of bundlers) {
  test(`vite ${version}: every entry, no configuration, no warning`, async () => {
    const warnings = [];
    const dist = await viteBuild("bundle-entries", vite, warnings);
    assert.deepEqual(await pageResult(dist), entries);
    assert.deepEqual(packageWarnings(warnings), []);
    // A minifier that finds the embedded string in two places may copy it into both.
    assert.deepEqual(embeddedCopies(dist), { main: 1, full: 0 }, "the main entry's wasm module is in the bundle once");
  });

  test(`vite ${version}: the full entry, its wasm module alone`, async () => {
    const warnings = [];
    const dist = await viteBuild("bundle-full", vite, warnings);
    assert.deepEqual(await pageResult(dist), full);
    assert.deepEqual(packageWarnings(warnings), []);
    assert.deepEqual(embeddedCopies(dist), { main: 0, full: 1 });
  });

  test(`vite ${version}: the worker warm-up is emitted`, async () => {
    assert.deepEqual(await pageResult(await viteBuild("bundle-init", vite)), warmed(true));
  });
}

test("webpack 5.113: every entry, no configuration, no warning", async () => {
  const warnings = [];
  const dist = await webpackBuild("bundle-entries", warnings);
  assert.deepEqual(await pageResult(dist), entries);
  assert.deepEqual(packageWarnings(warnings), []);
  assert.deepEqual(embeddedCopies(dist), { main: 1, full: 0 }, "the main entry's wasm module is in the bundle once");
});

test("webpack 5.113: the full entry, its wasm module alone", async () => {
  const warnings = [];
  const dist = await webpackBuild("bundle-full", warnings);
  assert.deepEqual(await pageResult(dist), full);
  assert.deepEqual(packageWarnings(warnings), []);
  assert.deepEqual(embeddedCopies(dist), { main: 0, full: 1 });
});

test("webpack 5.113: the worker warm-up is emitted", async () => {
  assert.deepEqual(await pageResult(await webpackBuild("bundle-init")), warmed(true));
});

// The dev servers of Vite 5 and 6 pre-bundle the package into a directory
// of their own, where the warm-up worker's file is not: the page runs
// without the warm-up (and without an error).
for (const [vite, version, warm] of [
  ["vite", "8.3.8", true],
  ["vite6", "6.4.6", "error"],
  ["vite5", "5.4.9", "error"],
]) {
  test(`vite ${version} dev server: every entry, no configuration`, async () => {
    const server = await viteDev("bundle-entries", vite);
    try {
      assert.deepEqual(await resultOf(browser, `${server.url}/index.html`, 60_000, { console: true }), entries);
    } finally {
      await server.close();
    }
  });

  test(`vite ${version} dev server: the worker warm-up`, async () => {
    const server = await viteDev("bundle-init", vite);
    try {
      assert.deepEqual(await resultOf(browser, `${server.url}/index.html`, 60_000), warmed(warm));
    } finally {
      await server.close();
    }
  });
}
