// Import-to-first-snapshot in headless Chromium, the wasm module embedded
// (gzipped, base64, in a JS module) against a separate .wasm file found by
// `new URL(..., import.meta.url)` and compiled with `compileStreaming`.
// Both variants are made from the built pkg/ (only the loader module and
// the module's form differ) and served gzipped, cacheable for an hour:
//   cold: a fresh browser context (empty HTTP and code caches);
//   warm: the same context reloading the page (HTTP cache, code cache);
// each with and without a throttled network (10 Mbit/s, 40 ms round trip).
// `npm run bench:load` (after `npm run build`).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { launchChromium } from "../tests/js/support/chromium.mjs";
import { embedded } from "../scripts/build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = path.join(root, "pkg");
const RUNS = Number(process.env.RUNS ?? 15);

/** The optimised module, from whichever form pkg/ holds. */
function wasmBytes() {
  const file = path.join(pkg, "agui_tool_calls_bg.wasm");
  if (existsSync(file)) return readFileSync(file);
  const source = readFileSync(path.join(pkg, "wasm-bytes.js"), "utf8");
  return gunzipSync(Buffer.from(source.match(/"([A-Za-z0-9+/=]+)"/)[1], "base64"));
}

const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
const t0 = performance.now();
const { init, ToolCallTracker } = await import("./index.js");
await init();
const tracker = new ToolCallTracker();
tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
window.result = { ms: performance.now() - t0, version: tracker.snapshot().version };
</script>`;

async function variant(name, wasm) {
  const dir = mkdtempSync(path.join(tmpdir(), `agui-load-${name}-`));
  cpSync(pkg, dir, { recursive: true });
  rmSync(path.join(dir, "wasm-bytes.js"), { force: true });
  rmSync(path.join(dir, "agui_tool_calls_bg.wasm"), { force: true });
  cpSync(path.join(root, "js", `wasm-${name}.js`), path.join(dir, "wasm-load.js"));
  if (name === "file") writeFileSync(path.join(dir, "agui_tool_calls_bg.wasm"), wasm);
  else writeFileSync(path.join(dir, "wasm-bytes.js"), await embedded(wasm));
  writeFileSync(path.join(dir, "bench.html"), PAGE);
  return dir;
}

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

/** Serves `dir` gzipped (as a production server would), cacheable. */
async function serve(dir) {
  const cache = new Map();
  const server = createServer((req, res) => {
    const file = path.join(dir, new URL(req.url, "http://x").pathname);
    if (!file.startsWith(dir) || !existsSync(file)) return res.writeHead(404).end();
    if (!cache.has(file)) cache.set(file, gzipSync(readFileSync(file), { level: 9 }));
    res.writeHead(200, {
      "content-type": types[path.extname(file)] ?? "application/octet-stream",
      "content-encoding": "gzip",
      "cache-control": "public, max-age=3600",
    });
    res.end(cache.get(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

async function measure(browser, url, throttled) {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (throttled) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 40,
      downloadThroughput: (10e6 / 8) | 0,
      uploadThroughput: (5e6 / 8) | 0,
    });
  }
  const load = async () => {
    await page.goto(url);
    await page.waitForFunction(() => window.result !== undefined);
    return page.evaluate(() => window.result.ms);
  };
  const cold = await load();
  await page.goto("about:blank");
  await new Promise((r) => setTimeout(r, 200)); // let the code cache be written
  const warm = await load();
  await context.close();
  return { cold, warm };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const wasm = wasmBytes();
const browser = await launchChromium();
const rows = [];
for (const throttled of [false, true]) {
  for (const name of ["embedded", "file"]) {
    const dir = await variant(name, wasm);
    const server = await serve(dir);
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, `${server.url}/bench.html`, throttled));
    await server.close();
    const bytes = name === "file" ? ["wasm-load.js", "agui_tool_calls_bg.wasm"] : ["wasm-load.js", "wasm-bytes.js"];
    const gz = bytes.reduce((n, f) => n + gzipSync(readFileSync(path.join(dir, f)), { level: 9 }).length, 0);
    rmSync(dir, { recursive: true, force: true });
    rows.push({
      network: throttled ? "10 Mbit/s, 40 ms" : "localhost",
      wasm: name,
      "loader + module, gzip": `${(gz / 1024).toFixed(1)} KB`,
      "cold, median": `${median(runs.map((r) => r.cold)).toFixed(1)} ms`,
      "warm, median": `${median(runs.map((r) => r.warm)).toFixed(1)} ms`,
    });
  }
}
await browser.close();
console.log(`import to first snapshot in Chromium, median of ${RUNS} runs each\n`);
console.table(rows);
