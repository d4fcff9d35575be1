// Reading `partialArgs` after every delta of one wide open array, and of
// one wide open object: the total CPU time of the stream from 2,500 to
// 80,000 elements (or keys), and the exponent of its growth (1 is linear,
// 2 quadratic), from the two ends and by a least-squares fit in log-log.
// `npm run bench:wide` (AGUI_PKG=<dir> measures another build; AGUI_MAX
// stops at fewer elements, for a build where 80,000 takes too long).
// CPU time (process.cpuUsage), one run per size: on a shared machine the
// exponent holds where absolute figures swing.
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.env.AGUI_PKG ? path.resolve(process.env.AGUI_PKG) : new URL("../pkg/", import.meta.url).pathname;
const { ToolCallTracker } = await import(pathToFileURL(path.join(dir, "index.js")).href);
const max = Number(process.env.AGUI_MAX ?? 80000);

const shapes = {
  array: { open: '{"items":[', delta: (i) => (i ? `,${i}` : "0"), width: (v) => v.items.length },
  object: { open: '{"items":{', delta: (i) => `${i ? "," : ""}"k${i}":${i}`, width: (v) => Object.keys(v.items).length },
};

/** CPU ms to stream `n` elements of `shape`, reading `partialArgs` after each delta; and the last width read. */
function stream(shape, n) {
  const t = new ToolCallTracker();
  t.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  t.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
  t.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: shape.open });
  let value;
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) value = t.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: shape.delta(i) }).calls[0].partialArgs;
  const used = process.cpuUsage(start);
  t.free();
  return { ms: (used.user + used.system) / 1e3, width: shape.width(value) };
}

/** The slope of log(ms) against log(n). */
function fit(points) {
  const xs = points.map((p) => Math.log(p.n));
  const ys = points.map((p) => Math.log(p.ms));
  const mx = xs.reduce((a, b) => a + b) / xs.length;
  const my = ys.reduce((a, b) => a + b) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i] - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

console.log(`Node ${process.version}, package ${path.relative(process.cwd(), dir) || "."}, partialArgs read after every delta (CPU time)\n`);
for (const [name, shape] of Object.entries(shapes)) {
  stream(shape, 2500); // warm-up
  const points = [];
  for (let n = 2500; n <= max; n *= 2) {
    const { ms, width } = stream(shape, n);
    points.push({ n, ms });
    console.log(`${name}, ${n} ${name === "array" ? "elements" : "keys"}: ${ms.toFixed(0)} ms (${((ms * 1e3) / n).toFixed(2)} µs per delta), last read ${width} wide`);
  }
  const [first, last] = [points[0], points.at(-1)];
  const ends = Math.log(last.ms / first.ms) / Math.log(last.n / first.n);
  console.log(`${name}: exponent ${ends.toFixed(2)} (${first.n} -> ${last.n}), ${fit(points).toFixed(2)} (least squares)\n`);
}
