// The goals' pipelines for several builds of the package side by side, with
// the floor, in one Node process or one Chromium page:
//   node bench/perf/builds.mjs <pkgA> [<pkgB> ...] [--rounds N] [--streams a,b,c]
//                              [--timestamps] [--chromium]
// (e.g. a copy of pkg/ made before a change, then pkg/). Per event, on the
// streams of `npm run bench` (a, b and c): each event its own chunk through
// `pushSse` and through `push`, and every event up to the last delta in one
// chunk, each with the snapshot and a read of the open call's `partialArgs`
// (the runner of bench/perf/measure.mjs). --timestamps gives every event a
// `timestamp`.
// Rounds interleave the builds and the floor; CPU time, median after the
// first three rounds, as ours/floor: on a shared machine the ratios hold
// where absolute figures swing. In Node the process's CPU time
// (process.cpuUsage); with --chromium the renderer main thread's, as
// `npm run bench` times it, each arm repeating its pass for at least 25 ms
// a round (every build imported into the same page, each its own module).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cpuTime, runner } from "./measure.mjs";
import { ISOLATED, MIN_CALL_MS, threadTimer } from "./thread-time.mjs";

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

/** Each pipeline's runner variants: the floor's and ours. */
const PIPELINES = {
  "pushSse, one event per chunk": ["floor", "ours"],
  "push(event)": ["floor", "oursPush"],
  "one chunk of many events": ["floorMany", "oursMany"],
};

/** The median of the rounds after the first three (warm-up). */
const median = (xs) => xs.slice(3).sort((p, q) => p - q)[(xs.length - 3) >> 1];

/** Each arm's µs per event for one pass, in this process's CPU time. */
async function nodeArms() {
  const runners = [];
  for (const dir of dirs) {
    const { ToolCallTracker } = await import(pathToFileURL(path.resolve(dir, "index.js")).href);
    runners.push(runner({ Tracker: ToolCallTracker, now: cpuTime, timestamps }));
  }
  return {
    async perEvent(key, variant, arm) {
      const { ms, events } = await runners[Math.max(arm, 0)].run(key, variant);
      return (ms * 1e3) / events;
    },
    close() {},
  };
}

/** Each arm's µs per event, passes repeated for MIN_CALL_MS in one Chromium page. */
async function chromiumArms() {
  const { launchChromium } = await import("../../tests/js/support/chromium.mjs");
  const { serveStatic } = await import("../../tests/js/support/static-server.mjs");
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
  await page.waitForFunction(() => window.runners !== undefined || window.failed !== undefined, null, { timeout: 60_000 });
  const failed = await page.evaluate(() => window.failed);
  if (failed || errors.length) throw new Error(`the builds page failed: ${failed ?? errors.join("; ")}`);
  const timed = await threadTimer(page);
  return {
    async perEvent(key, variant, arm) {
      const at = Math.max(arm, 0);
      const { result, ms } = await timed(() => page.evaluate(([i, ...a]) => window.runners[i].repeat(...a), [at, key, variant, MIN_CALL_MS]));
      return (ms * 1e3) / result;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

// Every build's runner, in the order given.
const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
try {
  const params = new URLSearchParams(location.search);
  const { runner } = await import("/bench/perf/measure.mjs");
  const runners = [];
  for (let i = 0; i < Number(params.get("builds")); i++) {
    const { init, ToolCallTracker } = await import(\`/pkg\${i}/index.js\`);
    await init();
    runners.push(runner({ Tracker: ToolCallTracker, timestamps: params.get("timestamps") === "true" }));
  }
  window.runners = runners;
} catch (e) { window.failed = String(e.stack ?? e); }
</script>`;

const arms = flag("--chromium") ? await chromiumArms() : await nodeArms();
try {
  for (const key of keys) {
    for (const [name, [floorVariant, oursVariant]] of Object.entries(PIPELINES)) {
      // Arm -1 is the floor (run by the first build's runner), then each build in the order given.
      const samples = [-1, ...dirs.keys()].map(() => []);
      for (let r = 0; r < rounds; r++) {
        for (let arm = -1; arm < dirs.length; arm++) samples[arm + 1].push(await arms.perEvent(key, arm < 0 ? floorVariant : oursVariant, arm));
      }
      const [fl, ...ours] = samples.map(median);
      const cells = ours.map((us, i) => `${dirs[i]} ${us.toFixed(2)} µs (${(us / fl).toFixed(2)}x)`);
      console.log(`${key}, ${name}: floor ${fl.toFixed(2)} µs | ${cells.join(" | ")}`);
    }
  }
} finally {
  await arms.close();
}
