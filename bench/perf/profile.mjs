// Where the steady-state time goes: a V8 CPU profile of ours on the
// scenarios of `npm run bench`, summed by function (self time) and by layer.
//   node bench/perf/profile.mjs [a|b|a-many|b-many|cold ...] [--chromium] [--save DIR]
// (after `npm run build`; --save keeps the .cpuprofile files for DevTools).
// It runs pkg/ with its wasm module re-optimised exactly as the build does
// but keeping the function names (the build strips them), so that the
// core's functions are named in the profile; the JS is pkg/'s, unchanged.
// Each scenario runs in a fresh Node process: the loop of
// bench/perf/measure.mjs (pushSse + snapshot + partialArgs per chunk),
// warmed up, then a few passes under V8's CPU profiler (the one of
// `node --cpu-prof`, started and stopped around the passes alone, sampling
// every 50 µs; \`cold\`: a fresh \`node --cpu-prof\` process, the import
// and the first 1 KB stream); with --chromium, the same in the headless Chromium page
// through the DevTools protocol. Time spent in a V8 builtin or Node's own JS (TextDecoder,
// JSON.parse...) counts for the layer that called it.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { copyTrackerSources, embedded, wasmFeatures, wasmOptLevel } from "../../scripts/build.mjs";
import { renamed, shortNames } from "../../scripts/wasm-names.mjs";
import { oursSse } from "./measure.mjs";
import { oneChunk, scenario, sseChunks } from "./streams.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PASSES = +(process.env.PROFILE_PASSES ?? 5);

/**
 * The chunks of scenario `key`, one event each; `a-many` and `b-many`: the
 * goal's one chunk holding every event up to the last delta.
 */
function chunksOf(key) {
  const [name, many] = key.split("-");
  const events = scenario(name);
  if (many !== "many") return sseChunks(events);
  return [oneChunk(events.slice(0, events.findLastIndex((e) => e.type === "TOOL_CALL_ARGS") + 1))];
}

/** In the profiled process: warm up, then the measured passes under the profiler. */
async function profiled(pkgDir, key) {
  const { ToolCallTracker } = await import(pathToFileURL(path.join(pkgDir, "index.js")).href);
  const chunks = chunksOf(key);
  oursSse(ToolCallTracker, chunks);
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
  for (let i = 0; i < PASSES; i++) oursSse(ToolCallTracker, chunks);
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  return profile;
}

/**
 * A page's first stream: a fresh `node --cpu-prof` process that imports
 * the package and runs the 1 KB stream once, profiled from its start.
 */
function profiledCold(pkgDir) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "agui-cpuprof-"));
  try {
    const flags = ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-interval", "50"];
    const script = path.join(root, "bench", "perf", "cold-node.mjs");
    const child = spawnSync(process.execPath, [...flags, script, "ours", pkgDir], { stdio: ["ignore", "ignore", "inherit"] });
    if (child.status !== 0) throw new Error("profiling the cold stream failed");
    return JSON.parse(readFileSync(path.join(dir, readdirSync(dir)[0]), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
import { init, ToolCallTracker } from "/pkg/index.js";
import { runner } from "/bench/perf/measure.mjs";
await init();
window.bench = runner({ Tracker: ToolCallTracker, ref: null });
</script>`;

/** The same passes in a Chromium page, profiled through the DevTools protocol. */
async function profiledInChromium(pkgDir, key) {
  const { launchChromium } = await import("../../tests/js/support/chromium.mjs");
  const { serveStatic } = await import("../../tests/js/support/static-server.mjs");
  writeFileSync(path.join(pkgDir, "profile.html"), PAGE);
  const server = await serveStatic({ "/pkg/": pkgDir, "/bench/": path.join(root, "bench"), "/": pkgDir });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/profile.html`);
    await page.waitForFunction(() => window.bench !== undefined);
    await page.evaluate((k) => window.bench.run(k, "ours"), key);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
    await cdp.send("Profiler.start");
    for (let i = 0; i < PASSES; i++) await page.evaluate((k) => window.bench.run(k, "ours"), key);
    return (await cdp.send("Profiler.stop")).profile;
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * pkg/ with the build's wasm-opt pass minus the stripping of names (the
 * main entry's module; nor are its functions ordered by likeness, which
 * moves code but not what runs), and the tracker's modules as js/ holds
 * them, unbundled and unminified, so that each layer's time is found by
 * its file.
 */
async function namedPackage() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "agui-profile-"));
  cpSync(path.join(root, "pkg"), dir, { recursive: true });
  // The page's JS as separate files, unminified (the glue is pkg/'s), so
  // that the profile names each layer.
  copyTrackerSources(dir);
  const wasm = path.join(dir, "named.wasm");
  const input = path.join(root, "target", "bindgen", "agui_tool_calls_bg.wasm");
  // -g: keep the names section, which the build strips.
  const opt = spawnSync(path.join(root, "node_modules", ".bin", "wasm-opt"), [...wasmOptLevel, "-g", ...wasmFeatures, input, "-o", wasm], { stdio: "inherit" });
  if (opt.status !== 0) throw new Error("wasm-opt failed");
  // Its imports and exports by the letters the package's glue reads.
  writeFileSync(path.join(dir, "wasm-bytes.js"), await embedded(renamed(readFileSync(wasm), shortNames(readFileSync(input)))));
  return dir;
}

/** The layer of a script of the package (or of the bench), or null for V8's, Node's and others'. */
function layerOf(url) {
  if (url.startsWith("wasm://")) return "wasm core";
  if (url.includes("/bench/")) return "bench loop";
  if (!url.includes("/pkg/") && !url.includes("agui-profile-")) return null;
  const file = path.basename(url);
  if (file === "agui_tool_calls.js") return "boundary: wasm-bindgen glue (strings and bytes in and out)";
  if (file === "snapshot.js" || file === "partial-value.js") return "JS snapshot layer";
  return "boundary: JS API (argument checks, the calls into wasm)";
}

/** Self time by layer and by function, a builtin's time counted for the layer that called it. */
function summarise(profile, key) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const layerOfNode = (id) => {
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const l = layerOf(byId.get(n).callFrame.url);
      if (l) return l;
    }
    const name = byId.get(id).callFrame.functionName;
    return name === "(garbage collector)" ? "garbage collector" : name === "(program)" ? "V8 (program): compiling and engine work" : "other";
  };
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const fns = new Map();
  const layers = new Map();
  let total = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === "(idle)" || functionName === "(root)") continue;
    const layer = layerOfNode(id);
    const where = `${functionName || "(anonymous)"}${url && !url.startsWith("wasm://") ? ` ${path.basename(url)}:${lineNumber + 1}` : ""}`;
    const key2 = `${where}\0${layer}`;
    fns.set(key2, (fns.get(key2) ?? 0) + us);
    layers.set(layer, (layers.get(layer) ?? 0) + us);
    total += us;
  }
  const pct = (us) => `${((us / total) * 100).toFixed(1)}%`;
  const passes = key.startsWith("cold") ? "the import and the first stream" : `${PASSES} passes`;
  console.log(`\n## scenario ${key}: ${(total / 1e3).toFixed(0)} ms sampled over ${passes}\n`);
  console.log("| layer | self time |\n|---|---|");
  for (const [name, us] of [...layers].sort((a, b) => b[1] - a[1])) console.log(`| ${name} | ${pct(us)} |`);
  console.log("\n| function | layer | self time |\n|---|---|---|");
  for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    const [where, layer] = k.split("\0");
    console.log(`| \`${where}\` | ${layer} | ${pct(us)} |`);
  }
  // Inside the core, what each function costs with its callees: the
  // entry points and the phases (decode, plan, apply, the change record).
  const inclusive = new Map();
  profile.samples.forEach((id, i) => {
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const { functionName, url } = byId.get(n).callFrame;
      if (!url.startsWith("wasm://") || seen.has(functionName)) continue;
      seen.add(functionName);
      inclusive.set(functionName, (inclusive.get(functionName) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
  });
  console.log("\n| wasm function | with its callees |\n|---|---|");
  for (const [name, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`| \`${name}\` | ${pct(us)} |`);
}

if (process.argv[2] === "--child") {
  writeFileSync(process.argv[5], JSON.stringify(await profiled(process.argv[3], process.argv[4])));
} else {
  const chromium = process.argv.includes("--chromium");
  const saveAt = process.argv.indexOf("--save");
  const saveDir = saveAt > 0 ? path.resolve(process.argv[saveAt + 1]) : null;
  const args = process.argv.slice(2).filter((a, i) => a !== "--chromium" && i !== saveAt - 2 && i !== saveAt - 1);
  /** Summarises a profile, and keeps it for DevTools with --save DIR. */
  const report = (profile, name) => {
    if (saveDir) writeFileSync(path.join(saveDir, `${name.replace(/\W+/g, "-")}.cpuprofile`), JSON.stringify(profile));
    summarise(profile, name);
  };
  const keys = args.length > 0 ? args : ["a", "b"];
  const pkgDir = await namedPackage();
  try {
    for (const key of keys) {
      if (key === "cold") {
        report(profiledCold(pkgDir), "cold, Node");
        continue;
      }
      if (chromium) {
        report(await profiledInChromium(pkgDir, key), `${key}, Chromium`);
        continue;
      }
      const file = path.join(pkgDir, `${key}.cpuprofile`);
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", pkgDir, key, file], { stdio: "inherit" });
      if (child.status !== 0) throw new Error(`profiling ${key} failed`);
      report(JSON.parse(readFileSync(file, "utf8")), `${key}, Node`);
    }
  } finally {
    rmSync(pkgDir, { recursive: true, force: true });
  }
}
