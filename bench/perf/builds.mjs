// The goals' pipelines for several builds of the package side by side, with
// the floor, in one Node process or one Chromium page:
//   node bench/perf/builds.mjs <pkgA> [<pkgB> ...] [--rounds N] [--streams a,b,c]
//                              [--timestamps] [--chromium]
// (e.g. a copy of pkg/ made before a change, then pkg/). Per event, on the
// streams of `npm run bench` (a, b and c): the pipelines of
// bench/perf/pipelines.mjs, each with the snapshot and a read of the open
// call's `partialArgs`. --timestamps gives every event a `timestamp`.
// Rounds interleave the builds and the floor; CPU time, median after the
// first three rounds, as ours/floor: on a shared machine the ratios hold
// where absolute figures swing. In Node the process's CPU time
// (process.cpuUsage); with --chromium the renderer main thread's, as
// `npm run bench` times it, each arm repeating its pass for at least 25 ms
// a round (every build imported into the same page, each its own module).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cpuTime } from "./measure.mjs";
import { PIPELINES, pipelines } from "./pipelines.mjs";

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const valueOf = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const rounds = Number(valueOf("--rounds") ?? 15);
const keys = (valueOf("--streams") ?? "a,b,c").split(",");
const values = new Set(["--rounds", "--streams"].map((name) => args.indexOf(name) + 1).filter((i) => i > 0));
const dirs = args.filter((a, i) => !a.startsWith("--") && !values.has(i));
if (dirs.length === 0 || !(rounds > 3)) {
  throw new Error("usage: node bench/perf/builds.mjs <pkgA> [<pkgB> ...] [--rounds N > 3] [--streams a,b,c] [--timestamps] [--chromium]");
}
const timestamps = flag("--timestamps");

/** The median of the rounds after the first three (warm-up). */
const median = (xs) => xs.slice(3).sort((p, q) => p - q)[(xs.length - 3) >> 1];

/** Each arm's µs per event for one pass, in this process's CPU time. */
async function nodeArms() {
  const trackers = [];
  for (const dir of dirs) trackers.push((await import(pathToFileURL(path.resolve(dir, "index.js")).href)).ToolCallTracker);
  const made = {};
  const of = (key) => (made[key] ??= pipelines(key, timestamps));
  return {
    perEvent(key, name, arm) {
      const p = of(key)[name];
      const { ms } = arm < 0 ? p.floor(cpuTime) : p.ours(trackers[arm], cpuTime);
      return (ms * 1e3) / p.n;
    },
    close() {},
  };
}

/** Each arm's µs per event, passes repeated for MIN_MS in one Chromium page. */
async function chromiumArms() {
  const { launchChromium } = await import("../../tests/js/support/chromium.mjs");
  const { serveStatic } = await import("../../tests/js/support/static-server.mjs");
  const { threadTimer } = await import("./thread-time.mjs");
  const bench = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const mounts = { "/bench/": bench };
  dirs.forEach((dir, i) => (mounts[`/pkg${i}/`] = path.resolve(dir)));
  const server = await serveStatic(mounts, ISOLATED);
  const browser = await launchChromium();
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // The page itself is served from memory, cross-origin isolated like the
  // files (performance.now() at 5 µs).
  await page.route((url) => url.pathname === "/builds.html", (route) => route.fulfill({ contentType: "text/html", headers: ISOLATED, body: PAGE }));
  await page.goto(`${server.url}/builds.html?builds=${dirs.length}&timestamps=${timestamps}`);
  await page.waitForFunction(() => window.arm !== undefined || window.failed !== undefined, null, { timeout: 60_000 });
  const failed = await page.evaluate(() => window.failed);
  if (failed || errors.length) throw new Error(`the builds page failed: ${failed ?? errors.join("; ")}`);
  const timed = await threadTimer(page);
  return {
    async perEvent(key, name, arm) {
      const { result, ms } = await timed(() => page.evaluate((a) => window.arm(...a), [key, name, arm, MIN_MS]));
      return (ms * 1e3) / result;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

const ISOLATED = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };

/** The least wall time one timed call into the page runs passes for (see perf.bench.mjs). */
const MIN_MS = 25;

const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
try {
  const params = new URLSearchParams(location.search);
  const trackers = [];
  for (let i = 0; i < Number(params.get("builds")); i++) {
    const { init, ToolCallTracker } = await import(\`/pkg\${i}/index.js\`);
    await init();
    trackers.push(ToolCallTracker);
  }
  const { pipelines } = await import("/bench/perf/pipelines.mjs");
  const made = {};
  const now = () => performance.now();
  // Passes of one arm until minMs has passed; the events they read.
  window.arm = (key, name, arm, minMs) => {
    const p = (made[key] ??= pipelines(key, params.get("timestamps") === "true"))[name];
    const t0 = performance.now();
    let events = 0;
    do {
      if (arm < 0) p.floor(now);
      else p.ours(trackers[arm], now);
      events += p.n;
    } while (performance.now() - t0 < minMs);
    return events;
  };
} catch (e) { window.failed = String(e.stack ?? e); }
</script>`;

const arms = flag("--chromium") ? await chromiumArms() : await nodeArms();
try {
  for (const key of keys) {
    for (const name of PIPELINES) {
      // Arm -1 is the floor, then each build in the order given.
      const samples = [-1, ...dirs.keys()].map(() => []);
      for (let r = 0; r < rounds; r++) {
        for (let arm = -1; arm < dirs.length; arm++) samples[arm + 1].push(await arms.perEvent(key, name, arm));
      }
      const [fl, ...ours] = samples.map(median);
      const cells = ours.map((us, i) => `${dirs[i]} ${us.toFixed(2)} µs (${(us / fl).toFixed(2)}x)`);
      console.log(`${key}, ${name}: floor ${fl.toFixed(2)} µs | ${cells.join(" | ")}`);
    }
  }
} finally {
  await arms.close();
}
