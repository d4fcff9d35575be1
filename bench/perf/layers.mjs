// The goal's pipeline one layer at a time, per event, against the floor
// (Node): the wasm core alone (`WasmTracker.feedSse` + `takeChange`, and
// `takeRecord` when there is a record: no JS layer), `pushSse` alone (the
// JS layer makes each snapshot; nothing reads it), and the pipeline of
// `npm run bench` (`pushSse` + `snapshot()` + the open call's
// `partialArgs`), each chunk one event, on the streams a, b and c.
//   node bench/perf/layers.mjs [<pkg>]   (default: pkg/, after `npm run build`)
// CPU time (process.cpuUsage), the four loops interleaved round by round,
// median of 9 rounds after 3, as ours / floor.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cpuTime, floor, median, oursSse } from "./measure.mjs";
import { scenario, sseChunks } from "./streams.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.resolve(process.argv[2] ?? path.join(here, "..", "..", "pkg"));
const { init, ToolCallTracker } = await import(pathToFileURL(path.join(dir, "index.js")).href);
const { WasmTracker } = await import(pathToFileURL(path.join(dir, "tracker.js")).href);
await init();
const ROUNDS = 12;
const WARM = 3;

/** The wasm core alone: each chunk fed, what changed taken (a record made and taken, a text change left in memory). */
function core(chunks) {
  const tracker = new WasmTracker("{}", 0);
  const t0 = cpuTime();
  for (const chunk of chunks) if (tracker.feedSse(chunk) && tracker.takeChange(false) === 1) tracker.takeRecord();
  const ms = cpuTime() - t0;
  tracker.free();
  return ms;
}

/** `pushSse` alone: the JS layer makes every snapshot, nothing reads it. */
function pushOnly(chunks) {
  const tracker = new ToolCallTracker();
  const t0 = cpuTime();
  for (const chunk of chunks) tracker.pushSse(chunk);
  const ms = cpuTime() - t0;
  tracker.free();
  return ms;
}

const loops = {
  floor: (chunks) => floor(chunks, cpuTime).ms,
  "core alone": core,
  "pushSse alone": pushOnly,
  "pushSse + snapshot + partialArgs": (chunks) => oursSse(ToolCallTracker, chunks, cpuTime).ms,
};

for (const key of ["a", "b", "c"]) {
  const chunks = sseChunks(scenario(key));
  const times = Object.fromEntries(Object.keys(loops).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, loop] of Object.entries(loops)) {
      const ms = loop(chunks);
      if (round >= WARM) times[name].push(ms);
    }
  }
  const base = median(times.floor);
  const cells = Object.keys(loops).map((name) => {
    const ms = median(times[name]);
    return `${name} ${((ms / chunks.length) * 1e3).toFixed(2)} µs (${(ms / base).toFixed(2)}x)`;
  });
  console.log(`${key}: ${cells.join(" | ")}`);
}
