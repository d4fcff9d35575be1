// The goal's pipeline one layer at a time, per event, against the floor:
// the wasm core alone (`WasmTracker.feedSse` + `takeChange`, and
// `takeRecord` when there is a record: no JS layer), `pushSse` alone (the
// JS layer makes each snapshot; nothing reads it), and the pipeline of
// `npm run bench` (`pushSse` + `snapshot()` + the open call's
// `partialArgs`), each chunk one event, on the streams a, b and c.
//   node bench/perf/layers.mjs [<pkg>] [--chromium]   (default: pkg/, after `npm run build`)
// The four loops (bench/perf/layer-loops.mjs) interleaved round by round,
// median of 9 rounds after 3, as ours / floor. In Node the process's CPU
// time (process.cpuUsage); with --chromium the renderer main thread's, as
// `npm run bench` times it, each loop repeating its pass for at least
// 25 ms a round.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { layerLoops } from "./layer-loops.mjs";
import { cpuTime, median } from "./measure.mjs";
import { scenario, sseChunks } from "./streams.mjs";
import { ISOLATED, MIN_CALL_MS, threadTimer } from "./thread-time.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const dir = path.resolve(args.find((a) => !a.startsWith("--")) ?? path.join(here, "..", "..", "pkg"));
const ROUNDS = 12;
const WARM = 3;
const KEYS = ["a", "b", "c"];
const LAYERS = ["floor", "core alone", "pushSse alone", "pushSse + snapshot + partialArgs"];

/** Each layer's µs per event for one pass of stream `key`, in this process's CPU time. */
async function nodeLayers() {
  const { init, ToolCallTracker } = await import(pathToFileURL(path.join(dir, "index.js")).href);
  const { WasmTracker } = await import(pathToFileURL(path.join(dir, "tracker.js")).href);
  await init();
  const loops = layerLoops(ToolCallTracker, WasmTracker, cpuTime);
  const streams = Object.fromEntries(KEYS.map((key) => [key, sseChunks(scenario(key))]));
  return {
    perEvent: async (key, layer) => (loops[layer](streams[key]) * 1e3) / streams[key].length,
    close() {},
  };
}

/** Each layer's µs per event, passes repeated for MIN_CALL_MS in one Chromium page. */
async function chromiumLayers() {
  const { launchChromium } = await import("../../tests/js/support/chromium.mjs");
  const { serveStatic } = await import("../../tests/js/support/static-server.mjs");
  const server = await serveStatic({ "/bench/": path.join(here, ".."), "/pkg/": dir }, ISOLATED);
  const browser = await launchChromium();
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route((url) => url.pathname === "/layers.html", (route) => route.fulfill({ contentType: "text/html", headers: ISOLATED, body: PAGE }));
  await page.goto(`${server.url}/layers.html`);
  await page.waitForFunction(() => window.repeat !== undefined || window.failed !== undefined, null, { timeout: 60_000 });
  const failed = await page.evaluate(() => window.failed);
  if (failed || errors.length) throw new Error(`the layers page failed: ${failed ?? errors.join("; ")}`);
  const timed = await threadTimer(page);
  return {
    async perEvent(key, layer) {
      const { result, ms } = await timed(() => page.evaluate((a) => window.repeat(...a), [key, layer, MIN_CALL_MS]));
      return (ms * 1e3) / result;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

// The loops in the page: `repeat` runs passes of one until `minMs` of wall
// time has passed and returns the events they read.
const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
try {
  const { layerLoops } = await import("/bench/perf/layer-loops.mjs");
  const { scenario, sseChunks } = await import("/bench/perf/streams.mjs");
  const { init, ToolCallTracker } = await import("/pkg/index.js");
  const { WasmTracker } = await import("/pkg/tracker.js");
  await init();
  const loops = layerLoops(ToolCallTracker, WasmTracker, () => performance.now());
  const streams = {};
  window.repeat = (key, layer, minMs) => {
    const chunks = (streams[key] ??= sseChunks(scenario(key)));
    const t0 = performance.now();
    let events = 0;
    do {
      loops[layer](chunks);
      events += chunks.length;
    } while (performance.now() - t0 < minMs);
    return events;
  };
} catch (e) { window.failed = String(e.stack ?? e); }
</script>`;

const layers = args.includes("--chromium") ? await chromiumLayers() : await nodeLayers();
try {
  for (const key of KEYS) {
    const times = Object.fromEntries(LAYERS.map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of LAYERS) {
        const us = await layers.perEvent(key, name);
        if (round >= WARM) times[name].push(us);
      }
    }
    const base = median(times.floor);
    const cells = LAYERS.map((name) => {
      const us = median(times[name]);
      return `${name} ${us.toFixed(2)} µs (${(us / base).toFixed(2)}x)`;
    });
    console.log(`${key}: ${cells.join(" | ")}`);
  }
} finally {
  await layers.close();
}
