// The goals' pipelines for several builds of the package side by side, with
// the floor, in one Node process:
//   node bench/perf/builds.mjs <pkgA> [<pkgB> ...] [--rounds N] [--timestamps]
// (e.g. a copy of pkg/ made before a change, then pkg/). Per event, on the
// streams of `npm run bench` (a and b): each event its own chunk through
// `pushSse` and through `push`, and every event up to the last delta in one
// chunk, each with the snapshot and a read of the open call's
// `partialArgs`. --timestamps gives every event a `timestamp` (ms, after
// `type`, as @ag-ui/core's schemas order it), as many agents send them.
// Rounds interleave the builds and the floor; CPU time
// (process.cpuUsage), median after the first rounds, as ours/floor: on a
// shared machine the ratios hold where absolute figures swing.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { cpuTime, floor, oursPush, oursSse } from "./measure.mjs";
import { oneChunk, scenario, sseChunks } from "./streams.mjs";

const timestamps = process.argv.includes("--timestamps");
const args = process.argv.slice(2).filter((a) => a !== "--timestamps");
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 15;
const dirs = args.filter((_, i) => roundsAt < 0 || (i !== roundsAt && i !== roundsAt + 1));
if (dirs.length === 0 || !(rounds > 3)) throw new Error("usage: node bench/perf/builds.mjs <pkgA> [<pkgB> ...] [--rounds N > 3] [--timestamps]");
const trackers = [];
for (const dir of dirs) trackers.push((await import(pathToFileURL(path.resolve(dir, "index.js")).href)).ToolCallTracker);

/** The median of the rounds after the first three (warm-up). */
const median = (xs) => xs.slice(3).sort((p, q) => p - q)[(xs.length - 3) >> 1];

for (const key of ["a", "b", "c"]) {
  const events = timestamps ? scenario(key).map(({ type, ...rest }, i) => ({ type, timestamp: 1764518400000 + i, ...rest })) : scenario(key);
  const many = events.slice(0, events.findLastIndex((e) => e.type === "TOOL_CALL_ARGS") + 1);
  const chunks = sseChunks(events);
  const chunk = [oneChunk(many)];
  const pipelines = {
    "pushSse, one event per chunk": { floor: () => floor(chunks, cpuTime), ours: (T) => oursSse(T, chunks, cpuTime), n: events.length },
    "push(event)": { floor: () => floor(chunks, cpuTime), ours: (T) => oursPush(T, events, cpuTime), n: events.length },
    "one chunk of many events": { floor: () => floor(chunk, cpuTime), ours: (T) => oursSse(T, chunk, cpuTime), n: many.length },
  };
  for (const [name, p] of Object.entries(pipelines)) {
    const samples = [[], ...trackers.map(() => [])];
    for (let r = 0; r < rounds; r++) {
      samples[0].push(p.floor().ms);
      trackers.forEach((T, i) => samples[i + 1].push(p.ours(T).ms));
    }
    const [fl, ...ours] = samples.map(median);
    const cells = ours.map((ms, i) => `${dirs[i]} ${((ms * 1e3) / p.n).toFixed(2)} µs (${(ms / fl).toFixed(2)}x)`);
    console.log(`${key}, ${name}: floor ${((fl * 1e3) / p.n).toFixed(2)} µs | ${cells.join(" | ")}`);
  }
}
