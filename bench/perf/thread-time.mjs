// The Chromium page's CPU time, as `npm run bench` and
// `node bench/perf/builds.mjs --chromium` time it.
import { median } from "./measure.mjs";

/** Headers that make a page cross-origin isolated: `performance.now()` at 5 µs rather than 100 µs. */
export const ISOLATED = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };

/**
 * The least wall time, in ms, one timed call into the page runs passes for.
 * The round trip's cost subtracted from each call is a median and jitters
 * by tens of µs under load; a tiny stream's single pass (AGUI_BENCH_QUICK)
 * is smaller than that, and measured negative.
 */
export const MIN_CALL_MS = 25;

/**
 * Times what `fn` makes the page do in CPU time, as Node is timed: the
 * renderer main thread's (DevTools' Performance.getMetrics ThreadTime:
 * seconds, to the µs) around it, less what an empty round trip costs that
 * thread.
 */
export async function threadTimer(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const threadMs = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime").value * 1e3;
  const timed = async (fn) => {
    const before = await threadMs();
    const result = await fn();
    return { result, ms: (await threadMs()) - before };
  };
  const empty = [];
  for (let i = 0; i < 9; i++) empty.push((await timed(() => page.evaluate(() => 0))).ms);
  const overhead = median(empty);
  return async (fn) => {
    const { result, ms } = await timed(fn);
    return { result, ms: ms - overhead };
  };
}
