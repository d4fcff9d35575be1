// Push + snapshot per TOOL_CALL_ARGS event, two builds of the package side
// by side in one process: `node bench/compare.mjs <pkgA> <pkgB>` (e.g. the
// pkg/ of two commits). Rounds are interleaved and timed
// in CPU time (process.cpuUsage), best of 30: on a shared, loaded machine
// wall-clock figures swing by 2x, CPU time by a few percent.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { prelude } from "./support.mjs";

const dirs = process.argv.slice(2);
if (dirs.length !== 2) throw new Error("usage: node bench/compare.mjs <pkgA> <pkgB>");
const trackers = [];
for (const dir of dirs) trackers.push((await import(pathToFileURL(path.resolve(dir, "index.js")).href)).ToolCallTracker);

const DELTAS = 4000;

/** CPU nanoseconds per delta, one round. */
function round(Tracker, completed) {
  const tracker = new Tracker();
  for (const e of prelude(completed)) tracker.push(e);
  const start = process.cpuUsage();
  for (let i = 0; i < DELTAS; i++) {
    tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "live", delta: i === 0 ? '{"text":"' : "abcd" });
    tracker.snapshot();
  }
  const used = process.cpuUsage(start);
  tracker.free();
  return ((used.user + used.system) * 1e3) / DELTAS;
}

const rows = [];
for (const completed of [0, 200]) {
  const best = [Infinity, Infinity];
  for (let r = 0; r < 30; r++) trackers.forEach((T, k) => (best[k] = Math.min(best[k], round(T, completed))));
  rows.push({
    thread: completed ? "200 completed + 1 streaming" : "1 streaming call",
    [dirs[0]]: `${(best[0] / 1e3).toFixed(2)} µs`,
    [dirs[1]]: `${(best[1] / 1e3).toFixed(2)} µs`,
    "B / A": `${((best[1] / best[0] - 1) * 100).toFixed(1)}%`,
  });
}
console.log(`push + snapshot per delta, CPU time, best of 30 interleaved rounds of ${DELTAS} (Node ${process.version})\n`);
console.table(rows);
