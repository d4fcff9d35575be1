// The loops of bench/perf/layers.mjs, one per layer of the goal's
// pipeline, shared by Node and the Chromium page: plain ESM, no Node-only
// import. Each times one pass of a stream's chunks (one event each) with
// `now()` (ms) and returns that time.
import { floor, oursSse } from "./measure.mjs";

/**
 * The layers, by name, for a package's `ToolCallTracker` and its wasm
 * binding's `WasmTracker` (`tracker.js`).
 */
export function layerLoops(ToolCallTracker, WasmTracker, now) {
  return {
    floor: (chunks) => floor(chunks, now).ms,
    // The wasm core alone: each chunk fed, what changed taken (a record
    // made and taken, a text change left in memory). No JS layer.
    "core alone": (chunks) => {
      const tracker = new WasmTracker("{}", 0);
      const t0 = now();
      for (const chunk of chunks) if (tracker.feedSse(chunk) && tracker.takeChange(false) === 1) tracker.takeRecord();
      const ms = now() - t0;
      tracker.free();
      return ms;
    },
    // `pushSse` alone: the JS layer makes every snapshot, nothing reads it.
    "pushSse alone": (chunks) => {
      const tracker = new ToolCallTracker();
      const t0 = now();
      for (const chunk of chunks) tracker.pushSse(chunk);
      const ms = now() - t0;
      tracker.free();
      return ms;
    },
    "pushSse + snapshot + partialArgs": (chunks) => oursSse(ToolCallTracker, chunks, now).ms,
  };
}
