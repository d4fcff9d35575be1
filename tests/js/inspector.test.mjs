// The HTML report and the inspector page in headless Chromium: both render a
// recording with tool calls and a T8; the inspector's scrubber replays the
// stream; a HAR dropped on the page, and a file picked, are checked in the
// page. Screenshots go to test-output/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { launchChromium } from "./support/chromium.mjs";
import { root, pkgDir } from "./support/paths.mjs";

const cli = path.join(pkgDir, "cli.js");
const streamsDir = path.join(root, "examples", "streams");
const t8 = path.join(streamsDir, "broken-t8-reopen-other-name.jsonl");
const parallel = path.join(streamsDir, "parallel-calls.jsonl");
const har = path.join(streamsDir, "captures", "devtools.har");
const shots = path.join(root, "test-output");
mkdirSync(shots, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), "agui-inspector-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** A page that fails the test on any script error, and records every request. */
async function newPage(options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("request", (r) => requests.push(r.url()));
  return { page, errors, requests, close: () => context.close() };
}

test("the HTML report is one self-contained file: calls, violations linked to events, a timeline with call attribution", async () => {
  const out = path.join(tmp, "report.html");
  const result = spawnSync(process.execPath, [cli, "check", "--format", "html", "-o", out, t8, parallel], { encoding: "utf8" });
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stdout, "", "-o writes the file, not standard output");
  const html = readFileSync(out, "utf8");
  assert.doesNotMatch(html, /<(script|link|img)[^>]+(src|href)=/i, "no external resource");
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);

  for (const scheme of ["light", "dark"]) {
    const { page, errors, requests, close } = await newPage({ colorScheme: scheme });
    await page.goto(pathToFileURL(out).href);
    assert.deepEqual(await page.locator("section.stream h2").allInnerTexts(), [
      `${t8} broken: a fatal error stopped the stream`,
      `${parallel} clean`,
    ]);
    const first = page.locator("section.stream").first();
    assert.deepEqual(await first.locator("table.calls tbody tr td:first-child").allInnerTexts(), ["call_1"]);
    const t8Item = first.locator("ol.violations li", { hasText: "fatal[T8]" });
    assert.match(await t8Item.innerText(), /reopening call "call_1" named "search_docs" as "delete_docs" line 8, event 7/);
    // The violation links to its event's row of the timeline, which carries the mark and the call.
    await t8Item.locator("a").click();
    const row = first.locator("#s0-e7");
    assert.equal(await row.evaluate((el) => el.matches(":target")), true);
    assert.deepEqual(await row.locator("td").allInnerTexts(), ["7", "8", "TOOL_CALL_START", "call_1", "delete_docs", "T8"]);
    assert.equal(await first.locator("table.timeline tbody tr").count(), 8, "the events read, up to the fatal one");
    // Calls are told apart by colour in the timeline of the parallel calls.
    const second = page.locator("section.stream").nth(1);
    const colours = await second.locator("table.timeline .call").evaluateAll((els) => [...new Set(els.map((e) => `${e.textContent} ${getComputedStyle(e).backgroundColor}`))]);
    assert.equal(new Set(colours.map((c) => c.split(" ").slice(1).join(" "))).size, 3, colours.join("; "));
    await first.locator(".only-marked").check();
    assert.equal(await first.locator("table.timeline tbody tr:not([hidden])").count(), 2, "the T6 and the T8 event");
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, scheme === "dark" ? "rgb(22, 24, 28)" : "rgb(255, 255, 255)");
    await page.screenshot({ path: path.join(shots, `report-${scheme}.png`), fullPage: true });
    await page.emulateMedia({ media: "print" });
    assert.equal(await page.locator(".only-marked").first().isVisible(), false, "print hides the controls");
    assert.deepEqual(errors, []);
    assert.deepEqual(requests.filter((u) => !u.startsWith("file:")), [], "no network access");
    await close();
  }
});

/** Starts `inspect` (of the package at `cliPath`); resolves to { url, stop }. */
async function startInspector(files, cliPath = cli) {
  const child = spawn(process.execPath, [cliPath, "inspect", ...files, "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8");
  while (!out.includes("\n")) {
    const [chunk] = await once(child.stdout, "data");
    out += chunk;
  }
  const url = out.split("\n")[0];
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/, "the URL is the first line");
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      const [code] = await once(child, "exit");
      assert.equal(code, 0);
    },
  };
}

test("the inspector checks the given files in the page, and its scrubber replays the stream", async () => {
  // A path relative to the repository, as a user types it: the page (and docs/inspector.png, this screenshot) shows it as given.
  const inspector = await startInspector([path.relative(root, t8)]);
  const { page, errors, requests, close } = await newPage({ viewport: { width: 1200, height: 900 } });
  try {
    await page.goto(inspector.url);
    await page.waitForSelector("body[data-state=ready]");
    assert.equal(await page.locator("#totals").innerText(), "1 stream: 0 clean, 0 with warnings, 0 with violations, 1 fatal");
    const section = page.locator("section.stream").first();
    assert.match(await section.locator("h2").innerText(), /^examples\/streams\/broken-t8-reopen-other-name\.jsonl broken/);
    assert.equal(await section.locator("ol.violations li", { hasText: "fatal[T8]" }).count(), 1);
    assert.equal(await section.locator("tr.marked", { hasText: "T8" }).count(), 1);

    const range = section.locator(".scrub input[type=range]");
    const snapshot = section.locator(".scrub .snapshot");
    assert.equal(await range.getAttribute("max"), "7");
    await range.fill("5"); // after the first ARGS delta: the call is open, its partial value so far
    assert.match(await snapshot.innerText(), /^After event 5 \(line 6, TOOL_CALL_ARGS, call call_1\): run running; pending: none/);
    assert.match(await snapshot.locator(".snap-call").innerText(), /call_1 search_docs open\n\{\n {2}"query": "x"\n\}/);
    assert.equal(await section.locator("tr.current").getAttribute("id"), "s0-e5");
    await range.fill("3"); // back before the call: replayed from the start
    assert.match(await snapshot.innerText(), /^After event 3 .*\nNo tool calls yet\./s);
    await range.fill("6");
    assert.match(await snapshot.locator(".snap-call").innerText(), /call_1 search_docs complete/);
    await range.fill("7"); // the T8: refused, the state stays as it was
    assert.match(await snapshot.locator(".snap-call").innerText(), /call_1 search_docs complete/);
    await range.fill("5");
    await page.screenshot({ path: path.join(shots, "inspector.png"), fullPage: false });
    assert.deepEqual(errors, []);
    assert.deepEqual(requests.filter((u) => !u.startsWith(inspector.url)), [], "nothing leaves the machine");
  } finally {
    await close();
    await inspector.stop();
  }
});

test("the sticky replay panel stays within the window and scrolls inside, leaving its section's controls visible", async () => {
  // Forty calls: a snapshot far taller than a small window.
  const ev = (e) => JSON.stringify(e) + "\n";
  let text = ev({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  for (let i = 0; i < 40; i++) {
    const id = `call_${i}`;
    text += ev({ type: "TOOL_CALL_START", toolCallId: id, toolCallName: "search" }) + ev({ type: "TOOL_CALL_ARGS", toolCallId: id, delta: '{"q":"x"}' }) + ev({ type: "TOOL_CALL_END", toolCallId: id });
  }
  const many = path.join(tmp, "many-calls.jsonl");
  writeFileSync(many, text + ev({ type: "RUN_FINISHED", threadId: "t", runId: "r" }));
  const inspector = await startInspector([many]);
  const { page, errors, close } = await newPage({ viewport: { width: 800, height: 600 } });
  try {
    await page.goto(inspector.url);
    await page.waitForSelector("body[data-state=ready]");
    const panel = page.locator(".scrub").first();
    const box = await panel.boundingBox();
    assert.ok(box.height <= 0.4 * 600 + 1, `the panel is ${box.height}px tall in a 600px window`);
    const inner = await panel.locator(".snapshot").evaluate((e) => ({ scroll: e.scrollHeight, client: e.clientHeight }));
    assert.ok(inner.scroll > inner.client, "the snapshot scrolls inside the panel");
    // Scrolled to the timeline, the panel sticks at the top and the filter below it can still be used.
    const filter = page.locator(".only-marked").first();
    await filter.scrollIntoViewIfNeeded();
    await filter.check();
    assert.equal(await filter.isChecked(), true);
    assert.deepEqual(errors, []);
  } finally {
    await close();
    await inspector.stop();
  }
});

test("a HAR dropped on the inspector, and a file picked, are checked in the page", async () => {
  const inspector = await startInspector([]);
  const { page, errors, requests, close } = await newPage();
  try {
    await page.goto(inspector.url);
    await page.waitForSelector("body[data-state=ready]");
    assert.equal(await page.locator("section.stream").count(), 0);
    const text = readFileSync(har, "utf8");
    await page.evaluate((content) => {
      const data = new DataTransfer();
      data.items.add(new File([content], "devtools.har", { type: "application/json" }));
      document.getElementById("drop").dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    }, text);
    await page.waitForSelector("body[data-checked='2'][data-state=ready]");
    const titles = await page.locator("section.stream h2").allInnerTexts();
    assert.deepEqual(titles, ["devtools.har#2 POST http://127.0.0.1:8787/agent #2 broken: a fatal error stopped the stream", "devtools.har#3 POST http://127.0.0.1:8787/agent?run=2 #3 clean"]);
    assert.match(await page.locator("section.stream").first().locator(".notes").innerText(), /skipped entry 0 \(GET http:\/\/127\.0\.0\.1:5173\/ #0\)/);
    assert.equal(await page.locator("section.stream").first().locator("tr.marked", { hasText: "T8" }).count(), 1);

    await page.setInputFiles("#pick", parallel);
    await page.waitForSelector("body[data-checked='3'][data-state=ready]");
    assert.match(await page.locator("section.stream").nth(2).locator("h2").innerText(), /^parallel-calls\.jsonl clean/);
    assert.equal(await page.locator("#totals").innerText(), "3 streams: 2 clean, 0 with warnings, 0 with violations, 1 fatal");
    await page.screenshot({ path: path.join(shots, "inspector-har.png"), fullPage: true });
    assert.deepEqual(errors, []);
    assert.deepEqual(requests.filter((u) => !u.startsWith(inspector.url)), [], "nothing is uploaded or fetched elsewhere");
    assert.equal(requests.filter((u) => u.includes("/inputs/")).length, 0, "dropped files never go to the server");
  } finally {
    await close();
    await inspector.stop();
  }
});

test("the inspector's server answers loopback names only, takes no data, serves only the package's modules and the named files", async () => {
  const { request } = await import("node:http");
  const inspector = await startInspector([t8]);
  const { port } = new URL(inspector.url);
  const ask = (pathName, { method = "GET", host = `127.0.0.1:${port}` } = {}) =>
    new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: pathName, method, headers: { host } }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode, body, headers: res.headers }));
      });
      req.on("error", reject);
      req.end(method === "POST" ? "data" : undefined);
    });
  try {
    assert.equal((await ask("/inputs/0")).body, readFileSync(t8, "utf8"));
    assert.equal((await ask("/inputs/0", { host: `localhost:${port}` })).status, 200);
    assert.equal((await ask("/inputs/0", { host: `attacker.example:${port}` })).status, 403, "DNS rebinding");
    assert.equal((await ask("/", { method: "POST" })).status, 405);
    assert.equal((await ask("/inputs/1")).status, 404);
    assert.equal((await ask("/pkg/index.js")).status, 200);
    assert.equal((await ask("/pkg/package.json")).status, 404, "modules only");
    assert.equal((await ask("/pkg/%2e%2e/%2e%2e/package.json")).status, 404);
    assert.equal((await ask("/pkg/..%2f..%2fpackage.json")).status, 404);
    const page = await ask("/");
    assert.match(page.headers["content-security-policy"], /default-src 'self'/);
  } finally {
    await inspector.stop();
  }
  // Installed, the package sits in a node_modules of its own: its modules are still served.
  const installed = path.join(tmp, "app", "node_modules", "agui-tool-calls");
  cpSync(pkgDir, installed, { recursive: true });
  const app = await startInspector([], path.join(installed, "cli.js"));
  try {
    const { port: appPort } = new URL(app.url);
    const res = await fetch(`http://127.0.0.1:${appPort}/pkg/check/inspector/page.js`);
    assert.equal(res.status, 200);
  } finally {
    await app.stop();
  }
});

test("inspect --open opens the URL with the system's opener, and without --open nothing is opened", { skip: process.platform !== "linux" }, async () => {
  const bin = path.join(tmp, "bin");
  mkdirSync(bin, { recursive: true });
  const log = path.join(tmp, "opened.txt");
  const opener = path.join(bin, "xdg-open");
  const { writeFileSync, chmodSync, existsSync } = await import("node:fs");
  writeFileSync(opener, `#!/bin/sh\necho "$@" >> ${JSON.stringify(log)}\n`);
  chmodSync(opener, 0o755);
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
  for (const open of [false, true]) {
    const child = spawn(process.execPath, [cli, "inspect", t8, ...(open ? ["--open"] : [])], { env, stdio: ["ignore", "pipe", "pipe"] });
    const [first] = await once(child.stdout, "data");
    const url = String(first).split("\n")[0];
    if (open) {
      for (let i = 0; i < 100 && !existsSync(log); i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(readFileSync(log, "utf8"), `${url}\n`);
    } else {
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(existsSync(log), false, "no browser opened without --open");
    }
    child.kill("SIGTERM");
    await once(child, "exit");
  }
});
