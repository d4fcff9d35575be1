// The cold start in Chromium alone, to compare builds of the package:
//   node bench/perf/cold-chromium.mjs [--samples N] [--profile] [--ref]
//     [--js-flags "FLAGS"] [--warm-up idle|worker|off] DIR [DIR ...]
// Each DIR is a built package (pkg/ or a copy of an older build); each
// sample loads each DIR in turn, in a fresh browser context (empty HTTP and
// code caches), imports it, and runs the first 1 KB stream, timed as
// `npm run bench` times it (the renderer main thread's CPU time, less what
// an empty round trip costs it, as every CPU time here). Prints, per DIR, the medians (min-max) of
// the import (wall clock, and the main thread's CPU time, which includes the
// fetch of the page's modules), of the import to the first snapshot, of the
// main thread's CPU time from the import to the page's being idle, of the
// stream's cost per event, and of the main thread's CPU time of all three
// (import, until idle, stream: what moving work from one to another leaves
// unchanged). With --profile, also a V8 CPU profile of each DIR's last
// stream (the main thread), summed by function. With --ref, @ag-ui/client
// 1.0 as one more arm (bundled as `npm run bench` bundles it), and each
// DIR's per-event ratio to it, taken within each sample. --js-flags passes
// V8 flags to the browser: what the stream costs without a category of
// work (`--no-wasm-lazy-compilation`: no function compiled on its first
// call; with `--no-liftoff` too: the wasm runs optimised from the start).
// Ours is loaded by `init()`, or with --warm-up MODE by
// `init({ warmUp: MODE })` ("idle": a small stream on the page's thread
// once it is idle; "worker": on a worker). Every
// stream starts once the page is idle and ours' warm-up has ended, as a
// first call comes after the page has loaded, as in a chat; what the page
// does meanwhile is in "until idle".
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../../tests/js/support/chromium.mjs";
import { serveStatic } from "../../tests/js/support/static-server.mjs";
import { ISOLATED } from "./thread-time.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const argv = process.argv.slice(2);
const at = argv.indexOf("--samples");
const samples = at >= 0 ? Number(argv[at + 1]) : 7;
const flagsAt = argv.indexOf("--js-flags");
const jsFlags = flagsAt >= 0 ? argv[flagsAt + 1] : undefined;
const profile = argv.includes("--profile");
const withRef = argv.includes("--ref");
const modeAt = argv.indexOf("--warm-up");
const warmUp = modeAt >= 0 ? argv[modeAt + 1] : undefined;
const values = new Set([at, flagsAt, modeAt].filter((i) => i >= 0).map((i) => i + 1));
const dirs = argv.filter((a, i) => !a.startsWith("--") && !values.has(i));
if (dirs.length === 0) dirs.push(path.join(root, "pkg"));
const REF = "@ag-ui/client 1.0";
if (withRef) dirs.push(REF);

const page = (n) => {
  const lib = dirs[n] === REF ? "ref" : "ours";
  const url = lib === "ref" ? "/reference.js" : `/p${n}/index.js`;
  return `<!doctype html><meta charset="utf-8"><script type="module">
try {
  const { coldImport, coldStream } = await import("/bench/perf/measure.mjs");
  const { scenario, sseChunks } = await import("/bench/perf/streams.mjs");
  const chunks = sseChunks(scenario("cold"));
  // The loader's warm-up, where the package has one (older builds do not),
  // re-exported by the tracker's module (older builds: the loader's file).
  const loader = async (name) => import(\`/p${n}/\${name}\`).catch(() => ({}));
  window.warmedUp = async () => ("${lib}" === "ours" ? ((await loader("tracker.js")).warmed ?? (await loader("wasm-load.js")).warmed)?.() : undefined);
  window.load = async () => {
    const { mod, importMs } = await coldImport(async () => {
      const mod = await import("${url}");
      // (A build whose main entry awaited init() at import resolves this at once.)
      if (${lib === "ours"}) await mod.init(${warmUp ? `{ warmUp: "${warmUp}" }` : ""});
      return mod;
    });
    window.stream = async () => ({ importMs, events: chunks.length, ...(await coldStream("${lib}", mod, chunks)) });
  };
} catch (e) { window.failed = String(e.stack ?? e); }
</script>`;
};

const mounts = { "/bench/": path.join(root, "bench") };
dirs.forEach((d, n) => d !== REF && (mounts[`/p${n}/`] = path.resolve(d)));
const pageDir = mkdtempSync(path.join(os.tmpdir(), "agui-cold-"));
if (withRef) {
  const { rolldown } = await import("rolldown");
  const bundle = await rolldown({ input: path.join(root, "bench", "perf", "reference.mjs"), platform: "browser", logLevel: "silent" });
  await bundle.write({ file: path.join(pageDir, "reference.js"), format: "esm", minify: true });
  await bundle.close();
}
dirs.forEach((_, n) => writeFileSync(path.join(pageDir, `cold${n}.html`), page(n)));
mounts["/"] = pageDir;
const server = await serveStatic(mounts, ISOLATED);
const browser = await launchChromium({ args: jsFlags ? [`--js-flags=${jsFlags}`] : [] });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = dirs.map(() => ({ importMs: [], importCpuMs: [], idleCpuMs: [], firstMs: [], perEventUs: [], totalCpuMs: [] }));
const profiles = [];
try {
  for (let s = 0; s < samples; s++) {
    for (let n = 0; n < dirs.length; n++) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      const last = profile && s === samples - 1;
      await tab.goto(`${server.url}/cold${n}.html`);
      await tab.waitForFunction(() => window.load !== undefined || window.failed !== undefined, null, { timeout: 60_000 });
      const failed = await tab.evaluate(() => window.failed);
      if (failed) throw new Error(`${dirs[n]}: ${failed}`);
      await cdp.send("Performance.enable");
      const thread = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime").value * 1e3;
      // What the timing itself costs the thread, as `npm run bench` measures
      // it: the median of empty round trips, taken from each time below.
      const empty = [];
      for (let i = 0; i < 9; i++) {
        const at0 = await thread();
        await tab.evaluate(() => 0);
        empty.push((await thread()) - at0);
      }
      const timed = async (fn) => {
        const at0 = await thread();
        const result = await fn();
        return { result, ms: (await thread()) - at0 - median(empty) };
      };
      results[n].importCpuMs.push((await timed(() => tab.evaluate(() => window.load()))).ms);
      // Until the page is idle, as it is when a first call streams in: any
      // work the import left for later is counted apart.
      const settle = async () => {
        await window.warmedUp();
        await new Promise((resolve) => requestIdleCallback(resolve));
      };
      results[n].idleCpuMs.push((await timed(() => tab.evaluate(settle))).ms);
      if (last) {
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
        await cdp.send("Profiler.start");
      }
      const { result: r, ms } = await timed(() => tab.evaluate(() => window.stream()));
      if (last) profiles[n] = (await cdp.send("Profiler.stop")).profile;
      await context.close();
      results[n].importMs.push(r.importMs);
      results[n].firstMs.push(r.importMs + r.toFirstMs);
      results[n].perEventUs.push((ms * 1e3) / r.events);
      results[n].totalCpuMs.push(results[n].importCpuMs.at(-1) + results[n].idleCpuMs.at(-1) + ms);
    }
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(pageDir, { recursive: true, force: true });
}
const fmt = (xs) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`;
dirs.forEach((d, n) => {
  const r = results[n];
  console.log(`${d}: import ${fmt(r.importMs)} ms (main thread CPU ${fmt(r.importCpuMs)} ms), until idle ${fmt(r.idleCpuMs)} ms CPU, to first snapshot ${fmt(r.firstMs)} ms, first stream ${fmt(r.perEventUs)} µs/event, main thread CPU in all ${fmt(r.totalCpuMs)} ms (${samples} samples${jsFlags ? `, --js-flags=${jsFlags}` : ""}${warmUp ? `, init({ warmUp: "${warmUp}" })` : ""})`);
  if (withRef && d !== REF) {
    const ratios = r.perEventUs.map((us, i) => results.at(-1).perEventUs[i] / us);
    console.log(`  ${REF} / this, per event: ${fmt(ratios)}x`);
  }
  if (profiles[n]) summarise(profiles[n]);
});

/** Self time by function, top 25. */
function summarise({ nodes, samples: ids, timeDeltas }) {
  const byId = new Map(nodes.map((x) => [x.id, x]));
  const self = new Map();
  let total = 0;
  ids.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === "(idle)" || functionName === "(root)") return;
    const key = `${functionName || "(anonymous)"} ${url.startsWith("wasm://") ? "wasm" : `${path.basename(url)}:${lineNumber + 1}`}`;
    self.set(key, (self.get(key) ?? 0) + (timeDeltas[i] ?? 0));
    total += timeDeltas[i] ?? 0;
  });
  console.log(`  profile: ${(total / 1e3).toFixed(1)} ms sampled`);
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(us / 1e3).toFixed(2)} ms  ${k}`);
}
