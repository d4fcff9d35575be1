// The built package in real headless Chromium: a plain module page, a
// module worker, a page under a strict CSP, Vite production builds with no
// plugins, the React hook, and the @ag-ui/client adapter.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";
import { launchChromium } from "./support/chromium.mjs";
import { serveStatic } from "./support/static-server.mjs";
import { fixturesDir, pkgDir, root } from "./support/paths.mjs";
import { runStarted, runFinished, start, args, end, sse } from "./support/events.mjs";

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

test("loads in a plain <script type=module> page: the main, init and ag-ui entries", async () => {
  const server = await serveStatic({ "/pkg/": pkgDir, "/": fixturesDir });
  try {
    const result = await resultOf(`${server.url}/module-page.html`);
    assert.deepEqual(result, { argsText: '{"q":"wasm"}', frozen: true, entries: true });
  } finally {
    await server.close();
  }
});

test("the tracker, round-trip and partial-value suites pass in Chromium too", async () => {
  // The same test files as in Node, with `node:test` and `node:assert/strict`
  // mapped to small browser stand-ins (tests/js/support/in-browser/).
  // js/ too: the partial-value suite reads the builder from its source
  // (the package bundles it into the main entry).
  const server = await serveStatic({ "/pkg/": pkgDir, "/tests/js/": path.join(root, "tests", "js"), "/js/": path.join(root, "js") });
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

test("the warm-ups: none unless asked for; the page's thread once it is idle, unless a stream began; a worker", async () => {
  // js/warm-up.js (warmWhenIdle) and js/warm.js: each runs a small stream
  // through the module to its end before the page's first; the page's
  // own tracker starts from nothing all the same. A page where no worker
  // may start loses only that; only "worker" constructs one.
  const server = await serveStatic({ "/pkg/": pkgDir, "/": fixturesDir });
  try {
    const page = (query) => resultOf(`${server.url}/warm-page.html${query}`);
    const tracked = { partialArgs: { q: "warm" }, version: 3 };
    assert.deepEqual(await page(""), { ...tracked, warmed: false, workers: 0 });
    assert.deepEqual(await page("?idle"), { ...tracked, warmed: true, workers: 0 });
    assert.deepEqual(await page("?busy"), { ...tracked, warmed: false, workers: 0 });
    assert.deepEqual(await page("?off"), { ...tracked, warmed: false, workers: 0 });
    assert.deepEqual(await page("?worker"), { ...tracked, warmed: true, workers: 1 });
    assert.deepEqual(await page("?later"), { ...tracked, warmed: true, workers: 1 });
    assert.deepEqual(await page("?refused"), { ...tracked, warmed: false, workers: 1 });
  } finally {
    await server.close();
  }
});

test("loads in a module worker: the main, init and ag-ui entries", async () => {
  const server = await serveStatic({ "/pkg/": pkgDir, "/": fixturesDir });
  try {
    const result = await resultOf(`${server.url}/worker-page.html`);
    assert.deepEqual(result, { argsText: '{"q":"worker"}', entries: true });
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

test("f5_track_agent_with_an_http_agent_in_chromium", async () => {
  const app = mkdtempSync(path.join(tmpdir(), "agui-vite-"));
  cpSync(path.join(fixturesDir, "ag-ui-app"), app, { recursive: true });
  mkdirSync(path.join(app, "node_modules"));
  symlinkSync(pkgDir, path.join(app, "node_modules", "agui-tool-calls"), "dir");
  symlinkSync(path.join(root, "node_modules", "@ag-ui"), path.join(app, "node_modules", "@ag-ui"), "dir");
  await build({ root: app, logLevel: "error", configFile: false, build: { outDir: path.join(app, "dist") } });
  // The agent: the first run asks through confirm_deploy, the second replies; CORS for the page's origin.
  const inputs = [];
  const bodies = [
    (i) => [runStarted(i.runId, { threadId: i.threadId }), start("c1", "confirm_deploy", { parentMessageId: "a1" }), args("c1", "{}"), end("c1"), runFinished(i.runId, { threadId: i.threadId })],
    (i) => [runStarted(i.runId, { threadId: i.threadId }), { type: "TEXT_MESSAGE_START", messageId: "a2", role: "assistant" }, { type: "TEXT_MESSAGE_CONTENT", messageId: "a2", delta: "Deployed." }, { type: "TEXT_MESSAGE_END", messageId: "a2" }, runFinished(i.runId, { threadId: i.threadId })],
  ];
  const agent = createServer((req, res) => {
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type, accept" };
    if (req.method === "OPTIONS") return res.writeHead(204, cors).end();
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const input = JSON.parse(body);
      inputs.push(input);
      res.writeHead(200, { "content-type": "text/event-stream", ...cors });
      res.end(sse(bodies[inputs.length - 1](input)));
    });
  });
  await new Promise((resolve) => agent.listen(0, "127.0.0.1", resolve));
  const server = await serveStatic({ "/": path.join(app, "dist") });
  try {
    const result = await resultOf(`${server.url}/index.html?agent=${encodeURIComponent(`http://127.0.0.1:${agent.address().port}/agent`)}`, 30_000);
    assert.deepEqual(result, {
      run: "finished",
      fatal: null,
      calls: [["c1", "complete", "approved"]],
      roles: ["user", "assistant", "tool", "user", "assistant"],
      left: 0,
    });
    assert.equal(inputs.length, 2);
    assert.deepEqual(inputs[1].messages.map((m) => m.role), ["user", "assistant", "tool", "user"]);
  } finally {
    await server.close();
    agent.closeAllConnections();
    await new Promise((resolve) => agent.close(resolve));
  }
});
