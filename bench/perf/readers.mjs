// What a delta costs a reader of `partialArgs` that reads every state, and
// readers that read now and then (the newest state every 3, 10 and 30
// deltas, as a component that renders a frame's last state does), for
// several builds side by side in one process:
//   node bench/perf/readers.mjs <pkgA> [<pkgB> ...]
// (e.g. a copy of pkg/ made before a change, then pkg/). Each delta is
// pushed as an event object (`push`); two arguments: the 64 KB report of
// `npm run bench` in deltas of 4 characters, and an open array of 4,000
// numbers, a number per delta. CPU time per delta (process.cpuUsage),
// median of 10 rounds after 3, the builds alternating round by round.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { argumentsOfSize, deltas } from "../support.mjs";
import { cpuTime, median } from "./measure.mjs";

const dirs = process.argv.slice(2).map((dir) => path.resolve(dir));
if (dirs.length === 0) throw new Error("usage: node bench/perf/readers.mjs <pkgA> [<pkgB> ...]");
const ROUNDS = 13;
const WARM = 3;

const builds = await Promise.all(
  dirs.map(async (dir) => {
    const { init, ToolCallTracker } = await import(pathToFileURL(path.join(dir, "index.js")).href);
    await init();
    return ToolCallTracker;
  }),
);

const streams = {
  "64 KB report": deltas(argumentsOfSize(64 * 1024), 4),
  "open array of 4,000": ['{"items":[', ...Array.from({ length: 4000 }, (_, i) => (i ? `,${i}` : "0"))],
};

/** Values read, so that no read is optimised away. */
let read = 0;

/** CPU ms to push `stream`'s deltas, reading the newest state's `partialArgs` after every `every`th. */
function pass(Tracker, stream, every) {
  const tracker = new Tracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
  const t0 = cpuTime();
  for (let i = 0; i < stream.length; i++) {
    const snapshot = tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: stream[i] });
    if (i % every === every - 1 && snapshot.calls[0].partialArgs !== undefined) read++;
  }
  const ms = cpuTime() - t0;
  tracker.free();
  return ms;
}

for (const [name, stream] of Object.entries(streams)) {
  for (const every of [1, 3, 10, 30]) {
    const times = builds.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      builds.forEach((Tracker, b) => {
        const ms = pass(Tracker, stream, every);
        if (round >= WARM) times[b].push(ms);
      });
    }
    const cells = dirs.map((dir, b) => `${path.basename(dir)} ${((median(times[b]) / stream.length) * 1e3).toFixed(2)} µs`);
    console.log(`${name}, read every ${every}: ${cells.join(" | ")}`);
  }
}
if (read === 0) throw new Error("no value was read");
