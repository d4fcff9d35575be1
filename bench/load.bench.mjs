// Import-to-first-snapshot in headless Chromium, the wasm module embedded
// (LZMA, base64, in a JS module: the package's way) against the same
// embedded gzipped (its former way, bench/load/wasm-gzip.js) and against a
// separate .wasm file found by `new URL(..., import.meta.url)` and
// compiled with `compileStreaming`. The variants are made from the built
// pkg/ (only the loader, bundled into tracker.js, and the module's form differ), measured
// in turn in each round, and served gzipped, cacheable for an hour:
//   cold: a fresh browser context (empty HTTP and code caches);
//   warm: the same context reloading the page (HTTP cache, code cache);
// each with and without a throttled network (10 Mbit/s, 40 ms round trip).
// `npm run bench:load` (after `npm run build`).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { launchChromium } from "../tests/js/support/chromium.mjs";
import { embedded, embeddedBytes, fileSource, rebundleTracker } from "../scripts/build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = path.join(root, "pkg");
const RUNS = Number(process.env.RUNS ?? 15);

/** The optimised module, from whichever form pkg/ holds. */
async function wasmBytes() {
  const file = path.join(pkg, "agui_tool_calls_bg.wasm");
  if (existsSync(file)) return readFileSync(file);
  return embeddedBytes(pkg);
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
  // The loader is bundled into the tracker's module, as the build bundles it.
  const loader = name === "gzip" ? path.join(root, "bench", "load", "wasm-gzip.js") : path.join(root, "js", `wasm-${name}.js`);
  await rebundleTracker(dir, loader);
  if (name === "file") {
    writeFileSync(path.join(dir, "agui_tool_calls_bg.wasm"), wasm);
    writeFileSync(path.join(dir, "wasm-bytes.js"), fileSource("main", "agui_tool_calls_bg.wasm"));
  }
  else if (name === "gzip") writeFileSync(path.join(dir, "wasm-bytes.js"), await gzipEmbedded(wasm));
  else writeFileSync(path.join(dir, "wasm-bytes.js"), await embedded(wasm));
  writeFileSync(path.join(dir, "bench.html"), PAGE);
  return dir;
}

/** The former embedding: zopfli's gzip stream, base64. */
async function gzipEmbedded(wasm) {
  const { gzipAsync } = await import("@gfx/zopfli");
  const gzipped = Buffer.from(await gzipAsync(wasm, { numiterations: 15 }));
  return `export const wasmGzipBase64 = "${gzipped.toString("base64")}";\n`;
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

const wasm = await wasmBytes();
const browser = await launchChromium();
const names = ["embedded", "gzip", "file"];
const variants = [];
for (const name of names) {
  const dir = await variant(name, wasm);
  const bytes = name === "file" ? ["tracker.js", "agui_tool_calls_bg.wasm"] : ["tracker.js", "wasm-bytes.js"];
  const gz = bytes.reduce((n, f) => n + gzipSync(readFileSync(path.join(dir, f)), { level: 9 }).length, 0);
  variants.push({ name, dir, gz, server: await serve(dir) });
}
const rows = [];
for (const throttled of [false, true]) {
  const runs = variants.map(() => []);
  // Round by round, each variant in turn: a busy machine slows them alike.
  for (let i = 0; i < RUNS; i++) {
    for (const [k, v] of variants.entries()) runs[k].push(await measure(browser, `${v.server.url}/bench.html`, throttled));
  }
  const base = median(runs[0].map((r) => r.cold));
  for (const [k, v] of variants.entries()) {
    const cold = median(runs[k].map((r) => r.cold));
    rows.push({
      network: throttled ? "10 Mbit/s, 40 ms" : "localhost",
      wasm: v.name === "embedded" ? "embedded, LZMA" : v.name === "gzip" ? "embedded, gzip (before)" : "file",
      "tracker (with the loader) + module, gzip": `${(v.gz / 1024).toFixed(1)} KB`,
      "cold, median": `${cold.toFixed(1)} ms`,
      "cold / LZMA": `${(cold / base).toFixed(2)}x`,
      "warm, median": `${median(runs[k].map((r) => r.warm)).toFixed(1)} ms`,
    });
  }
}
for (const v of variants) {
  await v.server.close();
  rmSync(v.dir, { recursive: true, force: true });
}
await browser.close();
console.log(`import to first snapshot in Chromium, median of ${RUNS} runs each\n`);
console.table(rows);
