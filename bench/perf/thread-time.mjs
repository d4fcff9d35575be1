// The Chromium page's CPU time, as `npm run bench` and
// `node bench/perf/builds.mjs --chromium` time it.

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

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
